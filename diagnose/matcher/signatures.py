"""KB signatures compiled for the scanner: literal (prefilter) + regex (confirmation)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ascend_doctor.diagnose.evidence.scan import SignaturePattern


@dataclass
class CompiledSignatures:
    patterns: list[SignaturePattern]
    problem_of: list[str]        # index -> problem id
    weight_of: list[float]
    broken: list[str]            # signatures whose regex did not compile (reported, skipped)


def compile_signatures(signatures) -> CompiledSignatures:
    """``signatures``: kb.query.SignatureInfo list."""
    patterns, problem_of, weight_of, broken = [], [], [], []
    for s in signatures:
        try:
            rx = re.compile(s.regex) if s.regex else re.compile(re.escape(s.literal))
        except re.error as exc:
            broken.append(f"{s.problem_id}: {exc}")
            continue
        idx = len(patterns)
        patterns.append(SignaturePattern(idx, s.literal, rx))
        problem_of.append(s.problem_id)
        weight_of.append(float(s.weight if s.weight is not None else 0.8))
    return CompiledSignatures(patterns, problem_of, weight_of, broken)
