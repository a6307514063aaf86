"""What the matcher returns: ranked Findings with the evidence that supports each."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: A finding at or above this score is a "likely cause" (diagnose exits 1; calibration is measured at it).
LIKELY = 0.5


@dataclass
class FindingEvidence:
    """One piece of evidence behind a Finding."""
    kind: str              # signature | code | symptom | fact
    source: str            # input name, or the fact source
    line: int              # 0 when not a line (facts)
    text: str              # the cleaned log line, the symptom phrase, or "fact = value"
    weight: float          # what it contributed before combination
    detail: str = ""       # "EZ9999 is linked to 3 problems", "matched symptom '...' (87)"
    count: int = 1
    ranks: list[str] = field(default_factory=list)
    time: str = ""
    order: int = 0

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": self.kind, "source": self.source, "line": self.line, "text": self.text}
        if self.detail:
            d["detail"] = self.detail
        if self.count > 1:
            d["count"] = self.count
        if self.ranks:
            d["ranks"] = self.ranks
        return d


@dataclass
class Finding:
    id: str
    problem: Any                        # kb.query.ProblemInfo
    score: float
    evidence: list[FindingEvidence] = field(default_factory=list)
    confirmed_by: list[str] = field(default_factory=list)   # fact notes that confirm the cause
    ruled_out_by: list[str] = field(default_factory=list)   # fact notes that make it unlikely
    parts: dict[str, float] = field(default_factory=dict)   # score components, for explanation
    hinted: bool = False                # its only facts are the report's hardware (words only, as far as scoring goes)


@dataclass
class CodeSummary:
    family: str
    code: str
    count: int
    source: str
    line: int
    text: str
    meaning: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"code": self.code, "family": self.family, "count": self.count,
                "first_seen": {"source": self.source, "line": self.line, "text": self.text},
                "meaning": self.meaning.get(lang) or self.meaning.get("en", ""), "problems": self.problems}


@dataclass
class Diagnosis:
    findings: list[Finding]
    codes: list[CodeSummary]
    facts: list[Any]                    # kb.language.facts.Fact used (from the machine and the text)
    decisive: Any = None                # evidence.EvidenceLine: first error in time among the strongest support
    first_errors: list[Any] = field(default_factory=list)
    causes: list[Any] = field(default_factory=list)         # CANN Possible Cause / Solution lines
    notes: list[Any] = field(default_factory=list)          # evidence.InputNote
    inputs: list[str] = field(default_factory=list)
    bytes_read: int = 0
    lines_read: int = 0
    suggestion: str = ""               # a search query when nothing matched well
    stalls: list[Any] = field(default_factory=list)         # evidence.stalls.Stall: bars left below 100%
