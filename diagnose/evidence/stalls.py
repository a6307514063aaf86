"""Stalled progress bars: a tqdm bar whose last state in an input is below 100%.

The most common report of a weight-loading hang has no error line at all: the log simply ends at
``Loading safetensors checkpoint shards:   0% Completed | 0/163 [00:00<?, ?it/s]`` (or at some
percentage with nothing after it). A healthy start-up prints the same 0% line and then progresses,
so no single line tells them apart; the *last* state of the bar does.

The tracker is fed every line that holds a progress-bar literal (``PROGRESS_TRIGGERS``; the scanner's
prefilter finds them). A line may hold many carriage-return updates of a bar (what a terminal capture
or ``tee`` of tqdm gives): each CR segment counts as one update. Bars are told apart by their
description and total. At the end of an input, every bar whose last update is below its total is a
:class:`Stall`; a bar that later reaches 100% (or whose later updates supersede an earlier low one)
is not.

Forms recognised (after ANSI colours and per-rank prefixes are removed):

    <description>: NN%|<bar>| a/b [<elapsed><<remaining>, <rate>]      tqdm's default format
    <description>: NN% Completed | a/b [<elapsed><<remaining>, <rate>]  vLLM / SGLang weight loaders

A progress-heavy log holds thousands of updates of the same few bars; :class:`BarLines` picks, per
block, the lines the tracker must see without looking at each update in Python.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import clean as cl

#: literals that every recognised progress line holds (prefilter triggers)
PROGRESS_TRIGGERS = (b"%|", b"% Completed")

BAR = re.compile(
    r"(?P<pct>\d{1,3})%\s*(?:Completed\s*)?\|(?:[^|\r\n]{0,400}\|)?\s*(?P<done>\d+)/(?P<total>\d+)\s*\[")
#: (after a newline) a line holding a progress literal that is not an update: no "/" after its first "%", or no
#: "[" after that "/" (``StallTracker.note`` ignores it; it quotes a percentage, like a logger's "45% Completed |
#: 73/163"); a line without a literal is not one (BarLines counts these lines against the literals)
NOT_UPDATE = re.compile(rb"\n[^%\r\n]*%(?=\|| Completed|[^\n]*(?:%\||% Completed))[^/\r\n]*(?:/[^\[\r\n]*)?\r?(?=\n|\Z)")
#: what a description may end with before the percentage
DESC_TAIL = re.compile(r"[\s:|]+$")
MAX_BARS = 1000            # distinct bars tracked per input (a pathological log cannot grow memory)


@dataclass
class Stall:
    """A progress bar that never completed in one input: its last update."""
    description: str       # text before the percentage, without the trailing ':' ("" for a bare bar)
    percent: int
    done: int
    total: int
    source: str
    line: int              # 1-based line of the last update
    text: str = ""         # the last update as shown (cleaned)
    last_in_input: bool = False   # no later progress line of any bar and no later line at all
    order: int = 0         # reading order (the scanner's counter of kept lines at that point)


def parse_updates(raw: str) -> list[tuple[str, int, int, int, str]]:
    """Every progress update on one physical line: (description, percent, done, total, text).

    Carriage-return segments are separate updates, in order.
    """
    return [(desc, pct, done, total, shown(seg)) for desc, pct, done, total, seg in _updates(raw)]


_DESCS: dict[str, str] = {}         # text before a bar's percentage -> its description (a bar's repeat)


def _updates(raw: str) -> list[tuple[str, int, int, int, str]]:
    """``parse_updates`` with each update's segment instead of its text (``shown`` makes it)."""
    out = []
    text = cl.strip_ansi(raw)
    segments = text.split("\r") if "\r" in text else [text]
    for seg in segments:
        seg = seg.strip()
        if "%" not in seg:
            continue
        m = BAR.search(seg)
        if not m:
            continue
        total = int(m.group("total"))
        done = int(m.group("done"))
        if total <= 0:
            continue
        before = seg[:m.start()]
        desc = _DESCS.get(before)
        if desc is None:
            if len(_DESCS) > 10000:
                _DESCS.clear()
            desc = _DESCS[before] = DESC_TAIL.sub("", cl.strip_prefixes(before.strip())).strip()
        out.append((desc, int(m.group("pct")), done, total, seg))
    return out


def shown(seg: str) -> str:
    """The text of an update as shown: its segment without rank prefix and log header."""
    return cl.strip_prefixes(seg)[:300]


class StallTracker:
    """Follows progress bars through one input after another; ``finish()`` reports the stalls."""

    def __init__(self) -> None:
        self._bars: dict[tuple[str, int], tuple[int, int, int, str, int]] = {}   # key -> pct, done, line, segment, order
        self._last_key: tuple[str, int] | None = None
        # plain progress lines waiting to be parsed: only the last line of each bar matters, so a line
        # replaces the previous one of the same bar (told apart by its raw prefix and total)
        self._pending: dict[bytes, tuple[bytes, int, int]] = {}

    def note(self, raw: bytes, lineno: int, order: int = 0) -> None:
        """A progress line as read (bytes): cheap; parsed when the input ends (or in batches)."""
        raw = bytes(raw)
        if b"\r" in raw.rstrip(b"\r"):
            self._flush()
            self.feed(raw.decode("utf-8", "replace").rstrip("\r"), lineno, order)
            return
        # the key with bytes methods (several times cheaper than a regex on every line of a tqdm-heavy log)
        i = raw.find(b"%")
        j = raw.find(b"/", i)
        k = raw.find(b"[", j)
        if i < 0 or j < 0 or k < 0:
            return                  # no "a/b [" after the percentage: not an update (NOT_UPDATE)
        key = bytes(raw[:i].rstrip(b"0123456789 ")) + b"\x00" + bytes(raw[j:k])   # raw may be a bytearray
        self._pending.pop(key, None)            # re-insert: the dict keeps the order of last updates
        self._pending[key] = (raw, lineno, order)
        if len(self._pending) > MAX_BARS:
            self._flush()

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        for raw, lineno, order in pending.values():
            self.feed(raw.decode("utf-8", "replace").rstrip("\r"), lineno, order)

    def feed(self, raw: str, lineno: int, order: int = 0) -> None:
        for desc, pct, done, total, seg in _updates(raw):
            key = (desc, total)
            if key not in self._bars and len(self._bars) >= MAX_BARS:
                continue
            self._bars[key] = (pct, done, lineno, seg, order)       # the text is made from seg when it stalls
            self._last_key = key

    def finish(self, source: str, last_line: int) -> list[Stall]:
        """The stalls of the input that just ended (``last_line``: its number of lines); resets."""
        self._flush()
        out = []
        for key, (pct, done, line, seg, order) in self._bars.items():
            desc, total = key
            if done >= total or pct >= 100:
                continue
            out.append(Stall(desc, pct, done, total, source, line, shown(seg),
                             last_in_input=key == self._last_key and line >= last_line, order=order))
        out.sort(key=lambda s: s.line)
        self._bars.clear()
        self._last_key = None
        return out


class BarLines:
    """The lines of a block the stall tracker must see, given the offsets of the progress literals in it.

    Only the last update of each bar matters, and a progress-heavy block holds many updates of a few
    bars (one per rank, say). Going back from the last literal, each line that is not an update of a
    bar already found gives a new bar: its prefix ``P`` (the text before the percentage) and total
    ``T``. One regex then counts in C the lines ``P NN% ... d/T [`` of all those bars in the block. When
    the count equals the number of literals, every literal sits on a line of one of those bars (one
    each: the lines of two bars are disjoint), and the lines handed on are the last of each bar (same
    text before the percentage and same total give the same description and total). Otherwise every
    line holding a literal is handed on (the tracker keeps the last of each bar).
    """

    MAX_BARS = 64           # bars looked for in one block ...
    MAX_WALK = 4096         # ... among this many literals from its end, before every line is handed on

    def __init__(self) -> None:
        self._one: dict[tuple, tuple[bytes, re.Pattern[bytes], re.Pattern[bytes]]] = {}
        self._all: dict[tuple, tuple[re.Pattern[bytes], re.Pattern[bytes]]] = {}

    def starts(self, buf: bytearray, end: int, bars: list[int]) -> list[int]:
        """Line starts to hand on; ``bars``: offsets of the progress literals in ``buf[:end]``, sorted."""
        first = buf.rfind(b"\n", 0, bars[0]) + 1
        cr = buf.find(b"\r", first, end) >= 0      # without any CR in the block, the check for one can go
        found: dict[tuple, int] = {}                 # bar key -> start of its last line
        members: list[re.Pattern[bytes]] = []
        whole: set[int] = set()                      # lines of CR-separated updates: handed on whole
        counted = 0
        if cr:
            for m in CR_LINE.finditer(buf, first, end):
                n = buf.count(b"%|", m.start(), m.end()) + buf.count(b"% Completed", m.start(), m.end())
                if n:
                    whole.add(m.start())
                    counted += n
        i = len(bars) - 1
        stop = max(-1, i - self.MAX_WALK)
        not_updates = False
        check = 1               # the count is checked when 1, 2, 4 and 8 bars are found: a block of a few bars
                                # stops its walk there
        while i > stop and len(found) < self.MAX_BARS:
            ls = buf.rfind(b"\n", 0, bars[i]) + 1
            i -= 1
            if ls in whole or any(rx.match(buf, ls, end) for rx in members):
                continue            # an earlier update of a bar already found
            if NOT_UPDATE.match(buf, ls - 1 if ls else 0, end) if ls else _NOT_UPDATE_FIRST.match(buf, 0, end):
                not_updates = True  # the tracker ignores it: nothing to hand on
                continue
            key = self._key(buf, ls, end, bars[i + 1])
            if key is None:
                break
            _body, member, member_cr = self._one[key]
            found[key] = ls
            members.append(member_cr if cr else member)
            if len(found) == check and check <= 8:
                check *= 2
                if self._counted(buf, first, end, found, cr, counted, not_updates) == len(bars):
                    return sorted([*found.values(), *whole])
        if (found or whole) and self._counted(buf, first, end, found, cr, counted, not_updates) == len(bars):
            return sorted([*found.values(), *whole])
        out = []
        le = -1
        for pos in bars:
            if pos < le:
                continue
            ls = buf.rfind(b"\n", 0, pos) + 1
            le = buf.find(b"\n", pos, end)
            if le < 0:
                le = end
            out.append(ls)
        return out

    def _counted(self, buf: bytearray, first: int, end: int, found: dict, cr: bool, counted: int,
                 not_updates: bool) -> int:
        """Progress literals in ``buf[first:end]`` that sit on a line of a bar of ``found``, on a CR line
        (``counted`` of them) or, when ``not_updates``, on a line that is not an update."""
        n = counted
        if found:
            lines, first_line = self._count_regex(tuple(sorted(found)), cr)
            n += len(lines.findall(buf, max(0, first - 1), end))
            if first == 0 and first_line.match(buf, 0, end):
                n += 1
        if not_updates:
            n += len(NOT_UPDATE.findall(buf, max(0, first - 1), end))
            if first == 0 and _NOT_UPDATE_FIRST.match(buf, 0, end):
                n += 1
        return n

    def _key(self, buf: bytearray, ls: int, end: int, pos: int) -> tuple | None:
        """The bar whose progress literal is at ``pos`` (line starting at ``ls``), its regexes made and
        kept in ``_one``; None when the line is not a plain update of one bar."""
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
        if key not in self._one:
            if len(self._one) > 256:
                self._one.clear()
                self._all.clear()
            body = (re.escape(prefix) + (b" +" if key[1] else b"") + rb"\d{1,3}"
                    + (rb"%\|[^|\r\n\x1b]{0,400}\|" if key[3] else rb"% Completed *\|")
                    + rb" *\d+/" + str(key[2]).encode() + rb" *\[")
            self._one[key] = (body, re.compile(body), re.compile(body + _NO_CR))
        return key

    def _count_regex(self, keys: tuple, cr: bool) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
        """(after a newline, at the start of the block) the lines of any of these bars."""
        rx = self._all.get((keys, cr))
        if rx is None:
            if len(self._all) > 256:
                self._all.clear()
            body = b"(?:" + b"|".join(self._one[k][0] for k in keys) + b")" + (_NO_CR if cr else b"")
            rx = self._all[(keys, cr)] = (re.compile(b"\n" + body), re.compile(body))
        return rx


_NOT_UPDATE_FIRST = re.compile(NOT_UPDATE.pattern[2:])
#: a line holding a CR that is not part of its line ending (StallTracker.note feeds such a line whole)
CR_LINE = re.compile(rb"(?m)^[^\n]*\r[^\r\n][^\n]*")
#: the rest of a bar's line holds no CR (a line of CR updates is fed whole)
_NO_CR = rb"[^\r\n]*\r?(?=\n|\Z)"
