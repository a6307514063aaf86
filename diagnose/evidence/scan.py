"""Streaming scan of inputs into Evidence.

Each input is read in blocks that end on a line boundary (a line longer than MAX_LINE is cut),
so memory stays flat whatever the file size (two buffers of max(BLOCK, MAX_LINE) + BLOCK bytes per
input). One pass of an Aho-Corasick automaton over each block (prefilter.py) finds the lines holding a
trigger literal (signature literals, code markers, error
words, CANN cause headers); only those lines are decoded, cleaned, checked against the signature
regexes and kept, deduplicated across ranks and files. The first HEAD_BYTES of every input are also kept as text
for facts (version strings, npu-smi tables) and for the free sentences of a pasted issue.

Two threads: the automaton runs without the GIL, so while a helper thread (one per input, from a
one-worker pool) searches block k, the main thread reads block k+1 into the other buffer and does the
Python work on block k. Blocks are handed over in order and each is searched by the automaton the
single-threaded scan would use (a block searched before the error words were switched off has their
hits left out), so the Evidence is the same. Measured on bench/scan.py (2 vCPU): the 268 MB scan went
from ~0.93 s to ~0.65 s (the automaton alone is ~0.52 s).
"""
from __future__ import annotations

import re
import sys
import zlib
from concurrent.futures import ThreadPoolExecutor
from typing import Iterable

from . import clean as cl
from . import codes as codes_mod
from .model import CAUSE, CODE, ERROR, SIGNATURE, CodeHit, Evidence, EvidenceLine, InputNote
from .prefilter import Prefilter
from .sources import Source, looks_binary
from .stalls import PROGRESS_TRIGGERS, StallTracker, parse_updates

PROGRESS_SET = frozenset(PROGRESS_TRIGGERS)

BLOCK = 4 << 20
MAX_LINE = 1 << 20          # a line still without a newline after this many carried bytes is cut there
MAX_KEEP = 2000             # characters of a line kept for display and matching
REGEX_WINDOW = 4000         # a signature regex runs on this window around its literal in a long line
HEAD_BYTES = 1 << 20        # per input, kept for facts and prose
HEAD_TOTAL = 4 << 20
MAX_DISTINCT = 20000        # distinct kept lines; beyond it only signature and code lines are kept
MAX_GENERIC_HITS = 200000   # generic error-word lines examined; then the error words are dropped
SWITCH_INTERVAL = 0.0005     # seconds: sys.setswitchinterval while an input is read (see _scan_source)
PROGRESS = "progress"       # trigger kind of progress-bar literals: fed to the stall tracker, not kept as a line

#: words that make a line an error line (code markers such as "error code is" and "ret is" sit on lines
#: that already hold one of these)
ERROR_WORDS = (b"rror", b"RROR", b"ailed", b"FAIL", b"xception", b"Traceback", b"imeout", b"fault", b"dumped",
               b"not found", b"No such file", b"denied", b"annot ",
               "报错".encode(), "失败".encode(), "错误".encode(), "异常".encode(), "超时".encode())
CAUSE_WORDS = (b"Possible Cause", b"Solution:", b"Reason:", b"Possible cause", "可能原因".encode(), "处理建议".encode(),
               "解决方法".encode())
#: every CANN / torch_npu code (``codes.BLOCK_RE``: ``E[A-Z0-9]dddd``, ``ERRddddd``) starts with one of these;
#: they ride in the trigger automaton and a line holding one is confirmed with BLOCK_RE on that line only
CODE_PREFIXES = frozenset([b"ERR"] + [b"E" + bytes([c, d]) for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                      for d in b"0123456789"])
ERROR_LINE = re.compile(
    r"error|fail|exception|traceback|killed|segmentation fault|core dumped|timed? ?out|abort|not found|"
    r"no such file|denied|cannot |unable to|not supported|报错|失败|错误|异常", re.I)
BENIGN_ERROR = re.compile(r"\b0 errors?\b|error_?count[=:]\s*0\b|errors?:\s*0\b|no errors?", re.I)
PROSE_SKIP = re.compile(r"^\s*(?:[\[(<|+]|\S+\.(?:py|cc|cpp|h):\d+|at |File \"|\d{2,4}[-/:])")
CJK = re.compile(r"[\u3400-\u9fff]")


class SignaturePattern:
    """What the scanner needs of a KB signature: the literal and the regex (a compiled pattern, or its
    source compiled on first use; None: the literal itself). A source that does not compile is kept in
    ``error`` and never matches."""
    __slots__ = ("index", "literal", "_regex", "error")

    def __init__(self, index: int, literal: str, regex: "re.Pattern[str] | str | None" = None):
        self.index = index
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
        return f"SignaturePattern({self.index}, {self.literal!r})"


class Scanner:
    def __init__(self, signatures: Iterable[SignaturePattern] = ()):
        self.signatures = list(signatures)
        self.by_literal: dict[bytes, list[SignaturePattern]] = {}
        for s in self.signatures:
            self.by_literal.setdefault(s.literal.encode("utf-8"), []).append(s)
        self.kind_of: dict[bytes, str] = {}
        for t in ERROR_WORDS:
            self.kind_of[t] = ERROR
        for t in codes_mod.TRIGGERS:
            self.kind_of[t] = CODE
        for t in CAUSE_WORDS:
            self.kind_of[t] = CAUSE
        for t in self.by_literal:
            self.kind_of[t] = SIGNATURE
        for t in PROGRESS_TRIGGERS:
            self.kind_of.setdefault(t, PROGRESS)
        self.stalls = StallTracker()
        self._generic_hits = 0
        # one automaton over every trigger; a second without the error words once those are switched off
        self._prefilter = Prefilter([*self.kind_of, *CODE_PREFIXES])
        self._specific: Prefilter | None = None
        self._apart: dict[int, frozenset[int]] = {}
        self._bar_rx: dict[tuple, tuple[re.Pattern[bytes], ...]] = {}

    def _prefilter_for(self, st: "_State") -> Prefilter:
        if not st.generic_off:
            return self._prefilter
        if self._specific is None:
            self._specific = Prefilter([*(t for t, k in self.kind_of.items() if k != ERROR), *CODE_PREFIXES])
        return self._specific

    # -- public --------------------------------------------------------------------------------
    def scan(self, sources: Iterable[Source], evidence: Evidence | None = None) -> Evidence:
        ev = evidence or Evidence()
        state = _State(ev)
        for src in sources:
            ev.inputs.append(src.name)
            self._scan_source(src, state)
        ev.lines = list(state.lines.values())
        ev.lines.sort(key=lambda ln: ln.order)
        ev.codes = list(state.codes.values())
        ev.causes = [ln for ln in ev.lines if CAUSE in ln.kinds]
        ev.heads = state.heads
        return ev

    # -- one input -----------------------------------------------------------------------------
    def _scan_source(self, src: Source, st: "_State") -> None:
        ev = st.ev
        try:
            stream = src.open()
        except (OSError, EOFError, zlib.error) as exc:
            ev.notes.append(InputNote(src.name, "error", f"cannot open: {getattr(exc, 'strerror', None) or exc}"))
            return
        lineno = 1
        head_left = min(HEAD_BYTES, max(0, HEAD_TOTAL - st.head_used))
        head = []
        last_time = ""
        rd = _Reader(src.name, stream)
        # two buffers: while a helper thread runs the automaton over the block in one (without the
        # GIL), this thread reads the next block into the other, then does the Python work on the first
        bufs = [bytearray(max(BLOCK, MAX_LINE) + BLOCK) for _ in range(2)]
        # the helper thread needs the GIL for a moment to start each search and to hand its answer back;
        # with the default 5 ms switch interval it would wait about that long each time (a block is
        # searched in ~8 ms), so the interval is shortened while the input is read, then restored
        interval = sys.getswitchinterval()
        sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
        try:
            with stream, memoryview(bufs[0]) as v0, memoryview(bufs[1]) as v1, \
                    ThreadPoolExecutor(1, thread_name_prefix="ad-scan") as pool:
                views = [(bufs[0], v0), (bufs[1], v1)]
                blk = rd.block(*views[0], None, first=True)
                ev.notes.extend(blk.notes)
                if blk.skip or not blk.end:
                    return
                k = 0
                pf = self._prefilter_for(st)
                search = pool.submit(pf.matches, blk.buf, blk.end)
                while True:
                    # read the next block into the other buffer while the automaton runs over this one
                    nxt = None
                    if blk.got:
                        k ^= 1
                        nxt = rd.block(*views[k], blk)
                    matches = search.result()
                    next_pf = None
                    if nxt is not None and nxt.end:
                        next_pf = self._prefilter_for(st)
                        search = pool.submit(next_pf.matches, nxt.buf, nxt.end)
                    if head_left > 0:
                        take = bytes(blk.view[:min(head_left, blk.end)])
                        head.append(take)
                        head_left -= len(take)
                    lineno, last_time = self._scan_block(blk.buf, blk.end, src.name, lineno, last_time, st,
                                                         pf, matches)
                    if nxt is None:
                        break
                    ev.notes.extend(nxt.notes)
                    if next_pf is None:
                        break
                    blk, pf = nxt, next_pf
        except (OSError, EOFError, ValueError, zlib.error) as exc:  # gzip corruption, unreadable pipes
            ev.notes.append(InputNote(src.name, "error", f"stopped reading: {exc}"))
        finally:
            sys.setswitchinterval(interval)
        ev.bytes_read += rd.size
        ev.lines_read += lineno - 1
        ev.stalls.extend(self.stalls.finish(src.name, lineno - 1))
        if rd.cut_lines:
            ev.notes.append(InputNote(src.name, "info", f"{rd.cut_lines} line(s) longer than {MAX_LINE >> 20} MiB were cut"))
        if head:
            text = b"".join(head).decode("utf-8", "replace")
            st.head_used += len(text)
            st.heads.append((src.name, text))

    def _scan_block(self, buf: bytearray, end: int, name: str, lineno: int, last_time: str,
                    st: "_State", pf: Prefilter | None = None,
                    matches: list[tuple[int, int, int]] | None = None) -> tuple[int, str]:
        """Scan ``buf[:end]`` (whole lines; the last may lack its newline) starting at line ``lineno``.
        ``matches``: the automaton's answer for the block when already found (by ``pf``)."""
        drop: frozenset[int] = frozenset()
        cur = self._prefilter_for(st)
        if pf is None or matches is None:
            pf, matches = cur, None
        elif pf is not cur:
            # the error words were switched off after this block was searched: leave their hits out
            keep = set(cur.triggers)
            drop = frozenset(i for i, t in enumerate(pf.triggers) if t not in keep)
        starts, bars = pf.lines_apart(buf, end, self._progress_idx(pf), matches, drop)
        if starts:
            self._confirm_codes(buf, end, starts)
        if bars:
            self._bar_lines(buf, end, bars, starts)
        if not starts:
            return lineno + buf.count(b"\n", 0, end) + (0 if end and buf[end - 1] == 10 else 1), last_time
        prev = 0
        for s in sorted(starts):
            lineno += buf.count(b"\n", prev, s)
            prev = s
            e = buf.find(b"\n", s, end)
            raw_b = buf[s:e if e >= 0 else end]
            self._line(raw_b, starts[s], name, lineno, st)
        lineno += buf.count(b"\n", prev, end)
        if not (end and buf[end - 1] == 10):
            lineno += 1
        return lineno, last_time

    def _progress_idx(self, pf: Prefilter) -> frozenset[int]:
        idx = self._apart.get(id(pf))
        if idx is None:
            idx = self._apart[id(pf)] = frozenset(i for i, t in enumerate(pf.triggers) if t in PROGRESS_SET)
        return idx

    def _bar_lines(self, buf: bytearray, end: int, bars: list[int], starts: dict[int, set[bytes]]) -> None:
        """Add to ``starts`` the progress-bar lines the stall tracker must see (``bars``: offsets of the
        progress literals in ``buf[:end]``, sorted).

        Only the last update of each bar matters. The common block holds many updates of one bar and
        nothing else: then only its last line is handed on. That is checked exactly in C: the last line
        gives the bar's prefix ``P`` (the text before the percentage) and total ``T``; a regex counts the
        lines ``P NN% ... d/T [`` of the block, and if that count equals the number of progress literals,
        every literal sits on such a line (one each), and all of them are updates of the same bar (same
        text before the percentage and same total give the same description and total). Otherwise
        every line holding a literal is handed on (the tracker keeps the last of each bar).
        """
        last = bars[-1]
        ls = buf.rfind(b"\n", 0, last) + 1
        rx = self._same_bar_regex(buf, ls, end, last)
        if rx is not None:
            first = buf.rfind(b"\n", 0, bars[0]) + 1
            # without any CR in the block, the check for a CR inside a line can go
            if buf.find(b"\r", first, end) < 0:
                rx = rx[2:]
            n = len(rx[0].findall(buf, max(0, first - 1), end))
            if first == 0 and rx[1].match(buf, 0, end):
                n += 1
            if n == len(bars):
                starts.setdefault(ls, set()).add(PROGRESS_TRIGGERS[0])
                return
        le = -1
        for pos in bars:
            if pos < le:
                continue
            ls = buf.rfind(b"\n", 0, pos) + 1
            le = buf.find(b"\n", pos, end)
            if le < 0:
                le = end
            starts.setdefault(ls, set()).add(PROGRESS_TRIGGERS[0])

    def _same_bar_regex(self, buf: bytearray, ls: int, end: int, pos: int
                        ) -> tuple[re.Pattern[bytes], ...] | None:
        """Regexes (after a newline, at a line start) for the lines that are updates of the bar whose
        progress literal is at ``pos`` (line starting at ``ls``); None when the line is not a plain one."""
        le = buf.find(b"\n", pos, end)
        line = bytes(buf[ls:le if le >= 0 else end]).rstrip(b"\r")
        if b"\r" in line or b"\x1b" in line:
            return None
        rel = pos - ls
        q = rel
        while q > 0 and rel - q < 3 and 48 <= line[q - 1] <= 57:
            q -= 1
        if q == rel:
            return None
        p_end = q
        while p_end > 0 and line[p_end - 1] == 32:
            p_end -= 1
        prefix = line[:p_end]
        if b"%" in prefix or (prefix and 48 <= prefix[-1] <= 57):
            return None
        upd = parse_updates(line.decode("utf-8", "replace"))
        if len(upd) != 1:
            return None
        key = (prefix, p_end < q, upd[0][3], line[rel:rel + 2] == b"%|")
        rx = self._bar_rx.get(key)
        if rx is None:
            if len(self._bar_rx) > 64:
                self._bar_rx.clear()
            body = (re.escape(prefix) + (b" +" if key[1] else b"") + rb"\d{1,3}"
                    + (rb"%\|[^|\r\n\x1b]{0,400}\|" if key[3] else rb"% Completed *\|")
                    + rb" *\d+/" + str(key[2]).encode() + rb" *\[")
            tail = rb"[^\r\n]*\r?(?=\n|\Z)"      # no CR inside the line (CR updates are fed whole)
            rx = self._bar_rx[key] = (re.compile(b"\n" + body + tail), re.compile(body + tail),
                                      re.compile(b"\n" + body), re.compile(body))
        return rx

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

    def _line(self, raw_b: bytes, trigs: set[bytes], name: str, lineno: int, st: "_State") -> None:
        if trigs <= PROGRESS_SET:       # a progress bar and nothing else: only the stall tracker wants it
            self.stalls.note(raw_b, lineno, st.order)
            return
        kinds: set[str] = set()
        sig_hits: list[int] = []
        full = raw_b.decode("utf-8", "replace").rstrip("\r")
        for trig in trigs:
            kind = self.kind_of.get(trig, CODE)
            if kind == SIGNATURE:
                lit = trig.decode("utf-8", "replace")
                for sp in self.by_literal[trig]:
                    text = full
                    if len(full) > REGEX_WINDOW:
                        i = full.find(lit)
                        text = full[max(0, i - REGEX_WINDOW // 2): i + len(lit) + REGEX_WINDOW // 2]
                    rx = sp.regex
                    if rx is not None and rx.search(text):
                        sig_hits.append(sp.index)
            elif kind == PROGRESS:
                self.stalls.note(raw_b, lineno, st.order)
            elif kind == ERROR:
                self._generic_hits += 1
                if self._generic_hits > MAX_GENERIC_HITS:
                    st.generic_off = True
                kinds.add(ERROR)
            else:
                kinds.add(kind)
        raw = full[:MAX_KEEP]
        codes = codes_mod.extract(full if len(full) <= REGEX_WINDOW else full[:REGEX_WINDOW])
        if codes:
            kinds.add(CODE)
        else:
            kinds.discard(CODE)
        if sig_hits:
            kinds.add(SIGNATURE)
        cleaned = cl.clean(raw)
        if ERROR in kinds and (BENIGN_ERROR.search(cleaned) or not ERROR_LINE.search(cleaned)):
            kinds.discard(ERROR)
        if not kinds:
            return
        key = cl.dedupe_key(cleaned)
        rank = cl.rank_of(raw)
        time = cl.line_time(raw)
        if time:
            st.last_time[name] = time
        else:
            time = st.last_time.get(name, "")
        ln = st.lines.get(key)
        if ln is not None:
            ln.count += 1
            if rank:
                ln.ranks.add(rank)
            if time and (not ln.time or time < ln.time):
                ln.time = time
            for ck in codes:
                if ck in st.codes:
                    st.codes[ck].count += 1
            return
        if len(st.lines) >= MAX_DISTINCT and not (kinds & {SIGNATURE, CODE}):
            return
        st.order += 1
        ln = EvidenceLine(source=name, line=lineno, text=cleaned[:MAX_KEEP], raw=raw, order=st.order, time=time,
                          kinds=kinds, codes=codes, signatures=sorted(set(sig_hits)))
        if rank:
            ln.ranks.add(rank)
        st.lines[key] = ln
        for fam, code in codes:
            ck = (fam, code)
            hit = st.codes.get(ck)
            if hit is None:
                st.codes[ck] = CodeHit(fam, code, name, lineno, cleaned[:300], 1, st.order)
            else:
                hit.count += 1


class _Block:
    __slots__ = ("buf", "view", "end", "data_end", "got", "notes", "skip")

    def __init__(self, buf: bytearray, view: memoryview):
        self.buf, self.view = buf, view
        self.end = self.data_end = self.got = 0
        self.notes: list[InputNote] = []
        self.skip = False


class _Reader:
    """Reads one input into blocks that end on a line boundary (see ``Scanner._scan_source``)."""

    def __init__(self, name: str, stream):
        self.name = name
        self.stream = stream
        self.size = 0
        self.cut_lines = 0

    def block(self, buf: bytearray, view: memoryview, prev: "_Block | None", first: bool = False) -> _Block:
        """The next block in ``buf``: the partial line left after ``prev`` (it never holds a newline and
        is shorter than max(BLOCK, MAX_LINE)), then what is read after it, cut after its last newline;
        searched by ``pf``. ``end`` 0: nothing left; ``got`` 0: the input ended (or failed) here."""
        blk = _Block(buf, view)
        n = 0
        if prev is not None:
            n = prev.data_end - prev.end
            if n:
                view[:n] = prev.view[prev.end:prev.data_end]
        bsize = BLOCK
        while True:
            try:
                with view[n:n + bsize] as into:
                    got = self.stream.readinto(into) or 0
            except (OSError, EOFError, zlib.error) as exc:
                blk.notes.append(InputNote(self.name, "error", f"stopped reading after {self.size} bytes: {exc}"))
                got = 0
            if first:
                first = False
                if not got:
                    blk.notes.append(InputNote(self.name, "warning", "empty input"))
                    blk.skip = True
                    return blk
                if looks_binary(buf[:got]):
                    blk.notes.append(InputNote(self.name, "warning",
                                               "skipped: binary data (not a text log; UTF-16 without a byte-order mark must be converted to UTF-8)"))
                    blk.skip = True
                    return blk
            self.size += got
            if got:
                data_end = n + got
                cut = buf.rfind(b"\n", 0, data_end)
                if cut < 0:
                    if data_end < MAX_LINE:
                        n = data_end
                        continue
                    cut = data_end - 1
                    self.cut_lines += 1
                end = cut + 1
            else:
                end = data_end = n
            break
        blk.end, blk.data_end, blk.got = end, data_end, got
        return blk


class _State:
    def __init__(self, ev: Evidence):
        self.ev = ev
        self.lines: dict[str, EvidenceLine] = {}
        self.codes: dict[tuple[str, str], CodeHit] = {}
        self.order = 0
        self.head_used = 0
        self.heads: list[tuple[str, str]] = []
        self.last_time: dict[str, str] = {}
        self.generic_off = False


def report_title(heads: list[tuple[str, str]]) -> str:
    """The first line of the first input when it reads like an issue title (a tag such as ``[Bug]:``,
    or words rather than a log record)."""
    for name, text in heads[:1]:
        first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
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
        for line in text.splitlines():
            s = cl.strip_issue_tags(line) if line.lstrip()[:1] in ("[", "【", "#") else line.strip()
            if not (4 <= len(s) <= 400) or PROSE_SKIP.match(s):
                continue
            if CJK.search(s) or (len(s.split()) >= 4 and sum(c.isalpha() or c == " " for c in s) > 0.8 * len(s)):
                out.append(s)
                if len(out) >= limit:
                    return out
    return out
