"""Lines -> Evidence: which lines are kept, what each one is, deduplicated across ranks and files.

    sources.py (inputs) -> reader.py (blocks of whole lines) -> here -> model.Evidence

A line is read when it holds a trigger literal (signature literals, error words, code markers, CANN
cause headers, progress bars; prefilter.py); verdict.py says what it is, as a value, and this module
counts the verdict in: kept lines are deduplicated across ranks and files (count, ranks, earliest
time), progress-bar lines go to the stall tracker (stalls.py). The first HEAD_BYTES of every input are
also kept as text for facts (version strings, npu-smi tables) and for the free sentences of a pasted
issue.

Two paths read a block and give the same Evidence. The plain one (``FAST = False``) searches the block
with the trigger automaton and classifies every line holding a trigger. The fast one (bulk.py) reads
the block by the shapes of its lines (uniform.py, memo.py, template.py) and classifies a line only when
nothing learnt from an earlier line says what it is; tests/test_scan_fast.py holds it to the plain one.
"""
from __future__ import annotations

import re
import string
import zlib
from typing import Iterable

from . import clean as cl
from . import codes as codes_mod
from . import reader as reader_mod
from .model import CAUSE, CODE, SIGNATURE, CodeHit, Evidence, EvidenceLine, InputNote, SignaturePattern
from .prefilter import Prefilter
from .reader import Reader
from .sources import Source
from .stalls import PROGRESS_TRIGGERS, StallTracker
from .bulk import ShapeReader
from .clock import time_text
from .memo import ShapeMemo
from .verdict import (ERROR_LINE, ERROR_LINE_RE, MAX_KEEP, PROGRESS, PROGRESS_SET, REGEX_WINDOW, Classifier, Verdict,
                      cannot_be_error, is_error_line)

__all__ = ["Scanner", "prose_lines", "report_title", "is_error_line", "cannot_be_error", "ERROR_LINE_RE", "MAX_KEEP",
           "PROGRESS", "REGEX_WINDOW"]

HEAD_BYTES = 1 << 20        # per input, kept for facts and prose
HEAD_TOTAL = 4 << 20
MAX_DISTINCT = 20000        # distinct kept lines; beyond it only signature and code lines are kept
MAX_GENERIC_HITS = 200000   # generic error-word lines examined; then the error words are dropped
#: every CANN / torch_npu code (``codes.BLOCK_RE``: ``E[A-Z0-9]dddd``, ``ERRddddd``) starts with one of these;
#: they ride in the trigger automaton and a line holding one is confirmed with BLOCK_RE on that line only
CODE_PREFIXES = frozenset([b"ERR"] + [b"E" + bytes([c, d]) for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                      for d in b"0123456789"])
PROSE_SKIP = re.compile(r"^\s*(?:[\[(<|+]|\S+\.(?:py|cc|cpp|h):\d+|at |File \"|\d{2,4}[-/:])")
#: first characters of a line that PROSE_SKIP skips whatever follows (read before any regex: most log lines)
LOG_FIRST = frozenset("(<|+")
CJK = re.compile(r"[\u3400-\u9fff]")
#: a prose line that goes on from the one before it (lower case, no list mark), and a line that ends its sentence
CONTINUES = re.compile(r"^[a-z][a-z ,;'\-]*(?:\s|$)")
#: the longest sentence read as prose; a longer line is split where its sentences end (clean.SENTENCE_END)
MAX_SENTENCE = 400
SENTENCE_DONE = re.compile(r"[.!?:;。！？：；)\]`]\s*$")
#: a whole line in parentheses, a person's aside ("（服务器上已有其他容器在运行）", "(the same on 8.0.RC3)"): read
#: inside; a log record's parenthesis ("(VllmWorker rank=0 pid=1) ERROR ...") closes before the line ends
ASIDE = re.compile(r"^\s*\((?P<inner>[^()]{4,})\)[\s.。]*$")
#: False: every line holding a trigger is classified on its own, the reference the faster paths are
#: tested against (tests/test_scan_fast.py)
FAST = True


class Scanner:
    def __init__(self, signatures: Iterable[SignaturePattern] = (), fast: bool | None = None):
        self.classifier = Classifier(signatures)
        self.signatures = self.classifier.signatures
        self.kind_of = self.classifier.kind_of
        self.fast = FAST if fast is None else fast
        self.stalls = StallTracker()
        self._generic_hits = 0
        # one automaton over every trigger; a second without the error words once those are switched off
        self._prefilter = Prefilter([*self.kind_of, *CODE_PREFIXES])
        self._specific: Prefilter | None = None
        self._apart: dict[int, frozenset[int]] = {}
        self._memos: dict[int, ShapeMemo] = {}
        self._shapes = ShapeReader(self)

    def signature_hits(self, full: str, trigs: set[bytes]) -> list[str]:
        return self.classifier.signature_hits(full, trigs)

    def _prefilter_for(self, st: "_State") -> Prefilter:
        if not st.generic_off:
            return self._prefilter
        if self._specific is None:
            self._specific = Prefilter([*(t for t, k in self.kind_of.items() if k != ERROR_LINE), *CODE_PREFIXES])
        return self._specific

    # -- public --------------------------------------------------------------------------------
    def scan(self, sources: Iterable[Source], evidence: Evidence | None = None, jobs: int = 1) -> Evidence:
        """Read ``sources`` in order into Evidence; with ``jobs`` > 1, many regular files are read by that
        many processes (parallel.py), with the same result."""
        ev = evidence or Evidence()
        state = _State(ev)
        if jobs > 1:
            from . import parallel

            items, after = parallel.plan(sources, ev)
            if parallel.worth_it(items, jobs):
                parallel.scan(self, items, state, jobs)
            else:
                with Reader() as rd:
                    for pre, src in items:
                        ev.notes.extend(pre)
                        ev.inputs.append(src.name)
                        self._scan_source(src, state, rd)
            ev.notes.extend(after)
        else:
            with Reader() as rd:
                for src in sources:
                    ev.inputs.append(src.name)
                    self._scan_source(src, state, rd)
        state.settle()
        ev.lines = list(state.lines.values())
        ev.lines.sort(key=lambda ln: ln.order)
        ev.codes = list(state.codes.values())
        ev.causes = [ln for ln in ev.lines if CAUSE in ln.kinds]
        ev.heads = state.heads
        return ev

    # -- one input -----------------------------------------------------------------------------
    def _scan_source(self, src: Source, st: "_State", rd: Reader) -> None:
        ev = st.ev
        try:
            stream = src.open()
        except (OSError, EOFError, zlib.error) as exc:
            ev.notes.append(InputNote(src.name, "error", f"cannot open: {getattr(exc, 'strerror', None) or exc}"))
            return
        lineno = 1
        head_left = st.head_left()
        head = []

        def search():
            # the automaton for the next block is chosen now, before this block's lines are classified
            pf = self._prefilter_for(st)
            return lambda buf, end: (pf, pf.matches(buf, end))

        try:
            with stream:
                # the fast path reads a block by the shapes of its lines: no search
                for blk, found in rd.blocks(src.name, stream, None if self.fast else search, bool(src.path)):
                    pf, matches = found or (None, None)
                    if head_left > 0:
                        take = bytes(blk.view[:min(head_left, blk.end)])
                        head.append(take)
                        head_left -= len(take)
                    lineno = self._scan_block(blk.buf, blk.end, src.name, lineno, st, pf, matches)
        except (OSError, EOFError, ValueError, zlib.error) as exc:  # gzip corruption, unreadable pipes
            ev.notes.extend(rd.notes)
            ev.notes.append(InputNote(src.name, "error", f"stopped reading: {exc}"))
        else:
            ev.notes.extend(rd.notes)
            if rd.skipped:
                return
        ev.bytes_read += rd.size
        ev.lines_read += lineno - 1
        ev.stalls.extend(self.stalls.finish(src.name, lineno - 1))
        if rd.cut_lines:
            ev.notes.append(InputNote(src.name, "info",
                                      f"{rd.cut_lines} line(s) longer than {reader_mod.MAX_LINE >> 20} MiB were cut"))
        if head:
            st.add_head(src.name, b"".join(head))

    def _scan_block(self, buf: bytearray, end: int, name: str, lineno: int, st: "_State",
                    pf: Prefilter, matches: list[tuple[int, int, int]]) -> int:
        """Classify the lines of ``buf[:end]`` (whole lines; the last may lack its newline), the first
        being line ``lineno``; returns the next line number. The fast path (``matches`` None) reads the block by
        the shapes of its lines (bulk.py); the plain one classifies every line that holds a trigger, found by
        ``pf`` (``matches``: its answer for the block)."""
        cur = self._prefilter_for(st)
        if matches is None:
            return self._shapes.block(buf, end, name, lineno, st, self._memo(cur))
        return self._search_block(buf, end, name, lineno, st, pf, matches, cur)

    def _search_block(self, buf: "bytes | bytearray", end: int, name: str, lineno: int, st: "_State", pf: Prefilter,
                      matches: list[tuple[int, int, int]], cur: Prefilter) -> int:
        """The plain path for ``buf[:end]``: every line holding a trigger that ``cur`` (the automaton of this
        block) finds is classified; ``matches``: the answer of ``pf`` for the block (searched before ``cur`` was
        chosen, it may hold the error words ``cur`` leaves out)."""
        drop: frozenset[int] = frozenset()
        if pf is not cur:
            # the error words were switched off after this block was searched: leave their hits out
            keep = set(cur.triggers)
            drop = frozenset(i for i, t in enumerate(pf.triggers) if t not in keep)
        starts, bars = pf.lines_apart(buf, end, self._progress_idx(pf), matches, drop)
        if starts:
            self._confirm_codes(buf, end, starts)
        if bars:
            for ls in _line_starts(buf, bars):
                starts.setdefault(ls, set()).add(PROGRESS_TRIGGERS[0])
        if not starts:
            return lineno + buf.count(b"\n", 0, end) + (0 if end and buf[end - 1] == 10 else 1)
        prev = 0
        for s in sorted(starts):
            lineno += buf.count(b"\n", prev, s)
            prev = s
            e = buf.find(b"\n", s, end)
            self._line(buf[s:e if e >= 0 else end], starts[s], name, lineno, st)
        lineno += buf.count(b"\n", prev, end)
        if not (end and buf[end - 1] == 10):
            lineno += 1
        return lineno

    def _memo(self, pf: Prefilter) -> ShapeMemo:
        memo = self._memos.get(id(pf))
        if memo is None:
            self._memos.clear()         # the error words are off for good: the other automaton's memo goes
            memo = self._memos[id(pf)] = ShapeMemo(self.classifier, pf, CODE_PREFIXES)
        return memo

    def _progress_idx(self, pf: Prefilter) -> frozenset[int]:
        idx = self._apart.get(id(pf))
        if idx is None:
            idx = self._apart[id(pf)] = frozenset(i for i, t in enumerate(pf.triggers) if t in PROGRESS_SET)
        return idx

    @staticmethod
    def _confirm_codes(buf: bytearray, end: int, starts: dict[int, set[bytes]]) -> None:
        """Lines holding a code prefix (``EZ9``, ``ERR``) keep the mark ``b""`` only if a CANN or torch_npu
        code is really there (``codes.BLOCK_RE``); a line held by nothing else is dropped."""
        for s in [s for s, trigs in starts.items() if not trigs.isdisjoint(CODE_PREFIXES)]:
            trigs = starts[s]
            trigs -= CODE_PREFIXES
            e = buf.find(b"\n", s, end)
            if codes_mod.BLOCK_RE.search(buf, s, e if e >= 0 else end):
                trigs.add(b"")
            elif not trigs:
                del starts[s]

    # -- one line ------------------------------------------------------------------------------
    def _line(self, raw_b: bytes, trigs: set[bytes], name: str, lineno: int, st: "_State") -> None:
        self._apply(self.classifier.classify(raw_b, trigs), raw_b, name, lineno, st)

    def _apply(self, v: Verdict, raw_b: bytes, name: str, lineno: int, st: "_State") -> None:
        """Count one line (``raw_b`` as read, line ``lineno`` of ``name``) whose verdict is ``v`` into the scan."""
        for _ in range(v.notes):
            self.stalls.note(raw_b, lineno, st.order)
        if v.gh:
            self.count_generic(v.gh, st)
        if v.kinds:
            raw = raw_b.decode("utf-8", "replace").rstrip("\r")[:MAX_KEEP]
            self._keep(st, name, lineno, raw, v)

    def count_generic(self, n: int, st: "_State") -> None:
        """``n`` more error-word hits; beyond MAX_GENERIC_HITS the error words are switched off (from the
        next block on)."""
        self._generic_hits += n
        if self._generic_hits > MAX_GENERIC_HITS:
            st.generic_off = True

    @staticmethod
    def _keep(st: "_State", name: str, lineno: int, raw: str, v: Verdict, time: str | None = None,
              rank: str | None = None) -> None:
        """Count the line in (a repeat of a kept line: count, ranks, earliest time) or keep it. ``time``,
        ``rank``: the line's when already known (else read from ``raw``)."""
        if rank is None:
            rank = cl.rank_of(raw)
        if time is None:
            time = cl.line_time(raw)
        if Scanner._count(st, name, v, time, rank):
            return
        if time:
            st.last_time[name] = time
        else:
            time = st.last_time.get(name, "")
        if not (v.kinds & {SIGNATURE, CODE}) and st.past_cap(v.key):
            return
        codes = v.codes
        if st.code_seen is not None:
            st.see_codes(codes)
        st.order += 1
        cleaned = v.cleaned
        ln = EvidenceLine(source=name, line=lineno, text=cleaned[:MAX_KEEP], raw=raw, order=st.order, time=time,
                          kinds=set(v.kinds), codes=list(codes), signatures=list(v.sigs))
        if rank:
            ln.ranks.add(rank)
        st.lines[v.key] = ln
        for fam, code in codes:
            ck = (fam, code)
            hit = st.codes.get(ck)
            if hit is None:
                st.codes[ck] = CodeHit(fam, code, name, lineno, cleaned[:300], 1, st.order)
            else:
                hit.count += 1

    @staticmethod
    def _count(st: "_State", name: str, v: Verdict, time: str, rank: str) -> bool:
        """Count a repeat of a kept line in (count, ranks, earliest time, codes); False when the line is new."""
        if st.pending:
            st.settle()
        ln = st.lines.get(v.key)
        if ln is None:
            return False
        if time:
            st.last_time[name] = time
        else:
            time = st.last_time.get(name, "")
        ln.count += 1
        if rank:
            ln.ranks.add(rank)
        if time and (not ln.time or time < ln.time):
            ln.time = time
        codes = v.codes
        for ck in codes:
            if ck in st.codes:
                st.codes[ck].count += 1
        if st.code_seen is not None:
            st.see_codes(codes)
        return True


def _line_starts(buf: bytearray, offsets: list[int]) -> list[int]:
    """The start of the line of each offset (sorted), each line once."""
    out: list[int] = []
    for pos in offsets:
        ls = buf.rfind(b"\n", 0, pos) + 1
        if not out or out[-1] != ls:
            out.append(ls)
    return out


class _State:
    """What a scan carries from line to line and from input to input."""

    def __init__(self, ev: Evidence, partial: bool = False):
        self.ev = ev
        self.lines: dict[str, EvidenceLine] = {}          # dedupe key -> kept line
        self.codes: dict[tuple[str, str], CodeHit] = {}
        self.order = 0
        self.head_used = 0
        self.heads: list[tuple[str, str]] = []
        self.last_time: dict[str, str] = {}
        # bulk.py: dedupe key -> (a plog time as digits no earlier than its kept line's time, that time as it was):
        # a later count of the key at a time no earlier than that leaves the kept line's time as it is
        self.time_bounds: dict[str, tuple[bytes, str]] = {}
        # bulk.py: lines counted in but not yet added to their kept lines (see settle): a template's dedupe key, a
        # line entry or (key, codes, rank) -> [lines, earliest time (MMDDhhmmssffffff), dedupe key, codes, rank]
        self.pending: dict = {}
        self.generic_off = False
        # scanning one file for parallel.py: heads kept as bytes (the budget is the merge's), and every
        # kept occurrence of each code counted
        self.partial = partial
        self.raw_heads: list[tuple[str, bytes]] = []
        self.code_seen: dict[tuple[str, str], int] | None = {} if partial else None
        # scanning for parallel.py once the merged result is at the cap: the keys it held then (a line of
        # another key is not kept, as the serial scan past its cap), and the keys so left out
        self.frozen: frozenset[str] | None = None
        self.dropped: set[str] = set()

    def settle(self) -> None:
        """Add the lines bulk.py counted in (``pending``) to their kept lines. What they add (counts, ranks, the
        earliest time, code counts) does not depend on when it is added, as long as nothing reads or changes the
        kept lines and codes meanwhile: everything else that does settles first (Scanner._count, the end of a
        scan, a merge of a worker's unit)."""
        bound = self.time_bounds
        lines, codes_of, seen = self.lines, self.codes, self.code_seen
        for n, t, key, codes, rank in self.pending.values():
            ln = lines[key]
            ln.count += n
            if rank:
                ln.ranks.add(rank)
            b = bound.get(key)
            if b is None or b[1] is not ln.time or t < b[0]:
                time = time_text(t)
                if not ln.time or time < ln.time:
                    ln.time = time
                bound[key] = (t, ln.time)       # a time no earlier than the line's (t and the text sort alike)
            for ck in codes:
                if ck in codes_of:
                    codes_of[ck].count += n
            if seen is not None:
                for ck in codes:
                    seen[ck] = seen.get(ck, 0) + n
        self.pending.clear()

    def past_cap(self, key: str) -> bool:
        """A new line of dedupe ``key`` that is neither a signature nor a code line is not kept (MAX_DISTINCT)."""
        if self.frozen is None:
            return len(self.lines) >= MAX_DISTINCT
        if key in self.frozen:
            return False
        self.dropped.add(key)
        return True

    def head_left(self) -> int:
        """Bytes of its head the next input may keep: HEAD_BYTES at most, within what HEAD_TOTAL leaves."""
        return min(HEAD_BYTES, max(0, HEAD_TOTAL - self.head_used))

    def add_head(self, name: str, data: bytes) -> None:
        if self.partial:
            self.raw_heads.append((name, data))
            return
        text = data.decode("utf-8", "replace")
        self.head_used += len(text)
        self.heads.append((name, text))

    def see_codes(self, codes) -> None:
        assert self.code_seen is not None
        for ck in codes:
            self.code_seen[ck] = self.code_seen.get(ck, 0) + 1


def report_title(heads: list[tuple[str, str]]) -> str:
    """The first line of the first input when it reads like an issue title (a tag such as ``[Bug]:``,
    or words rather than a log record)."""
    for name, text in heads[:1]:
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
        if cl.FORM_LABEL.match(first):
            return ""            # the paste starts at the issue form's first field: no title was pasted
        title = cl.strip_issue_tags(first)
        if title != first:
            return title[:300]
        # without a tag only pasted text has a title: a log file's first line is a record
        if name in ("<text>", "<stdin>") and 4 <= len(title) <= 300 and not PROSE_SKIP.match(title) \
                and "%" not in title and (CJK.search(title) or len(title.split()) >= 3):
            return title
    return ""


def prose_lines(heads: list[tuple[str, str]], limit: int = 300) -> list[str]:
    """Sentences written by a person (an issue body, a --text description), not log lines. An issue's
    tag (``[Bug]:``, ``[Usage]:``, ``【问题】``, a Markdown heading mark) is removed first: the title is
    often the only line that names the symptom."""
    out: list[str] = []
    for _name, text in heads:
        last = -2                  # the line number of the last prose line kept
        for i, line in enumerate(text.splitlines()):
            first = line[:1]
            aside = ASIDE.match(line)
            if aside:
                line, first = aside.group("inner").strip(), aside.group("inner").lstrip()[:1]
            if first in LOG_FIRST:
                continue           # a log record ((VllmWorker rank=0 ...) INFO, <...>, | table |): PROSE_SKIP's
            if first == "[" and not cl.ISSUE_TAG.match(line):
                continue           # a log record ([ERROR] RUNTIME(...), [rank0]:): never prose, nor a form label
            if cl.FORM_LABEL.match(line):
                continue
            s = cl.strip_issue_tags(line) if line.lstrip()[:1] in ("[", "【", "#") else line.strip()
            if out and last == i - 1 and CONTINUES.match(s) and not SENTENCE_DONE.search(out[-1]) \
                    and len(out[-1]) + len(s) < MAX_SENTENCE:
                out[-1] = f"{out[-1]} {s}"   # a sentence the writer (or a wrap) broke over two lines is one
                last = i
                continue
            # a paragraph written on one line (an issue body is rarely wrapped) is read sentence by sentence
            for part in (s,) if len(s) <= MAX_SENTENCE else cl.SENTENCE_END.split(s):
                if not (4 <= len(part) <= MAX_SENTENCE) or PROSE_SKIP.match(part):
                    continue
                if CJK.search(part) or (len(part.split()) >= 4 and _letters(part) + part.count(" ") > 0.8 * len(part)):
                    out.append(part)
                    last = i
                    if len(out) >= limit:
                        return out
    return out


_ASCII_LETTERS = string.ascii_letters.encode("ascii")


def _letters(s: str) -> int:
    """How many characters of ``s`` are letters (str.isalpha), counted at C speed when ``s`` is ASCII."""
    if s.isascii():
        b = s.encode("ascii")
        return len(b) - len(b.translate(None, _ASCII_LETTERS))
    return sum(map(str.isalpha, s))
