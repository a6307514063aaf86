"""Matching evidence against the knowledge base: ranked, scored Findings."""
from __future__ import annotations

from .match import Matcher
from .model import CodeSummary, Diagnosis, Finding, Support

__all__ = ["Matcher", "Diagnosis", "Finding", "Support", "CodeSummary", "diagnose"]


def diagnose(kb, paths=(), text=None, facts=None, lang: str = "en") -> Diagnosis:
    """Read the inputs and match them: the one call the CLI, the TUI and the benches use."""
    from ascend_doctor.diagnose.evidence import read_evidence
    from ascend_doctor.kb.language.facts import FactSet

    matcher = Matcher(kb)
    ev = read_evidence(paths, text=text, signatures=matcher.patterns)
    merged = FactSet(origin=getattr(facts, "origin", "") or "text")
    for f in ev.facts:
        merged.add(f)
    failing = {}
    if facts is not None:
        for f in facts:           # the machine's own facts win over what the text says
            merged.add(f)
        failing = failing_checks(kb, facts)
    return matcher.match(ev, merged, lang=lang, failing=failing)


def failing_checks(kb, facts) -> dict[str, tuple[str, str, str]]:
    """problem id -> (rule id, status, message) for each rule that fails or warns on the machine's own
    facts: the causes the environment check finds here are candidates of a diagnosis on the same machine."""
    from ascend_doctor.rules.catalog import load_rules
    from ascend_doctor.rules.engine import run_rules

    out: dict[str, tuple[str, str, str]] = {}
    for r in run_rules(load_rules(), facts, compat=kb.compat):
        if r.status in ("FAIL", "WARN") and r.problem and r.problem not in out:
            out[r.problem] = (r.rule, r.status, r.text("message", "en"))
    return out
