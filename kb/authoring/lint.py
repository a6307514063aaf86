"""``ascend-doctor kb lint``: the knowledge files checked the way reviewers check them.

1. Each file against its JSON Schema (``schemas.py``: what an editor checks as you type).
2. The loader's full validation (regexes against their examples, ids, links, conditions, versions).
3. Quality rules over the whole knowledge, each with a code:

   K101 error    user-facing text mentions internal material ("(seed)", reference/, seeds/, samples/ paths)
   K102 error    a problem that is not benign has no signature copied from a public log (``source``), and
                 does not say it prints no message of its own (``silent``); a warning for the shipped problems
                 listed in knowledge/ungrounded.toml (searched for, not found yet) and for overlays (a site's
                 own knowledge comes from its own runbooks)
   K103 error    two problems look like the same problem: the same title, or the same signature unless the two
                 name each other as related and the line weighs at most SHARED_LINE_MAX in both (a line two
                 distinct causes print, 'libascend_hal.so: cannot open' on a host without a driver or in a
                 container without its mounts, told apart by the rest of the evidence)
   K104 error    a disruptive command (reboot, restart, uninstall, kill, reset, sysctl, swap off, ipcrm) is the first step
                 of a fix, or its step does not start with a warning in both languages
   K105 warning  a compatibility row cites a source that is not an official page of the vendor or project
   K106 error    a signature weighs more than SHARED_LINE_MAX although it also matches a line another
                 problem's signature was copied from, or a line another problem quotes as its symptom: the
                 line does not tell the two apart, so neither should decide on it alone (lower the weight or
                 make the regex specific)
   K107 warning  knowledge/ungrounded.toml lists a problem that is grounded now, silent, benign or gone:
                 take it out
   K108 error    a signature's source (where its example lines were copied from) is not among its problem's
                 sources: a user reading ``explain`` could not open the report the line came from (a warning for
                 overlays)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..loader import Issue, knowledge_files, load
from ..locate import Node, locate
from ..toml import tomllib
from .jsonschema_lite import errors as schema_errors
from .schemas import knowledge_schemas

#: a command that disrupts a running machine or service: never the first step, always with a warning
DISRUPTIVE = re.compile(r"(?:^|;|&&|\|\|)\s*(?:sudo\s+)?reboot(?:\s|;|$)|systemctl restart|docker (?:stop|rm)\b|"
                        r"pip uninstall|-tls -s enable|\bkill -9\b|\bpkill\b|npu-smi set -t reset|\brmmod\b|sysctl -w|"
                        r"\bswapoff\b|\bmkswap\b|\bipcrm\b|\brm -rf /(?:var|usr|etc|opt|lib)\b|"
                        r"/(?:driver|firmware)/script/uninstall\.sh\b|\.run\b[^;&|]*\s--uninstall\b")
#: the most a signature may weigh when its line is also another problem's example line (K106)
SHARED_LINE_MAX = 0.5
INTERNAL = re.compile(r"\(seed\)|(?<![\w/])(?:reference|seeds|samples)/[\w.\-]+")
#: hosts (and owners on code hosts) whose pages are official sources for a compatibility statement
OFFICIAL = re.compile(r"^https?://(?:[\w.-]*\.)?(?:hiascend\.com|huawei\.com|huaweicloud\.com|mindspore\.cn|"
                      r"pypi\.org/project|docs\.sglang\.io|docs\.vllm\.ai|vllm-ascend\.readthedocs\.io)"
                      r"|^https?://(?:github\.com|gitee\.com|gitcode\.com)/(?:Ascend|ascend|cann|vllm-project|"
                      r"sgl-project|mindspore|mindspore-ai|hiyouga|volcengine|modelscope|deepspeedai|microsoft|triton-lang)/",
                      re.IGNORECASE)


@dataclass(frozen=True)
class LintFinding:
    file: str
    line: int
    code: str
    severity: str          # error | warning
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.code} {self.severity}: {self.message}"


def _kind(path: Path, overlay: bool) -> str:
    return "overlay" if overlay else {"problems": "problems", "codes": "codes", "compat": "compat"}.get(path.parent.name, "")


def _line(root: Node, path: str) -> int:
    """The line of ``problem[3].fix[0].kind`` in a file, as near as the locator knows."""
    node, line = root, root.line
    for part in re.findall(r"[A-Za-z_]+(?:\[\d+\])?", path):
        m = re.fullmatch(r"([A-Za-z_]+)\[(\d+)\]", part)
        if m and m.group(1) in node.children:
            node = node.child(m.group(1), int(m.group(2)))
            line = node.line
        else:
            line = node.key_line(part.split("[")[0])
    return line


def schema_findings(path: Path, display: str, kind: str, vocab: dict) -> list[LintFinding]:
    schema = knowledge_schemas(vocab).get(f"{kind}.schema.json")
    if schema is None:
        return []
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return []                                  # the loader reports it with its line
    root = locate(text)
    out = []
    for message in schema_errors(schema, data):
        where = message.split(":", 1)[0]
        out.append(LintFinding(display, _line(root, where), "K001", "error", f"schema: {message}"))
    return out


def _title_key(title: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+|[\u3400-\u9fff]", title.lower()))


#: the shipped problems known to lack a real-line signature (K102 warns for them, errs for any other)
UNGROUNDED = "ungrounded.toml"


def ungrounded(knowledge_dir: Path) -> frozenset[str]:
    """The problem ids knowledge_dir/ungrounded.toml lists (none when it is absent)."""
    path = knowledge_dir / UNGROUNDED
    if not path.is_file():
        return frozenset()
    return frozenset(tomllib.loads(path.read_text(encoding="utf-8")).get("problems", []))


def quality_findings(kn, pending: frozenset[str] = frozenset()) -> list[LintFinding]:
    """``pending``: the shipped problems known to lack a real-line signature (``ungrounded``)."""
    out: list[LintFinding] = []

    def add(obj, code: str, severity: str, message: str) -> None:
        out.append(LintFinding(getattr(obj, "file", ""), getattr(obj, "line", 1), code, severity, message))

    titles: dict[str, str] = {}
    regexes: dict[str, tuple[str, float]] = {}
    related = {p.id: set(p.related) for p in kn.problems}

    def shared_on_purpose(a: str, wa: float, b: str, wb: float) -> bool:
        return (b in related.get(a, ()) or a in related.get(b, ())) and max(wa, wb) <= SHARED_LINE_MAX
    for p in kn.problems:
        texts = [*p.title.values(), *p.summary.values(), *p.root_cause.values(),
                 *(s for lst in p.symptoms.values() for s in lst),
                 *(t for f in p.fixes for t in (*f.summary.values(), *(x for st in f.steps for x in (st.en, st.zh))))]
        hits = sorted({m.group(0) for t in texts for m in INTERNAL.finditer(t)})
        if hits:
            add(p, "K101", "error", f"problem {p.id!r} shows internal material to users: {', '.join(hits)}")
        needs_line = p.severity != "info" and p.family != "benign" and not p.silent
        if needs_line and not any(s.source for s in p.signatures):
            known = p.origin != "builtin" or p.id in pending
            add(p, "K102", "warning" if known else "error",
                f"problem {p.id!r} has no signature copied from a public log (signature source)"
                + ("" if known else f"; give it one, mark it silent, or (searched for, none found) list it in {UNGROUNDED}"))
        elif p.id in pending:
            add(p, "K107", "warning", f"problem {p.id!r} is listed in {UNGROUNDED} but "
                                      + ("is silent or benign" if not needs_line else "has a real-line signature now")
                                      + ": take it out of the list")
        key = _title_key(p.title.get("en", ""))
        if key in titles:
            add(p, "K103", "error", f"problem {p.id!r} has the same title as {titles[key]!r}")
        titles.setdefault(key, p.id)
        listed = {_url_key(u) for u in p.sources}
        for s in p.signatures:
            if s.source and _url_key(s.source) not in listed:
                add(p, "K108", "error" if p.origin == "builtin" else "warning",
                    f"problem {p.id!r}: its signature {s.literal!r} was copied from {s.source}, which is not among "
                    "the problem's sources (add it there)")
            other, w = regexes.get(s.regex, (p.id, s.weight))
            if other != p.id and not shared_on_purpose(p.id, s.weight, other, w):
                add(p, "K103", "error", f"problem {p.id!r} has the same signature as {other!r}: {s.literal!r} "
                                        "(merge them, or name each other as related with the line at most "
                                        f"{SHARED_LINE_MAX})")
            regexes.setdefault(s.regex, (p.id, s.weight))
        for f in p.fixes:
            for i, st in enumerate(f.steps):
                if DISRUPTIVE.search(st.command or "") and (
                        i == 0 or not st.en.startswith("Warning") or not st.zh.startswith("注意")):
                    add(p, "K104", "error", f"problem {p.id!r}: the disruptive step {st.command!r} must not be first "
                                            "and must start with 'Warning' / '注意'")
    out += _shared_lines(kn)
    for row in kn.compat:
        if not OFFICIAL.match(row.source):
            out.append(LintFinding(row.file, row.line, "K105", "warning",
                                   f"{row.matrix} row cites {row.source}, not an official page of the vendor or project"))
    return out


def _url_key(url: str) -> str:
    """A URL as K108 compares it: no fragment, no trailing slash."""
    return url.strip().split("#", 1)[0].rstrip("/")


def _shared_lines(kn) -> list[LintFinding]:
    """K106: heavy signatures whose regex also matches another problem's example lines, or a line another problem
    quotes as its symptom (a line two problems name says which of them only with its context)."""
    examples = [(p.id, m) for p in kn.problems for s in p.signatures for m in s.match]
    examples += [(p.id, m) for p in kn.problems for lang in ("en", "zh") for m in p.symptoms.get(lang, [])]
    out = []
    for p in kn.problems:
        for s in p.signatures:
            if s.weight <= SHARED_LINE_MAX:
                continue
            try:
                rx = re.compile(s.regex)
            except re.error:
                continue                      # the loader reports it
            others = sorted({pid for pid, m in examples if pid != p.id and s.literal in m and rx.search(m)})
            if others:
                out.append(LintFinding(getattr(s, "file", "") or p.file, getattr(s, "line", 0) or p.line, "K106",
                                       "error", f"problem {p.id!r}: signature {s.literal!r} weighs {s.weight} but "
                                       f"also matches the example lines or symptoms of {', '.join(others)}"))
    return out


def lint(knowledge_dir: Path, overlays: Iterable[Path] = (), root_for_display: Path | None = None) -> list[LintFinding]:
    """Every lint finding over the knowledge (and overlays), errors of the loader included (code K000)."""
    overlays = list(overlays)
    kn, issues = load(knowledge_dir, overlays, root_for_display=root_for_display)
    base = root_for_display or knowledge_dir.parent.parent
    found: list[LintFinding] = [LintFinding(i.file, i.line, "K000", "error", i.message) for i in issues]
    for path in knowledge_files(knowledge_dir):
        kind = _kind(path, overlay=False)
        if kind:
            found += schema_findings(path, _display(path, base), kind, kn.vocabulary)
    for path in overlays:
        found += schema_findings(path, path.name, "overlay", kn.vocabulary)
    pending = ungrounded(knowledge_dir)
    found += quality_findings(kn, pending)
    ids = {p.id for p in kn.problems}
    found += [LintFinding(_display(knowledge_dir / UNGROUNDED, base), 1, "K107", "warning",
                          f"{UNGROUNDED} lists {pid!r}, which is no problem of the knowledge: take it out")
              for pid in sorted(pending - ids)]
    return sorted(set(found), key=lambda f: (f.file, f.line, f.code, f.message))


def _display(path: Path, base: Path) -> str:
    try:
        return str(path.relative_to(base))
    except ValueError:
        return str(path)


__all__ = ["LintFinding", "lint", "Issue"]
