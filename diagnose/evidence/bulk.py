"""The scan's fast path: a block read by the shapes of its lines (memo.py) instead of being searched.

A block is read a part of about SHAPE_PART bytes of whole lines at a time. For a part: the shapes of
its lines (one ``translate`` and one ``split``) and their entries (one dict lookup each); a new shape is
learnt from its first line. A NOTHING line costs nothing more (its error-word hits are counted per
entry). The other lines are taken in order:

- a progress update only when it is the last of its bar in the part (StallTracker.note keeps only the
  last update of each bar until the tracker reads them); carriage-return captures are checked together
  (``memo.all_progress``) and, when all of them update one bar, only the last is noted;
- a part whose kept lines are all plog lines (a template, or a sure line entry) is counted shape by shape
  (``_by_shape``: times and keys by slices of the lines' digits, counted per key), unless one of its
  lines would be read on its own; then its lines are taken in order as below;
- a kept plog line whose line entry is sure (or whose shape has a template), and whose kept line already
  exists, is counted in bulk: per entry its number and its earliest time, gathered in the scan's
  ``_State.pending`` across parts and files and added to the kept lines when something reads or changes
  them (``_State.settle``: a line read on its own, a new kept line, the end of the scan, a merge of a
  worker's unit), so that the state anyone reads is what reading line by line gives (what bulk adds,
  counts and earliest times, does not depend on when it is added); a new kept line of a template is
  kept at once;
- everything else through the scanner, one line at a time, as the plain path reads it.
"""
from __future__ import annotations

from collections import Counter
from itertools import accumulate, compress, groupby, repeat
from operator import itemgetter
from typing import TYPE_CHECKING

from . import clock as clock_mod
from .clock import time_text
from .memo import EXACT, NOT_DIGITS, NOTHING, PROGRESS_ONLY, LineEntry, ShapeEntry, ShapeMemo, one_bar_by_shapes
from .model import CODE, SIGNATURE
from .uniform import TO_ZERO
from .verdict import MAX_KEEP

if TYPE_CHECKING:       # pragma: no cover
    from .scan import Scanner, _State

SHAPE_PART = 1 << 20        # bytes of a block read by shapes at a time
MAX_KEYS = 10000            # dedupe keys made from templates that are remembered
MAX_NEW = 256               # new shapes a part learns; a part with more is searched by the automaton
BY_SHAPE_MIN = 200          # kept lines a part needs to be counted shape by shape (fewer: line by line is cheaper)
LONG_PART = 64 << 10        # a part whose first line is this long reads that line on its own
KEPT_PAST_CAP = frozenset([SIGNATURE, CODE])    # kinds of a new line kept past scan.MAX_DISTINCT
#: bytes.translate: keep only the ASCII digits and the newlines
NOT_DIGITS_NL = bytes(c for c in range(256) if not (48 <= c <= 57 or c == 10))


class ShapeReader:
    """Reads blocks for ``scanner`` (whose ``_line``, ``_keep``, ``_count`` and stall tracker it uses)."""

    def __init__(self, scanner: "Scanner"):
        self.sc = scanner
        self._keyed: list = []                   # the templates whose ``keys`` remember dedupe keys
        self._nkeys = 0                          # how many they remember together
        self._search = 0                         # parts to search with the automaton before shapes are tried again
        self._searched = 0                       # how many were searched the last time

    def block(self, buf: bytearray, end: int, name: str, lineno: int, st: "_State", memo: ShapeMemo) -> int:
        """Read ``buf[:end]`` (whole lines; the last may lack its newline), its first line being ``lineno``;
        returns the next line number."""
        start = 0
        with memoryview(buf) as view:
            while start < end:
                stop = buf.find(b"\n", min(start + SHAPE_PART, end) - 1, end) + 1 or end
                with view[start:stop] as part:
                    lineno = self._part(bytes(part), name, lineno, st, memo)
                start = stop
        return lineno

    def _part(self, text: bytes, name: str, lineno: int, st: "_State", memo: ShapeMemo) -> int:
        """Read the part ``text`` (whole lines), its first line being ``lineno``; returns the next line number."""
        while len(text) > LONG_PART and text.find(b"\n", 0, LONG_PART) < 0:
            # a long first line is read on its own (its shape would only cost), then the rest
            cut = text.find(b"\n")
            first = text if cut < 0 else text[:cut]
            e = memo.capture(first, first.translate(TO_ZERO)) if b"\r" in first.rstrip(b"\r") else memo.long
            self._one(e, first, b"", None, name, lineno, st, memo)
            lineno += 1
            if cut < 0 or cut + 1 == len(text):
                return lineno
            text = text[cut + 1:]
        if self._search > 0:        # parts of too many new shapes lately: search this one with the automaton
            self._search -= 1
            return self.sc._search_block(text, len(text), name, lineno, st, memo.pf, memo.pf.matches(text), memo.pf)
        shapes = text.translate(TO_ZERO).split(b"\n")
        if text[-1:] == b"\n":
            shapes.pop()
        rest = set(shapes).difference(memo.quiet)
        if not rest:                    # every line NOTHING, no error-word hits: nothing to read or count
            return lineno + len(shapes)
        entry = {k: memo.get(k) for k in rest}              # shape -> entry, each shape once (but the quiet ones)
        orig = None
        seg_shapes = None
        others = set()                  # the shapes whose lines are read (not NOTHING)
        hits = []                       # the NOTHING shapes with error-word hits
        unknown = []
        for k, e in entry.items():
            if e is None:
                unknown.append(k)
            elif e.kind is not NOTHING:
                others.add(k)
            elif e.gh:
                hits.append(k)
        if unknown:
            # ShapeMemo.kept, with one rstrip per shape: carriage-return updates (captures: only noted if they are
            # all progress; a capture of a bar is a shape of its own, so a bar-heavy part holds hundreds of them)
            captures = [k for k in unknown if b"\r" in k.rstrip(b"\r")]
            if captures:
                cap_set = set(captures)
                plain = [k for k in unknown if k not in cap_set]
            else:
                plain = unknown
            new = [k for k in plain if len(k) <= MAX_KEEP]
            if len(new) < len(plain):
                for k in plain:
                    if len(k) > MAX_KEEP:
                        entry[k] = memo.long    # a long line: read on its own
            seg_shapes = memo.all_progress(captures) if captures else None
            if new or (captures and seg_shapes is None):
                orig = text.split(b"\n")
                first = dict(zip(reversed(shapes), range(len(shapes) - 1, -1, -1)))     # shape -> its first line
            if seg_shapes is not None:
                entry.update(dict.fromkeys(captures, memo.capture_entry))
            else:
                for k in captures:
                    entry[k] = memo.capture(orig[first[k]], k)
            if new:
                if len(new) > MAX_NEW:
                    # more new shapes than learning them would repay: the automaton reads this part, and only the
                    # shapes that repeat in it are learnt (a log whose every line has a shape of its own stays cheap)
                    counts = Counter(shapes)
                    for k in sorted((k for k in new if counts[k] > 1), key=counts.__getitem__, reverse=True)[:MAX_NEW]:
                        memo.learn(orig[first[k]], k)
                    self._searched = min(2 * self._searched + 1, 31)
                    self._search = self._searched           # the next parts are searched too, more of them each time
                    return self.sc._search_block(text, len(text), name, lineno, st, memo.pf, memo.pf.matches(text),
                                                 memo.pf)
                self._searched = 0
                for k in new:
                    entry[k] = memo.learn(orig[first[k]], k)
            others.update(captures)             # capture_entry or long: read (noted)
            for k in plain:
                e = entry[k]
                if e.kind is not NOTHING:
                    others.add(k)
                elif e.gh:
                    hits.append(k)
        gh = 0
        if hits:
            if len(hits) > 2:
                gh_of = {k: entry[k].gh for k in hits}
                gh = sum(map(gh_of.get, shapes, repeat(0)))
            else:
                gh = sum(entry[k].gh * shapes.count(k) for k in hits)
        if others:
            todo = list(compress(range(len(shapes)), map(others.__contains__, shapes)))
            if len(todo) >= BY_SHAPE_MIN and all(entry[k].tpl is not None or entry[k].kind is EXACT and entry[k].clock is not None
                                                 for k in others):
                n = self._by_shape(todo, entry, text.translate(None, NOT_DIGITS_NL).split(b"\n"), text, orig, shapes,
                                   name, lineno, st, memo)
                if n is not None:
                    if gh + n:
                        self.sc.count_generic(gh + n, st)
                    return lineno + len(shapes)
            es = list(map(entry.__getitem__, map(shapes.__getitem__, todo)))     # the entry of each line of todo
            kinds = {entry[k].kind for k in others}
            if PROGRESS_ONLY in kinds:          # progress updates: a shape's bar, or captures (capture_entry)
                if orig is None:
                    orig = _lines_at(text, shapes, todo)
                todo = self._progress(todo, es, orig, memo.capture_entry, seg_shapes)
                es = list(map(entry.__getitem__, map(shapes.__getitem__, todo)))
            digits = None
            if EXACT in kinds:
                digits = text.translate(None, NOT_DIGITS_NL).split(b"\n")
            gh += self._lines(todo, es, text, orig, digits, shapes, name, lineno, st, memo)
        if gh:
            self.sc.count_generic(gh, st)
        return lineno + len(shapes)

    def _progress(self, todo: list[int], es: list[ShapeEntry], orig, cap: ShapeEntry,
                  seg_shapes: "set[bytes] | None") -> list[int]:
        """The lines ``todo`` (in order, ``es`` their entries) still to read when progress updates are only noted:
        of the updates of one bar (told apart as StallTracker.note does: the text before the percentage and the
        total, sliced by the ``bar`` of their shape) only the last, and of the captures (``cap``: carriage-return
        updates) only the last when all of them together update one bar (told from their segments' shapes
        ``seg_shapes``, when the part's captures were all known progress, and a few counts when that is enough,
        else by StallTracker.one_bar); the other lines all."""
        plain: list[int] = []
        caps: list[int] = []
        last: dict = {}
        for i, e in zip(todo, es):
            bar = e.bar
            if bar is not None:
                last[bar(orig[i])] = i
            elif e is cap:
                caps.append(i)
            else:
                plain.append(i)
        if len(caps) > 1:
            body = b"\r".join([orig[i].rstrip(b"\r") for i in caps])
            if (seg_shapes is not None and one_bar_by_shapes(body, seg_shapes)) or self.sc.stalls.one_bar(body):
                caps = caps[-1:]
        plain.extend(caps)
        plain.extend(last.values())
        plain.sort()
        return plain

    def _lines(self, todo: list[int], es: list[ShapeEntry], text: bytes, orig, digits, shapes: list[bytes], name: str,
               lineno: int, st: "_State", memo: ShapeMemo) -> int:
        """The lines ``todo`` of the part ``text`` (``es``: their entries; ``orig``: its lines, or None until one
        is wanted), in order; returns the error-word hits of those counted in bulk."""
        lines = st.lines
        valid = clock_mod._VALID
        gh = 0
        bulk = st.pending               # the lines counted in, not yet added to their kept lines (_State.settle)
        last = b""                      # the time of the last line counted in bulk (b"": none since the last noted)
        for i, e in zip(todo, es):
            tpl = e.tpl
            if tpl is not None:                 # a template's line (its shape is EXACT): most plog lines
                d = digits[i]
                c = tpl.clock                   # its time (as Clock.at, without a call): MMDDhhmmssffffff
                h = d[c.head]
                if valid.get(h) or c.valid(h):
                    t = d[c.time] + c.pad
                    key = tpl.keys.get(d[tpl.lo:])
                    if key is None:
                        key = self._key_of(tpl, d)
                    v = tpl.v
                    gh += v.gh
                    last = t
                    acc = bulk.get(key)
                    if acc is not None:         # (only kept lines are counted in)
                        acc[0] += 1
                        if t < acc[1]:
                            acc[1] = t
                    elif key in lines:
                        bulk[key] = [1, t, key, v.codes, ""]
                    elif (v.kinds & KEPT_PAST_CAP) or not st.past_cap(key):
                        # a new kept line (else, past the cap, only its time is noted): what the lines gathered
                        # so far change (counts and times of other kept lines) it neither reads nor changes, but
                        # for the time noted last
                        if orig is None:
                            orig = _lines_at(text, shapes, todo)
                        self.sc._keep(st, name, lineno + i, orig[i].decode("utf-8", "replace").rstrip("\r")[:MAX_KEEP],
                                      tpl.verdict(d.decode("ascii"), key), time_text(t), "")
                    continue
                le = None
            elif e.kind is EXACT:
                d = digits[i]
                le = e.lines.get(d[e.h:])
                if le is None:
                    if orig is None:
                        orig = _lines_at(text, shapes, todo)
                    le = memo.line(e, orig[i], shapes[i], d)
                else:
                    e.hits += 1
                if le.bulk:
                    v = le.v
                    t = e.clock.at(d)
                    if t is not None:
                        key = v.key
                        acc = bulk.get(le)
                        if acc is not None:
                            acc[0] += 1
                            if t < acc[1]:
                                acc[1] = t
                            last = t
                            gh += v.gh
                            continue
                        if key in lines:
                            bulk[le] = [1, t, key, v.codes, le.rank]
                            last = t
                            gh += v.gh
                            continue
                        if not (v.kinds & KEPT_PAST_CAP) and st.past_cap(key):
                            last = t            # a new line past the cap is not kept: only its time is noted
                            gh += v.gh
                            continue
            else:
                le = None
            if last:                    # the line read on its own may take its time from the last one
                st.last_time[name] = time_text(last)
                last = b""
            if orig is None:
                orig = _lines_at(text, shapes, todo)
            self._one(e, orig[i], shapes[i], None if digits is None else digits[i], name, lineno + i, st, memo, le)
        if last:
            st.last_time[name] = time_text(last)
        return gh

    def _by_shape(self, todo: list[int], entry: dict, digits: list[bytes], text: bytes, orig, shapes: list[bytes],
                  name: str, lineno: int, st: "_State", memo: ShapeMemo) -> "int | None":
        """The lines ``todo`` of the part, every one a plog line (of a template or with a clock), read as ``_lines``
        reads them but with a pass per shape instead of a step per line: their times and keys by slices of their
        digits, counted per template key or line entry. Returns the error-word hits; None when some line would be
        read on its own (an invalid time, a line entry that is not sure or not bulk, a new kept line with codes):
        then the caller reads the part line by line (what was learnt meanwhile stays learnt)."""
        groups = []             # [lines, earliest time, first line, key, codes, rank, verdict, template, shape entry]
        gh = 0
        last = b""
        end = todo[-1]
        for k, group in groupby(sorted(todo, key=shapes.__getitem__), key=shapes.__getitem__):
            idx = list(group)
            e = entry[k]
            tpl = e.tpl
            clk = e.clock if tpl is None else tpl.clock
            ds = list(map(digits.__getitem__, idx))
            if not clk.all_valid(ds):
                return None
            times = clk.times(ds)
            if idx[-1] == end:
                last = times[-1]
            if tpl is not None:
                proj = list(map(itemgetter(slice(tpl.lo, None)), ds))
                key_of = {p: self._key_of(tpl, d) for p, d in dict(zip(proj, ds)).items()}
                gh += tpl.v.gh * len(idx)
                if len(key_of) == 1:        # one key (the digits that vary are the header's): no per-key pass
                    groups.append([len(idx), min(times), idx[0], key_of[proj[0]], (), "", tpl.v, tpl, None])
                    continue
                keys = list(map(key_of.__getitem__, proj))
                counts, earliest, firsts = _per_key(keys, times, idx)
                for key, n in counts.items():
                    groups.append([n, earliest[key], firsts[key], key, (), "", tpl.v, tpl, None])
                continue
            proj = list(map(itemgetter(slice(e.h, None)), ds))
            counts, earliest, firsts = _per_key(proj, times, idx)
            for p, n in counts.items():
                le = e.lines.get(p)
                if le is None:
                    if orig is None:
                        orig = text.split(b"\n")
                    i = firsts[p]
                    le = memo.line(e, orig[i], shapes[i], digits[i])
                    e.hits += n - 1
                    if e.kind is not EXACT:
                        return None         # its lines seldom repeat: they are read one by one
                else:
                    e.hits += n
                if not le.bulk:
                    return None
                v = le.v
                gh += v.gh * n
                groups.append([n, earliest[p], firsts[p], v.key, v.codes, le.rank, v, None, e])
        lines = st.lines
        first: dict[str, list] = {}             # a new key -> its group of the first line
        kept_past: dict[str, bool] = {}
        for g in groups:
            key = g[3]
            if key not in lines:
                kp = bool(g[6].kinds & KEPT_PAST_CAP)
                if kept_past.setdefault(key, kp) is not kp:
                    return None     # lines of one new key, some kept past the cap and some not
                f = first.get(key)
                if f is None or g[2] < f[2]:
                    first[key] = g
        if any(g[7] is None and g[4] for g in first.values()):
            return None             # a new kept line with codes: the lines counted before it are counted first
        dropped = set()
        for g in sorted(first.values(), key=itemgetter(2)):     # new kept lines, kept as their first lines come
            key, v, tpl, i = g[3], g[6], g[7], g[2]
            if not kept_past[key] and st.past_cap(key):
                dropped.add(key)    # past the cap: its lines are not kept, only their times noted
                continue
            if orig is None:
                orig = text.split(b"\n")
            d = digits[i]
            raw = orig[i].decode("utf-8", "replace").rstrip("\r")[:MAX_KEEP]
            if tpl is not None:
                self.sc._keep(st, name, lineno + i, raw, tpl.verdict(d.decode("ascii"), key), time_text(tpl.clock.at(d)), "")
            else:
                self.sc._keep(st, name, lineno + i, raw, v, g[8].clock.text(d), g[5])
            g[0] -= 1
        pending = st.pending
        for g in groups:
            n, t, key, codes, rank = g[0], g[1], g[3], g[4], g[5]
            if n and key not in dropped:
                gid = key if not codes and not rank else (key, codes, rank)
                acc = pending.get(gid)
                if acc is None:
                    pending[gid] = [n, t, key, codes, rank]
                else:
                    acc[0] += n
                    if t < acc[1]:
                        acc[1] = t
        st.last_time[name] = time_text(last)
        return gh

    def _key_of(self, tpl, d: bytes) -> str:
        """The dedupe key a template gives the line whose digits are ``d``, remembered in ``tpl.keys`` (MAX_KEYS
        keys at most over all templates)."""
        at = d[tpl.lo:]
        k = tpl.keys.get(at)
        if k is None:
            if self._nkeys >= MAX_KEYS:
                for t in self._keyed:
                    t.keys.clear()
                self._keyed.clear()
                self._nkeys = 0
            if not tpl.keys:
                self._keyed.append(tpl)
            k = tpl.keys[at] = tpl.key(d.decode("ascii"))
            self._nkeys += 1
        return k

    def _one(self, e: ShapeEntry, raw: bytes, key: bytes, digits: bytes | None, name: str, lineno: int,
             st: "_State", memo: ShapeMemo, le: "LineEntry | None" = None) -> None:
        """One line whose entry ``e`` is not NOTHING, as the plain path reads it (from what is known of it;
        ``le``: its line entry when already looked up)."""
        sc = self.sc
        kind = e.kind
        if kind is PROGRESS_ONLY:
            sc.stalls.note(raw, lineno, st.order)
            return
        if le is None and kind is EXACT:
            if digits is None:
                digits = raw.translate(None, NOT_DIGITS)
            le = e.lines.get(digits[e.h:])
            if le is None:
                le = memo.line(e, raw, key, digits)
            else:
                e.hits += 1
        if le is None or le.v is None:      # ONEBYONE, or not sure: the line is read on its own
            trigs = memo.trigs(raw)
            if trigs:
                sc._line(raw, trigs, name, lineno, st)
            return
        v = le.v
        for _ in range(v.notes):
            sc.stalls.note(raw, lineno, st.order)
        if v.gh:
            sc.count_generic(v.gh, st)
        if v.kinds:
            time = le.time if le.clock is None else le.clock.text(digits)
            if time is None or not sc._count(st, name, v, time, le.rank):
                sc._keep(st, name, lineno, raw.decode("utf-8", "replace").rstrip("\r")[:MAX_KEEP], v, time,
                         None if time is None else le.rank)


def _per_key(keys: list, times: "list[bytes]", idx: list[int]) -> "tuple[Counter, dict, dict]":
    """For the lines ``idx`` of one shape, with these keys and times: the lines of each key, its earliest time
    and its first line."""
    counts = Counter(keys)
    if len(counts) == 1:
        return counts, {keys[0]: min(times)}, {keys[0]: idx[0]}
    return counts, dict(sorted(zip(keys, times), reverse=True)), dict(zip(reversed(keys), reversed(idx)))


def _lines_at(text: bytes, shapes: list[bytes], wanted: list[int]) -> "list[bytes] | dict[int, bytes]":
    """The lines of ``text`` (of these shapes: the same lengths) at the indexes ``wanted``: a list of all its
    lines when many are wanted, else a dict of those."""
    if len(wanted) * 4 > len(shapes):
        return text.split(b"\n")
    ends = list(accumulate(map(len, shapes)))       # line i ends at ends[i] + i (i newlines before it)
    return {i: text[ends[i] + i - len(shapes[i]):ends[i] + i] for i in wanted}


