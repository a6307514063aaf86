"""Which public reports are reserved for the diagnosis holdout.

The holdout must hold reports the knowledge base has never seen. To keep knowledge mining and case
collection apart without coordination, the space of report URLs is split by a hash fixed before any
tuning: a report URL (an issue, pull request or discussion thread on GitHub or Gitee, a forum thread)
whose bucket is 0 is reserved for the holdout. Knowledge may not cite a reserved URL, unless the
knowledge already cited it when the split was frozen (reserved_cited_at_freeze.txt) or a knowledge author
has read it (reserved_seen_by_miners.txt): either way it can never be a holdout case, so citing it leaks
nothing. A holdout case must come from a reserved URL that the knowledge does not cite and no knowledge
author has read. Documentation pages are never reserved and never holdout cases.

    python tests/diagnosis_split.py URL [URL ...]     # prints each URL's verdict
    git -C REPO log | python tests/diagnosis_split.py --log owner/name
                      # the log without the commits that name a reserved report (read history through it)
"""
from __future__ import annotations

import hashlib
import re
import sys
from urllib.parse import urlsplit

BUCKETS = 3
HOLDOUT_BUCKET = 0

_GITHUB_THREAD = re.compile(r"^/([^/]+)/([^/]+)/(?:issues|pull|pulls|discussions)/(\d+)")
_GITEE_THREAD = re.compile(r"^/([^/]+)/([^/]+)/(?:issues|pulls)/([A-Za-z0-9]+)")
_FORUM_HOSTS = ("bbs.huaweicloud.com", "forum.huawei.com", "discuss.mindspore.cn")


def normalise(url: str) -> str:
    """One spelling per report: no fragment, query or trailing slash; GitHub issue and pull request
    numbers share one space, so both spellings name one thread."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path.rstrip("/")
    m = _GITHUB_THREAD.match(path) if host == "github.com" else None
    if m:
        return f"https://github.com/{m.group(1).lower()}/{m.group(2).lower()}/issues/{m.group(3)}"
    m = _GITEE_THREAD.match(path) if host == "gitee.com" else None
    if m:
        return f"https://gitee.com/{m.group(1).lower()}/{m.group(2).lower()}/issues/{m.group(3)}"
    return f"https://{host}{path}"


def is_report(url: str) -> bool:
    """A user's report thread (not a documentation page)."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    path = parts.path
    if host == "github.com":
        return bool(_GITHUB_THREAD.match(path))
    if host == "gitee.com":
        return bool(_GITEE_THREAD.match(path))
    if host == "hiascend.com" and path.startswith("/forum"):
        return True
    return host in _FORUM_HOSTS


def bucket(url: str) -> int:
    digest = hashlib.sha256(normalise(url).encode("utf-8")).hexdigest()
    return int(digest[:12], 16) % BUCKETS


#: repositories known under two names (renamed on GitHub): a thread is reserved when it is reserved
#: under either spelling, so knowledge can never cite a holdout report through the other name
ALIASES = {
    "hiyouga/llamafactory": "hiyouga/llama-factory", "hiyouga/llama-factory": "hiyouga/llamafactory",
    "deepspeedai/deepspeed": "microsoft/deepspeed", "microsoft/deepspeed": "deepspeedai/deepspeed",
    "verl-project/verl": "volcengine/verl", "volcengine/verl": "verl-project/verl",
}


def spellings(url: str) -> list[str]:
    """The normalised URL and, for a renamed repository, its other spelling."""
    n = normalise(url)
    m = re.match(r"^https://github\.com/([^/]+/[^/]+)/issues/(\d+)$", n)
    if m and m.group(1) in ALIASES:
        return [n, f"https://github.com/{ALIASES[m.group(1)]}/issues/{m.group(2)}"]
    return [n]


def reserved_for_holdout(url: str) -> bool:
    return is_report(url) and any(bucket(u) == HOLDOUT_BUCKET for u in spellings(url))


def burned() -> set[str]:
    """The reserved URLs that can never be holdout cases: cited when the split was frozen, or read by a knowledge
    author (normalised)."""
    from pathlib import Path

    here = Path(__file__).resolve().parent / "diagnosis_cases"
    out = set()
    for name in ("reserved_cited_at_freeze.txt", "reserved_seen_by_miners.txt"):
        for line in (here / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                out.update(spellings(line.strip()))
    return out


_COMMIT = re.compile(r"^commit [0-9a-f]{40}\b")
_REF = re.compile(r"(?:github\.com/([\w.-]+/[\w.-]+)/(?:issues|pull|pulls|discussions)/|(?<![\w/])(?:([\w.-]+/[\w.-]+))?#)(\d+)\b")


def _entries(lines: list[str]) -> list[list[str]]:
    """A ``git log``'s commits (entries start with 'commit <sha>'), or its lines (``--oneline``)."""
    if not any(_COMMIT.match(ln) for ln in lines):
        return [[ln] for ln in lines]
    out: list[list[str]] = []
    for ln in lines:
        if _COMMIT.match(ln) or not out:
            out.append([])
        out[-1].append(ln)
    return out


def filter_log(repo: str, lines: list[str], done: "set[str] | None" = None) -> list[str]:
    """A repository's ``git log`` without the commits that name a report reserved for the holdout and not
    burned (``#1234`` of ``repo``, ``owner/name#1234`` or a thread URL): a squash-merged pull request's
    message is that pull request's text, so reading the log must not show a holdout report's fix."""
    done = burned() if done is None else done
    out: list[str] = []
    hidden = 0
    for entry in _entries(lines):
        urls = {f"https://github.com/{(m.group(1) or m.group(2) or repo)}/issues/{m.group(3)}"
                for ln in entry for m in _REF.finditer(ln)}
        if any(reserved_for_holdout(u) and not set(spellings(u)) & done for u in urls):
            hidden += 1
            continue
        out.extend(entry)
    if hidden:
        out.append(f"[{hidden} commit(s) hidden: they name a report reserved for the holdout]")
    return out


if __name__ == "__main__":  # pragma: no cover - a helper for people collecting cases
    if sys.argv[1:2] == ["--log"] and len(sys.argv) == 3:
        # git -C REPO log | python tests/diagnosis_split.py --log owner/name
        lines = sys.stdin.read().splitlines()
        if lines and not any(_COMMIT.match(ln) for ln in lines):
            # 'git log --oneline' shows subjects only, and 'git log --format=%B' drops the headers that group a
            # commit's lines: a body that names a reserved report ("Fixes #1276") hides only its own line
            print("diagnosis_split: refused: a one-line log, or one without 'commit <sha>' headers, cannot be filtered "
                  "(a commit whose body names a reserved report would keep its other lines). Pipe plain 'git log' (full "
                  "messages with their headers) and list subjects from the filtered output.", file=sys.stderr)
            sys.exit(2)
        print("\n".join(filter_log(sys.argv[2], lines)))
        sys.exit(0)
    done = burned()
    for arg in sys.argv[1:]:
        if not reserved_for_holdout(arg):
            verdict = "open (knowledge may cite it; not a holdout case)"
        elif set(spellings(arg)) & done:
            verdict = "HOLDOUT-RESERVED but already read or cited (knowledge may cite it; never a holdout case)"
        else:
            verdict = "HOLDOUT-RESERVED (knowledge may not cite it)"
        print(f"{normalise(arg)}  {verdict}")
