"""What the lines of one shape are, learnt from the first line of that shape, and when that is sure.

Lines that hold a trigger repeat with other numbers in them: a benign plog line with another time,
pid and thread, ``Defaulting to ...`` with another time. The scanner reads a block by the shapes of
its lines (uniform.py: digits written 0) and reads a line itself only when this memo cannot say what
it is. A shape is learnt from its first line, as one of:

- NOTHING: every line of the shape ends in nothing, counting ``gh`` error-word hits. Sure when every
  signal that could tell the lines' digits apart provably cannot: no trigger holding a digit can sit on
  a line of the shape (so all hold the same triggers); when there are triggers, their signature
  regexes are digit-uniform (a broken one never matches), an error word is ruled out by
  ``cannot_be_error`` (digit-uniform), no line of the shape can hold a code (``codes.possible``), and
  there is no cause header or progress bar (those keep something);
- PROGRESS_ONLY: every line of the shape is a progress update and nothing else (same triggers, as
  above); ``cut`` says where StallTracker.note tells its bar (a line that only quotes a percentage,
  without "a/b [" after it, is left alone by the tracker: NOTHING);
- EXACT: lines are told apart by their digits after the first ``h`` (``h`` = 0: the line itself). For
  a plog line, ``h`` counts the digits of its header (pid, time, source line, thread), which cleaning
  removes; a LineEntry for each remaining digit string says what those lines are (their verdict, rank
  and where their time sits), when checks on the first such line show that the header's digits reach
  no signal (see ``ShapeMemo.line``); otherwise each of those lines is read. A shape whose lines seldom
  repeat (LEARN_TRIAL) becomes ONEBYONE: learning each would cost more than reading it. A kept shape whose
  verdict depends on its digits only through the cleaned text, and whose time sits in one place (a plog,
  ISO or vLLM time, clock.py), gets a template instead (template.py):
  every line of it, whatever its digits, is then known without a line entry;
- ONEBYONE: each line is read: a line longer than MAX_KEEP (a window of a long line depends on where
  its digits are) or one of carriage-return updates; their shapes are not kept. A line of carriage-return
  updates whose every segment is a PROGRESS_ONLY shape is only noted (``capture``).
"""
from __future__ import annotations

import re
from operator import itemgetter

import ahocorasick_rs

from . import clean as cl
from . import codes as codes_mod
from . import clock, template
from .model import SIGNATURE
from .prefilter import Prefilter
from .stalls import PROGRESS_TRIGGERS, _bar_parts
from .clock import Clock
from .template import Template
from .uniform import TO_ZERO, shape, uniform
from .verdict import ERROR_LINE, MAX_KEEP, PROGRESS_SET, Classifier, Verdict, cannot_be_error

NOTHING, PROGRESS_ONLY, EXACT, ONEBYONE = "nothing", "progress", "exact", "one-by-one"
MAX_SHAPE_BYTES = 4 << 20   # bytes of the shapes remembered (and what goes with each); then the memory is
                            # emptied and filled again
MAX_LINES = 20000           # line entries remembered, all shapes together; likewise
LEARN_TRIAL = 64            # line entries an EXACT shape makes before its lines are read one by one, unless
                            # half as many lines found one already made

#: a plog header on a shape (``[ERROR] HCCL(00000,python0):0000-00-00-00:00:00.000.000``): its time
PLOG_HEAD = re.compile(r"^\[(?:ERROR|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s+\w+\(\d+,[^)\n]*\):"
                       r"(\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3})")
#: clean.line_time's plog pattern with its literal digits (19|20) as a class, for shapes
TIME_ANY = clock.PLOG_ANY
#: bytes.translate: keep only the ASCII digits
NOT_DIGITS = bytes(c for c in range(256) if not 48 <= c <= 57)


class ShapeEntry:
    """``bar`` (PROGRESS): what StallTracker.note tells the bar of a line of this shape by, as a function of the
    line: (the text before the percentage, the total), sliced where ``_bar_cut`` says;
    ``tpl`` (EXACT): the verdict of every line of the shape from its digits (template.py), when there is one;
    ``clock`` (EXACT plog shapes): where a line's plog time sits among its digits (clock.py)."""
    __slots__ = ("kind", "gh", "h", "clock", "lines", "bar", "tpl", "made", "hits")

    def __init__(self, kind: str, gh: int = 0, h: int = 0, clock: Clock | None = None,
                 cut: tuple[int, int, int] | None = None, tpl: Template | None = None):
        self.kind, self.gh, self.h, self.clock, self.tpl = kind, gh, h, clock, tpl
        self.bar = None if cut is None else itemgetter(slice(0, cut[0]), slice(cut[1], cut[2]))
        self.lines: dict[bytes, LineEntry] = {}
        self.made = self.hits = 0       # line entries made, and lines that found one already made


class LineEntry:
    """What the lines of one shape and one digit string after the header are: ``v``, ``rank``, and their
    time: ``time`` (no ``clock``) or the plog time ``clock`` reads from the line's digits. ``bulk``: a kept
    plog line and nothing else (bulk.py counts such lines in without reading them)."""
    __slots__ = ("v", "rank", "time", "clock", "bulk")

    def __init__(self, v: Verdict | None, rank: str = "", time: str = "", clock: Clock | None = None):
        self.v, self.rank, self.time, self.clock = v, rank, time, clock
        self.bulk = v is not None and clock is not None and bool(v.kinds) and not v.notes


UNSURE = LineEntry(None)


def _bar_cut(key: bytes) -> tuple[int, int, int] | None:
    """For a progress line of shape ``key`` (no carriage return in it): StallTracker.note tells its bar by
    ``line[:a]`` and ``line[j:k]``; (a, j, k) is the same for every line of the shape (it is found at the
    first "%", "/" and "[", and the digits the text before the percentage ends with). None: not an update."""
    i = key.find(b"%")
    j = key.find(b"/", i)
    k = key.find(b"[", j)
    if i < 0 or j < 0 or k < 0:
        return None
    return len(key[:i].rstrip(b"0 ")), j, k


def one_bar_by_shapes(body: bytes, seg_shapes: "set[bytes]") -> bool:
    """Whether every carriage-return segment of ``body`` updates the bar of its last segment, decided from the
    shapes of its segments (``seg_shapes``: every non-empty segment's shape is one of them, all PROGRESS_ONLY;
    ``ShapeMemo.all_progress`` gives them) and two or three counts over ``body``, without a regex over its bytes.
    True only when StallTracker.one_bar would say True: every segment shape has its cut at the bar's text and
    "/total " (``_bar_cut``), shares the skeleton of that text and holds the skeleton of "/total " at its cut and
    nowhere else; every segment then begins with the text (the first segment, and one after each carriage
    return) and holds "/total " once, so each is the bar's text, digits, its first "%", no "/" before "/total "
    and its first "[". False says nothing (the caller asks one_bar)."""
    parts = _bar_parts(body[body.rfind(b"\r") + 1:])
    if parts is None:
        return False
    pre, tail = parts
    pre_skel, tail_skel = pre.translate(TO_ZERO), tail.translate(TO_ZERO)
    for seg in seg_shapes:
        cut = _bar_cut(seg)
        if cut is None or cut[0] != len(pre) or seg[:len(pre)] != pre_skel or seg[cut[1]:cut[2]] != tail_skel or \
                seg.find(tail_skel) != cut[1] or seg.find(tail_skel, cut[1] + 1) >= 0:
            return False
    n = body.count(b"\r") + 1
    # a text without digits is its skeleton: every segment's shape already says it begins with it
    return (pre == pre_skel or body.startswith(pre) and body.count(b"\r" + pre) == n - 1) and body.count(tail) == n


class ShapeMemo:
    """Shape -> ShapeEntry for one automaton (the triggers of a prefilter)."""

    def __init__(self, classifier: Classifier, pf: Prefilter, code_prefixes: frozenset[bytes]):
        self._cl = classifier
        self._pf = self.pf = pf
        self._code_prefixes = code_prefixes
        self._shapes: dict[bytes, ShapeEntry] = {}
        self.long = ShapeEntry(ONEBYONE)         # the entry of the lines whose shapes are not kept
        self._n_lines = 0
        self._bytes = 0
        digits = sorted({shape(t) for t in pf.triggers if t.translate(None, NOT_DIGITS)})
        self._digit_triggers = ahocorasick_rs.BytesAhoCorasick(digits) if digits else None
        self._uniform: dict[str, bool] = {}
        self.get = self._shapes.get
        #: the shapes known as NOTHING without error-word hits: a part whose shapes are all here costs one set
        #: difference (most of a healthy log, and a plog folder once the error words are off)
        self.quiet: set[bytes] = set()
        # a capture's segments are read as lines only when no trigger can span two of them
        self._captures = not any(b"\r" in t for t in pf.triggers)
        self.capture_entry = ShapeEntry(PROGRESS_ONLY)     # a capture of progress updates and nothing else

    def __len__(self) -> int:
        return len(self._shapes)

    # -- the triggers of one line ------------------------------------------------------------------
    def trigs(self, line: bytes) -> set[bytes]:
        """The triggers on ``line`` as the block search gives them: a CANN / torch_npu code prefix only as
        ``b""`` when a code is really there, the progress literals as one."""
        pf = self._pf
        found = {pf.triggers[i] for i, _s, _e in pf.matches(line)}
        if not found.isdisjoint(self._code_prefixes):
            found -= self._code_prefixes
            if codes_mod.BLOCK_RE.search(line):
                found.add(b"")
        if not found.isdisjoint(PROGRESS_SET):
            found -= PROGRESS_SET
            found.add(PROGRESS_TRIGGERS[0])
        return found

    # -- shapes -------------------------------------------------------------------------------------
    @staticmethod
    def kept(key: bytes) -> bool:
        """Whether the shape ``key`` is learnt and kept: not a long line, nor carriage-return updates (a
        capture of a progress bar: its shape is its own); those lines are read on their own."""
        return len(key) <= MAX_KEEP and b"\r" not in key.rstrip(b"\r")

    def capture(self, line: bytes, key: bytes) -> ShapeEntry:
        """The entry of a line of carriage-return updates (a terminal capture of tqdm) of shape ``key``:
        ``capture_entry`` when every segment is a progress update and nothing else (its shape, learnt from the
        segment, is PROGRESS_ONLY; an empty segment is nothing), since then the whole line holds the triggers of
        its segments and no other, and the line is only noted (StallTracker.note reads each segment); else
        ``long`` (read on its own)."""
        if not self._captures:
            return self.long
        get = self._shapes.get
        for seg_key, seg in zip(key.rstrip(b"\r").split(b"\r"), line.rstrip(b"\r").split(b"\r")):
            if not seg_key:
                continue
            e = get(seg_key)
            if e is None:
                e = self.learn(seg, seg_key)
            if e.kind is not PROGRESS_ONLY:
                return self.long
        return self.capture_entry

    def all_progress(self, keys: "list[bytes]") -> "set[bytes] | None":
        """The shapes of the segments of the carriage-return captures of shapes ``keys`` when every one is a
        shape already known as PROGRESS_ONLY (then every line of those shapes is one that ``capture`` gives
        ``capture_entry``: one set of the segments' shapes instead of a split per line); None says nothing
        (``capture`` then reads each line)."""
        if not self._captures:
            return None
        segs = set(b"\r".join(keys).split(b"\r"))
        segs.discard(b"")
        get = self._shapes.get
        return segs if all((e := get(k)) is not None and e.kind is PROGRESS_ONLY for k in segs) else None

    def learn(self, line: bytes, key: bytes) -> ShapeEntry:
        """The entry of shape ``key``, learnt from ``line`` (of that shape)."""
        if not self.kept(key):
            return self.long
        self._bytes += len(key) + 300
        if self._bytes > MAX_SHAPE_BYTES:
            self._shapes.clear()
            self.quiet.clear()
            self._n_lines = 0
            self._bytes = len(key) + 300
        e = self._shapes[key] = self._entry(line, key)
        if e.kind is NOTHING and not e.gh:
            self.quiet.add(key)
        return e

    def _entry(self, line: bytes, key: bytes) -> ShapeEntry:
        # without a trigger holding a digit on the shape, every line of it holds the same triggers
        digit_free = self._digit_triggers is None or not self._digit_triggers.find_matches_as_indexes(key)
        if digit_free:
            trigs = self.trigs(line)
            if not trigs:
                return ShapeEntry(NOTHING)
            if trigs <= PROGRESS_SET:
                cut = _bar_cut(key)
                # a line that is not an update (no "a/b [" after its percentage) is left alone by the tracker
                return ShapeEntry(PROGRESS_ONLY, cut=cut) if cut else ShapeEntry(NOTHING)
            v = self._cl.classify(line, trigs)
            if not v.kinds and not v.notes and self._nothing_for_all(line, key, trigs):
                return ShapeEntry(NOTHING, gh=v.gh)
        text = key.decode("utf-8", "replace")
        m = PLOG_HEAD.match(text)
        if m and line[:m.end()].isascii():
            head = cl.HEADERS[0].match(text)
            if head:
                return ShapeEntry(EXACT, h=text.count("0", 0, head.end()), clock=clock.plog(text.count("0", 0, m.start(1))),
                                  tpl=self._template(line, key, text, digit_free))
        return ShapeEntry(EXACT, tpl=self._template(line, key, text, digit_free))

    def _template(self, line: bytes, key: bytes, text: str, digit_free: bool) -> Template | None:
        """The template of a kept shape whose lines hold the same triggers and carry a time (template.py)."""
        if not digit_free:
            return None
        c = clock.find(text)
        return template.make(line, key, c, self._classify, self._uniform_sigs) if c else None

    def _classify(self, line: bytes) -> Verdict:
        trigs = self.trigs(line)
        return self._cl.classify(line, trigs) if trigs else Verdict()

    def _uniform_sigs(self, line: bytes) -> bool:
        return all(self._uniform_regex(sp) for t in self.trigs(line) if self._cl.kind_of.get(t) == SIGNATURE
                   for sp in self._cl.by_literal[t])

    def _nothing_for_all(self, line: bytes, key: bytes, trigs: set[bytes]) -> bool:
        kind_of = self._cl.kind_of
        for t in trigs:
            kind = kind_of.get(t)
            if kind == SIGNATURE:
                if not all(self._uniform_regex(sp) for sp in self._cl.by_literal[t]):
                    return False
            elif kind == ERROR_LINE:
                if not cannot_be_error(line):
                    return False
        return not codes_mod.possible(key.decode("utf-8", "replace"))

    def _uniform_regex(self, sp) -> bool:
        ok = self._uniform.get(sp.id)
        if ok is None:
            rx = sp.regex
            ok = self._uniform[sp.id] = rx is None or uniform(rx)
        return ok

    # -- lines of an EXACT shape ---------------------------------------------------------------------
    def line(self, e: ShapeEntry, line: bytes, key: bytes, digits: bytes) -> LineEntry:
        """The entry of the lines of shape ``key`` (entry ``e``) whose digits after the first ``e.h`` are
        those of ``line`` (``digits``: its digits), learnt from ``line``."""
        if self._n_lines >= MAX_LINES:
            for s in self._shapes.values():
                s.lines.clear()
            self._n_lines = 0
        self._n_lines += 1
        le = e.lines[digits[e.h:]] = self._line_entry(e, line, key, digits)
        e.made += 1
        if e.made >= LEARN_TRIAL and 2 * e.hits < e.made:
            # its lines seldom repeat: learning each costs more than reading it; from now on they are read
            e.kind = ONEBYONE
            e.lines.clear()
        return le

    def _line_entry(self, e: ShapeEntry, line: bytes, key: bytes, digits: bytes) -> LineEntry:
        trigs = self.trigs(line)
        v = self._cl.classify(line, trigs) if trigs else Verdict()
        text = line.decode("utf-8", "replace").rstrip("\r")[:MAX_KEEP]
        if e.h == 0:        # the line itself: every line of the entry is this one
            return LineEntry(v, cl.rank_of(text), cl.line_time(text))
        # the lines differ from this one in the first h digits (its header's): those must reach no signal
        at = [i for i, c in enumerate(key) if c == 48][:e.h]
        if not at or not line[:at[-1] + 1].isascii():
            return UNSURE
        varying = set(at)

        def reaches(spans) -> bool:
            return any(not varying.isdisjoint(range(s, t)) for s, t in spans)

        if self._digit_triggers is not None and reaches(
                (s, t) for _i, s, t in self._digit_triggers.find_matches_as_indexes(key, overlapping=True)):
            return UNSURE
        stext = key.decode("ascii", "replace")
        if trigs and reaches(codes_mod.spans(stext)):
            return UNSURE
        for t in trigs:
            if self._cl.kind_of.get(t) == SIGNATURE and not all(self._uniform_regex(sp) for sp in self._cl.by_literal[t]):
                return UNSURE
        # its time is the header's, and no other digits could put a plog time before it
        m = TIME_ANY.search(stext[:120])
        if m is None or stext.count("0", 0, m.start()) != e.clock.ts or cl.line_time(text) != e.clock.text(digits):
            return UNSURE
        # the same verdict and rank with other digits there (what a digit-uniform signal copies shows)
        other = bytearray(line)
        for i in at:
            other[i] = 48 + (other[i] - 47) % 10
        other_b = bytes(other)
        other_trigs = self.trigs(other_b)
        other_text = other_b.decode("utf-8", "replace").rstrip("\r")[:MAX_KEEP]
        rank = cl.rank_of(text)
        if other_trigs != trigs or rank != cl.rank_of(other_text) or \
                not (self._cl.classify(other_b, other_trigs) if other_trigs else Verdict()).same(v):
            return UNSURE
        return LineEntry(v, rank, clock=e.clock)
