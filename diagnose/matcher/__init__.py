"""Matching evidence against the knowledge base: ranked, scored Findings."""
from __future__ import annotations

from .match import Matcher
from .model import CodeSummary, Diagnosis, Finding, Support

__all__ = ["Matcher", "Diagnosis", "Finding", "Support", "CodeSummary", "diagnose"]


def diagnose(kb, paths=(), text=None, facts=None, lang: str = "en") -> Diagnosis:
    """Read the inputs and match them: the one call the CLI, the TUI and the benches use."""
    from ascend_doctor.diagnose.evidence import read_evidence
    from ascend_doctor.rules.facts import FactSet

    matcher = Matcher(kb)
    ev = read_evidence(paths, text=text, signatures=matcher.patterns)
    merged = FactSet(origin=getattr(facts, "origin", "") or "text")
    for f in ev.facts:
        merged.add(f)
    if facts is not None:
        for f in facts:           # the machine's own facts win over what the text says
            merged.add(f)
    return matcher.match(ev, merged, lang=lang)
