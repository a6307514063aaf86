"""KB signatures compiled for the scanner: literal (prefilter) + regex (confirmation).

The regexes are compiled lazily, on the first line whose literal hits (most signatures never hit a
given log, and compiling all of them took ~30 ms of every run). A regex that does not compile (the KB
validator rejects those, but an overlay may hold one) is reported in ``broken`` once it was tried, and
never matches.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..evidence import SignaturePattern


@dataclass
class CompiledSignatures:
    patterns: list[SignaturePattern]
    problem_of: dict[str, str]       # signature id -> problem id
    weight_of: dict[str, float]
    literal_of: dict[str, str]

    @property
    def broken(self) -> list[str]:
        """Signatures whose regex was tried and did not compile (they never match)."""
        return [f"{self.problem_of[p.id]}: {p.error}" for p in self.patterns if p.error]


def compile_signatures(signatures) -> CompiledSignatures:
    """``signatures``: kb.query.SignatureInfo list. A signature's id is its problem's id and its place among
    that problem's signatures (``npu-out-of-memory#2``): the scanner names the hits of a line with it."""
    patterns, problem_of, weight_of, literal_of = [], {}, {}, {}
    seen: dict[str, int] = {}
    for s in signatures:
        seen[s.problem_id] = n = seen.get(s.problem_id, 0) + 1
        sid = f"{s.problem_id}#{n}"
        patterns.append(SignaturePattern(sid, s.literal, s.regex or None))
        problem_of[sid] = s.problem_id
        weight_of[sid] = float(s.weight if s.weight is not None else 0.8)
        literal_of[sid] = s.literal
    return CompiledSignatures(patterns, problem_of, weight_of, literal_of)
