"""Pasting must not change the answer (issue: 'pasting breaks matching'): every dev case whose top finding
is right keeps it when the report is hard-wrapped at 80 columns (at spaces, or cut anywhere), its spaces
are non-breaking, its punctuation full-width, or each line carries a container-log prefix."""
from __future__ import annotations

import textwrap

import pytest

from .conftest import ROOT, accuracy_bench

CASES = ROOT / "tests" / "diagnosis_cases" / "dev"
FULLWIDTH = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in ":;,()!?"})


def _wrap_spaces(text: str, width: int = 80) -> str:
    """Hard wrap at spaces as ``textwrap``, a mail client or an editor's fill does it: the space goes, a
    word longer than a line is cut. Table rows (npu-smi) are left alone: a fill wraps text, not tables
    (a terminal cuts those, which the 'cut at 80 columns' case covers)."""
    return "\n".join(w for ln in text.split("\n")
                     for w in ([ln] if ln.lstrip().startswith(("|", "+")) else
                               textwrap.wrap(ln, width, break_on_hyphens=False, replace_whitespace=False) or [""]))


def _wrap_cut(text: str) -> str:
    return "\n".join(ln[i:i + 80] for ln in text.split("\n") for i in range(0, max(len(ln), 1), 80))


PERTURB = {
    "wrapped at spaces": _wrap_spaces,
    "cut at 80 columns": _wrap_cut,
    "non-breaking spaces": lambda t: t.replace(" ", "\u00a0"),
    "full-width punctuation": lambda t: t.translate(FULLWIDTH),
    "container-log prefix": lambda t: "\n".join(f"2025-06-01T08:15:02.123456789Z stderr F {ln}" for ln in t.split("\n")),
}


@pytest.fixture(scope="module")
def evaluator():
    acc = accuracy_bench()
    from ascend_doctor.kb.query import KnowledgeBase

    kb = KnowledgeBase()
    cases = acc.load_cases(CASES)
    base = acc.evaluate(kb, cases)
    right = [c for c, r in zip(cases, base["rows"]) if r["rank"] == 1]
    yield acc, kb, right
    kb.close()


@pytest.mark.parametrize("how", sorted(PERTURB))
def test_pasting_loses_no_dev_case(evaluator, how):
    acc, kb, right = evaluator
    # a report the change leaves as it was keeps its answer: only the changed ones are diagnosed again
    changed = [{**c, "input": t} for c in right if (t := PERTURB[how](c["input"])) != c["input"]]
    res = acc.evaluate(kb, changed)
    lost = [(r["name"], r["expected"], r["got"]) for r in res["rows"] if r["rank"] != 1]
    assert not lost, f"{how}: {len(lost)} of {len(right)} lost: {lost}"


def test_the_same_report_gives_the_same_answer_in_every_run(cli_proc):
    """Python salts string hashes per process: nothing a user sees (here the words a problem shares with the
    report, listed by weight) may follow the order of a set."""
    import json as _json

    from ascend_doctor.kb.toml import tomllib

    case = ROOT / "tests" / "diagnosis_cases" / "dev" / "001-ej0001-llamafactory-barrier.toml"
    text = tomllib.loads(case.read_text(encoding="utf-8"))["input"]
    runs = [cli_proc("diagnose", "--no-env", "--format", "json", "-", stdin=text, env={"PYTHONHASHSEED": seed},
                     timeout=120) for seed in ("1", "2")]
    assert runs[0].code == runs[1].code and "Traceback" not in runs[0].err + runs[1].err
    assert _json.loads(runs[0].out)["findings"] and runs[0].out == runs[1].out
