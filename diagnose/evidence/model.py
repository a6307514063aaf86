"""Evidence: what was read from logs and pasted text, ready for the matcher.

An EvidenceLine is one distinct (deduplicated) line worth keeping: where it was first seen
(``source``, ``line``), the cleaned text, how often it repeated (across ranks and files), which
ranks printed it and what kinds of interest it has (signature hit, error code, error line, CANN
cause text). Evidence holds the lines, the codes found, the facts read from the text, and
messages about inputs that could not be read (binary, empty, missing).
"""
from __future__ import annotations

import heapq

import re
from dataclasses import dataclass, field
from typing import Any

#: Kinds of interest of a line.
SIGNATURE = "signature"
CODE = "code"
ERROR_LINE = "error"
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


#: what the readers tell about an input, in English and Chinese (InputNote.of(source, level, key, ...))
NOTES = {
    "en": {"no_file": "no such file or directory", "denied": "cannot read the file: permission denied",
           "not_regular": "not a regular file or pipe", "cannot_read": "cannot read: {reason}",
           "cannot_list": "cannot list the directory: {reason}", "skipped_denied": "skipped: permission denied",
           "no_files": "the directory holds no readable files", "empty": "empty input",
           "binary": "skipped: binary data (not a text log; UTF-16 without a byte-order mark must be converted to UTF-8)"},
    "zh": {"no_file": "文件或目录不存在", "denied": "无法读取该文件：权限不足",
           "not_regular": "不是普通文件或管道", "cannot_read": "无法读取：{reason}",
           "cannot_list": "无法列出目录内容：{reason}", "skipped_denied": "已跳过：权限不足",
           "no_files": "目录中没有可读取的文件", "empty": "输入为空",
           "binary": "已跳过：二进制数据（不是文本日志；没有字节序标记的 UTF-16 需先转换为 UTF-8）"},
}


@dataclass
class InputNote:
    """Something to tell the user about an input: skipped (binary), empty, unreadable, truncated."""
    source: str
    level: str           # "warning" | "error" | "info"
    message: str         # in English
    key: str = ""        # the message in NOTES, when it is one of them
    params: dict = field(default_factory=dict)

    @classmethod
    def of(cls, source: str, level: str, key: str, **params) -> "InputNote":
        return cls(source, level, NOTES["en"][key].format(**params), key, params)

    def text(self, lang: str = "en") -> str:
        """The message in ``lang``."""
        if self.key and lang in NOTES:
            return NOTES[lang][self.key].format(**self.params)
        return self.message


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
        errs = [ln for ln in self.lines if not ln.kinds.isdisjoint(_FIRST_ERROR_KINDS)
                and not ln.text.startswith("Traceback (most recent call last)")]
        return heapq.nsmallest(limit, errs, key=time_key)     # sorted(errs, key=time_key)[:limit], cheaper


_FIRST_ERROR_KINDS = frozenset([ERROR_LINE, CODE, SIGNATURE])


def time_key(ln: EvidenceLine) -> tuple:
    return (ln.time or "~", ln.order)
