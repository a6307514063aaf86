"""KB signatures compiled for the scanner: literal (prefilter) + regex (confirmation).

The regexes are compiled lazily, on the first line whose literal hits (most signatures never hit a
given log, and compiling all of them took ~30 ms of every run). A regex that does not compile (the KB
validator rejects those, but an overlay may hold one) is reported in ``broken`` once it was tried, and
never matches.
"""
from __future__ import annotations

from dataclasses import dataclass

from ascend_doctor.diagnose.evidence.scan import SignaturePattern


@dataclass
class CompiledSignatures:
    patterns: list[SignaturePattern]
    problem_of: list[str]        # index -> problem id
    weight_of: list[float]

    @property
    def broken(self) -> list[str]:
        """Signatures whose regex was tried and did not compile (they never match)."""
        return [f"{self.problem_of[p.index]}: {p.error}" for p in self.patterns if p.error]


def compile_signatures(signatures) -> CompiledSignatures:
    """``signatures``: kb.query.SignatureInfo list."""
    patterns, problem_of, weight_of = [], [], []
    for s in signatures:
        idx = len(patterns)
        patterns.append(SignaturePattern(idx, s.literal, s.regex or None))
        problem_of.append(s.problem_id)
        weight_of.append(float(s.weight if s.weight is not None else 0.8))
    return CompiledSignatures(patterns, problem_of, weight_of)
