"""The holdout stays a holdout: every holdout case comes from a report URL reserved for it
(tests/diagnosis_split.py), the knowledge cites no reserved URL except those it cited when the split was
frozen, and no report is both a dev and a holdout case."""
from __future__ import annotations

import re

from ascend_doctor.kb.paths import KNOWLEDGE_DIR

from .conftest import ROOT
from .diagnosis_split import burned, filter_log, is_report, normalise, reserved_for_holdout, spellings

CASES = ROOT / "tests" / "diagnosis_cases"
URL = re.compile(r"https?://[^\s\"'\]\)>,]+")


def _load(split):
    from ascend_doctor.kb.toml import tomllib

    out = {}
    for p in sorted((CASES / split).glob("*.toml")):
        with open(p, "rb") as fh:
            out[p.name] = tomllib.load(fh)
    return out


def _cited() -> set[str]:
    urls = set()
    for p in KNOWLEDGE_DIR.rglob("*.toml"):
        for u in URL.findall(p.read_text(encoding="utf-8")):
            urls |= set(spellings(u))
    return urls


def test_normalise_gives_one_spelling_per_thread():
    a = normalise("https://github.com/vllm-project/vllm-ascend/pull/501/files#diff")
    assert a == normalise("https://www.github.com/Vllm-Project/vllm-ascend/issues/501/")
    assert is_report("https://github.com/vllm-project/vllm-ascend/issues/501")
    assert not is_report("https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/faqs.md")


def test_every_case_has_the_fields_the_report_needs():
    for split in ("dev", "holdout"):
        for name, c in _load(split).items():
            assert c["source"].startswith("https://"), name
            assert str(c["input"]).strip(), name
            exp = c.get("expected")
            assert isinstance(exp, (str, list)), name


def test_holdout_sources_are_reserved_and_unseen():
    cited = _cited()
    done = burned()         # cited when the split was frozen, or read by a knowledge author (every spelling)
    dev_sources = {u for c in _load("dev").values() for u in spellings(c["source"])}
    holdout = _load("holdout")
    sources = [normalise(c["source"]) for c in holdout.values()]
    assert len(sources) == len(set(sources)), "a report is two holdout cases"
    for name, c in holdout.items():
        src = normalise(c["source"])
        assert reserved_for_holdout(c["source"]), f"{name}: {src} is not reserved for the holdout"
        for u in spellings(c["source"]):
            assert u not in cited, f"{name}: the knowledge cites {u}"
            assert u not in done, name
            assert u not in dev_sources, f"{name}: {u} is also a dev case"


def test_knowledge_cites_no_newly_reserved_report():
    """A reserved URL the knowledge cites must be one that can never be a holdout case: cited when the split
    was frozen, or already read by a knowledge author (reserved_seen_by_miners.txt)."""
    done = burned()
    bad = sorted(u for u in _cited() if reserved_for_holdout(u) and u not in done)
    assert not bad, f"knowledge cites report URLs reserved for the holdout: {bad}"


def test_a_git_log_read_through_the_filter_shows_no_reserved_report():
    """A squash-merged pull request's commit message is its text: a knowledge author reading a repository's
    history through the filter sees no commit naming a reserved, unburned report (o/r#4 and #5 are reserved,
    #1-#3 are not), in either log format, by number, by owner/name#N or by URL; a burned one stays readable."""
    assert reserved_for_holdout("https://github.com/o/r/pull/4") and not reserved_for_holdout("https://github.com/o/r/pull/1")
    oneline = ["aaa Fix the rope cache (#1)", "bbb Fix the MLA crash (#4)", "ccc Backport o/r#5", "ddd Docs"]
    assert filter_log("o/r", oneline, done=set()) == [
        "aaa Fix the rope cache (#1)", "ddd Docs", "[2 commit(s) hidden: they name a report reserved for the holdout]"]
    full = ["commit " + "a" * 40, "    Fix (#2)", "", "commit " + "b" * 40, "    Fix the crash",
            "    Closes https://github.com/o/r/issues/7", "commit " + "c" * 40, "    Fix (#3)"]
    assert filter_log("o/r", full, done=set()) == [
        "commit " + "a" * 40, "    Fix (#2)", "", "commit " + "c" * 40, "    Fix (#3)",
        "[1 commit(s) hidden: they name a report reserved for the holdout]"]
    assert filter_log("o/r", ["bbb Fix the MLA crash (#4)"], done={"https://github.com/o/r/issues/4"}) == [
        "bbb Fix the MLA crash (#4)"]


def test_a_log_without_commit_headers_is_refused_because_its_bodies_go_unchecked():
    """'git log --oneline' shows subjects only (and --format=%B drops the headers that group a commit's lines): a
    commit whose body says 'Fixes #N' of a reserved report would pass the filter, so the --log helper refuses such
    input with a one-line reason and exit 2; a full log passes without a note."""
    import subprocess
    import sys

    script = ROOT / "tests" / "diagnosis_split.py"
    one = subprocess.run([sys.executable, str(script), "--log", "o/r"], input="abc1234 [Bugfix] x (#1)\n",
                         capture_output=True, text=True, timeout=60)
    assert one.returncode == 2 and "one-line log" in one.stderr and not one.stdout
    full = subprocess.run([sys.executable, str(script), "--log", "o/r"],
                          input="commit " + "a" * 40 + "\n\n    [Bugfix] x (#1)\n", capture_output=True, text=True,
                          timeout=60)
    assert full.returncode == 0 and not full.stderr
