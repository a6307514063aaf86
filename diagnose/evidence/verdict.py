"""What one line holding triggers is: its signals, decided once, as a value (a Verdict).

A line is kept when one of its signals holds:

- ``signature_hits``: a KB signature whose literal is on the line and whose regex matches it;
- ``codes.extract``: an error code of any family;
- ``is_error_line``: an error word that the cleaned line confirms (and that is not "0 errors");
- a CANN "Possible Cause" / "Solution" header.

``Classifier.classify`` reads the line and its triggers and returns the Verdict; it changes nothing.
How a verdict is counted into a scan (kept lines, codes, the stall tracker) is scan.py's. Because a
verdict is a value, a line that repeats (or that differs only where no signal can look, see memo.py)
need not be read again.
"""
from __future__ import annotations

import re
from typing import Iterable

import ahocorasick_rs

from . import clean as cl
from . import codes as codes_mod
from .model import CAUSE, CODE, ERROR_LINE, SIGNATURE, SignaturePattern
from .stalls import PROGRESS_TRIGGERS

PROGRESS_SET = frozenset(PROGRESS_TRIGGERS)
PROGRESS = "progress"       # trigger kind of progress-bar literals: fed to the stall tracker, not kept as a line
MAX_KEEP = 2000             # characters of a line kept for display and matching
REGEX_WINDOW = 4000         # a signature regex runs on this window around its literal in a long line

#: words that make a line an error line (code markers such as "error code is" and "ret is" sit on lines
#: that already hold one of these)
ERROR_WORDS = (b"rror", b"RROR", b"ailed", b"FAIL", b"xception", b"Traceback", b"imeout", b"fault", b"dumped",
               b"not found", b"No such file", b"denied", b"annot ",
               "报错".encode(), "失败".encode(), "错误".encode(), "异常".encode(), "超时".encode())
CAUSE_WORDS = (b"Possible Cause", b"Solution:", b"Reason:", b"Possible cause", "可能原因".encode(), "处理建议".encode(),
               "解决方法".encode())
ERROR_LINE_RE = re.compile(
    r"error|fail|exception|traceback|killed|segmentation fault|core dumped|timed? ?out|abort|not found|"
    r"no such file|denied|cannot |unable to|not supported|报错|失败|错误|异常", re.I)
#: the ASCII words of ERROR_LINE_RE, lower case, every spelling of ``timed? ?out`` written out: an ASCII line
#: lowered holds one of them exactly when ERROR_LINE_RE (IGNORECASE) matches it
ERROR_LINE_ASCII = (b"error", b"fail", b"exception", b"traceback", b"killed", b"segmentation fault", b"core dumped",
                    b"timeout", b"timedout", b"time out", b"timed out", b"abort", b"not found", b"no such file",
                    b"denied", b"cannot ", b"unable to", b"not supported")
#: plog headers other than [ERROR] (which ERROR_LINE_RE matches anyway): cleaning rewrites them as "[INFO] MOD "
PLOG_LEVEL = re.compile(rb"\[(?:WARNING|INFO|DEBUG|EVENT|TRACE)\]")
BENIGN_ERROR = re.compile(r"\b0 errors?\b|error_?count[=:]\s*0\b|errors?:\s*0\b|no errors?", re.I)

_ERROR_LINE_AC = ahocorasick_rs.BytesAhoCorasick(list(ERROR_LINE_ASCII))


class Verdict:
    """What a line is. ``gh``: error-word hits it counts towards MAX_GENERIC_HITS; ``notes``: how many times
    it goes to the stall tracker; ``kinds`` (empty: nothing is kept), ``codes``, ``sigs`` (signature ids),
    ``cleaned`` and ``key`` (its dedupe key) describe the kept line."""
    __slots__ = ("gh", "notes", "kinds", "codes", "sigs", "cleaned", "key")

    def __init__(self, gh: int = 0, notes: int = 0, kinds: frozenset = frozenset(), codes: tuple = (),
                 sigs: tuple = (), cleaned: str = "", key: str = ""):
        self.gh, self.notes, self.kinds, self.codes, self.sigs = gh, notes, kinds, codes, sigs
        self.cleaned, self.key = cleaned, key

    def same(self, other: "Verdict") -> bool:
        return (self.gh, self.notes, self.kinds, self.codes, self.sigs, self.cleaned, self.key) == \
            (other.gh, other.notes, other.kinds, other.codes, other.sigs, other.cleaned, other.key)

    def __repr__(self) -> str:
        return f"Verdict(gh={self.gh}, notes={self.notes}, kinds={sorted(self.kinds)}, codes={self.codes}, sigs={self.sigs})"


class Classifier:
    """The triggers and what each one means; ``classify`` turns a line and its triggers into a Verdict."""

    def __init__(self, signatures: Iterable[SignaturePattern] = ()):
        self.signatures = list(signatures)
        #: hits are listed in the order the signatures were given
        self._rank = {s.id: i for i, s in enumerate(self.signatures)}
        self.by_literal: dict[bytes, list[SignaturePattern]] = {}
        for s in self.signatures:
            self.by_literal.setdefault(s.literal.encode("utf-8"), []).append(s)
        self.kind_of: dict[bytes, str] = {}
        for t in ERROR_WORDS:
            self.kind_of[t] = ERROR_LINE
        for t in codes_mod.TRIGGERS:
            self.kind_of[t] = CODE
        for t in CAUSE_WORDS:
            self.kind_of[t] = CAUSE
        for t in self.by_literal:
            self.kind_of[t] = SIGNATURE
        for t in PROGRESS_TRIGGERS:
            self.kind_of.setdefault(t, PROGRESS)
        self.error_words = frozenset(ERROR_WORDS)

    def signature_hits(self, full: str, trigs: Iterable[bytes]) -> list[str]:
        """Ids of the signatures whose literal is on the line (``trigs``) and whose regex matches it
        (on a window around the literal in a long line), in the order the signatures were given."""
        hits: set[str] = set()
        for trig in trigs:
            if self.kind_of.get(trig) != SIGNATURE:
                continue
            lit = trig.decode("utf-8", "replace")
            for sp in self.by_literal[trig]:
                text = full
                if len(full) > REGEX_WINDOW:
                    i = full.find(lit)
                    text = full[max(0, i - REGEX_WINDOW // 2): i + len(lit) + REGEX_WINDOW // 2]
                rx = sp.regex
                if rx is not None and rx.search(text):
                    hits.add(sp.id)
        return sorted(hits, key=self._rank.__getitem__)

    def classify(self, raw_b: bytes, trigs: set[bytes]) -> Verdict:
        """The verdict on one line (bytes as read, without its newline) holding the triggers ``trigs``
        (``b""``: a CANN / torch_npu code is on it)."""
        if trigs <= PROGRESS_SET:       # a progress bar and nothing else: only the stall tracker wants it
            return Verdict(notes=1)
        full = raw_b.decode("utf-8", "replace").rstrip("\r")
        window = full if len(full) <= REGEX_WINDOW else full[:REGEX_WINDOW]
        if trigs <= self.error_words and cannot_be_error(raw_b) and not codes_mod.extract(window):
            # only error words, no error sentence and no code ("Defaulting to ..."): nothing to keep
            return Verdict(gh=len(trigs))
        kinds: set[str] = set()
        gh = notes = 0
        for trig in trigs:
            kind = self.kind_of.get(trig, CODE)
            if kind == SIGNATURE:
                continue
            if kind == PROGRESS:
                notes += 1
            elif kind == ERROR_LINE:
                gh += 1
                kinds.add(ERROR_LINE)
            else:
                kinds.add(kind)
        sigs = self.signature_hits(full, trigs)
        raw = full[:MAX_KEEP]
        codes = codes_mod.extract(window)
        if codes:
            kinds.add(CODE)
        else:
            kinds.discard(CODE)
        if sigs:
            kinds.add(SIGNATURE)
        cleaned = cl.clean(raw)
        if ERROR_LINE in kinds and not is_error_line(cleaned):
            kinds.discard(ERROR_LINE)
        if not kinds:
            return Verdict(gh=gh, notes=notes)
        return Verdict(gh, notes, frozenset(kinds), tuple(codes), tuple(sigs), cleaned, cl.dedupe_key(cleaned))


def is_error_line(cleaned: str) -> bool:
    """An error word on the line is an error: not "0 errors", not an issue form's field label ("### Error
    log | 错误日志"), and one of ERROR_LINE_RE's words is there."""
    return not BENIGN_ERROR.search(cleaned) and bool(ERROR_LINE_RE.search(cleaned)) and not cl.FORM_LABEL.match(cleaned)


def cannot_be_error(raw_b: bytes) -> bool:
    """True when ERROR_LINE_RE cannot match the cleaned line, decided on the bytes: the line is cleaned from
    its first MAX_KEEP characters, and cleaning ASCII text without ANSI colours, a progress bar or a plog
    level header only cuts text off, so a match in the cleaned line is a match in those bytes."""
    head = raw_b[:MAX_KEEP]
    return (head.isascii() and b"\x1b" not in head and not (b"%" in head and b"|" in head)
            and not PLOG_LEVEL.search(head) and not _ERROR_LINE_AC.find_matches_as_indexes(head.lower()))
