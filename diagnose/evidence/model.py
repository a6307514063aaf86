"""Evidence: what was read from logs and pasted text, ready for the matcher.

An EvidenceLine is one distinct (deduplicated) line worth keeping: where it was first seen
(``source``, ``line``), the cleaned text, how often it repeated (across ranks and files), which
ranks printed it and what kinds of interest it has (signature hit, error code, error line, CANN
cause text). Evidence holds the lines, the codes found, the facts read from the text, and
messages about inputs that could not be read (binary, empty, missing).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: Kinds of interest of a line.
SIGNATURE = "signature"
CODE = "code"
ERROR = "error"
CAUSE = "cause"          # CANN "Possible Cause" / "Solution" text
PROSE = "prose"          # a sentence written by a person (issue text), used for symptom phrases


class SignaturePattern:
    """What the scanner needs of a KB signature: a stable ``id`` (the matcher's name for it, reported back
    in ``EvidenceLine.signatures``), the literal and the regex (a compiled pattern, or its source compiled
    on first use; None: the literal itself). A source that does not compile is kept in ``error`` and
    never matches."""
    __slots__ = ("id", "literal", "_regex", "error")

    def __init__(self, id: str, literal: str, regex: "re.Pattern[str] | str | None" = None):
        self.id = id
        self.literal = literal
        self._regex = regex if regex is not None else re.escape(literal)
        self.error = ""

    @property
    def regex(self) -> "re.Pattern[str] | None":
        rx = self._regex
        if isinstance(rx, str):
            try:
                rx = re.compile(rx)
            except re.error as exc:
                self.error = str(exc)
                rx = None
            self._regex = rx
        return rx

    def __repr__(self) -> str:
        return f"SignaturePattern({self.id!r}, {self.literal!r})"


@dataclass
class EvidenceLine:
    source: str
    line: int
    text: str                        # cleaned text (rank prefix, timestamp, ANSI, progress removed)
    raw: str                         # the line as read (truncated to MAX_KEEP)
    order: int                       # reading order over all inputs
    time: str = ""                   # timestamp found on the line, normalised (sortable) or ""
    kinds: set[str] = field(default_factory=set)
    codes: list[tuple[str, str]] = field(default_factory=list)    # (family, code)
    signatures: list[str] = field(default_factory=list)           # ids of the signatures that matched (SignaturePattern.id)
    count: int = 1
    ranks: set[str] = field(default_factory=set)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "line": self.line, "text": self.text}


@dataclass
class CodeHit:
    family: str          # family guessed from the context (aclnn, acl, cann, torch_npu, dcmi, hccl, ...)
    code: str            # canonical spelling
    source: str
    line: int
    text: str
    count: int = 1
    order: int = 0


@dataclass
class InputNote:
    """Something to tell the user about an input: skipped (binary), empty, unreadable, truncated."""
    source: str
    level: str           # "warning" | "error" | "info"
    message: str


@dataclass
class Evidence:
    lines: list[EvidenceLine] = field(default_factory=list)
    codes: list[CodeHit] = field(default_factory=list)
    facts: list[Any] = field(default_factory=list)          # kb.language.facts.Fact read from the text
    notes: list[InputNote] = field(default_factory=list)
    causes: list[EvidenceLine] = field(default_factory=list)  # CANN Possible Cause / Solution lines
    prose: list[str] = field(default_factory=list)            # free text sentences (symptom matching)
    title: str = ""                                           # an issue's title, its tag ([Bug]:, 【问题】) removed
    inputs: list[str] = field(default_factory=list)
    heads: list[tuple[str, str]] = field(default_factory=list)   # (input, first MiB of text) for facts
    stalls: list[Any] = field(default_factory=list)           # stalls.Stall: progress bars left below 100%
    bytes_read: int = 0
    lines_read: int = 0

    def first_errors(self, limit: int = 5) -> list[EvidenceLine]:
        """The earliest error lines (by timestamp when the lines carry one, else by reading order)."""
        errs = [ln for ln in self.lines if ln.kinds & {ERROR, CODE, SIGNATURE}
                and not ln.text.startswith("Traceback (most recent call last)")]
        errs.sort(key=time_key)
        return errs[:limit]


def time_key(ln: EvidenceLine) -> tuple:
    return (ln.time or "~", ln.order)
