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

A progress-heavy log holds thousands of updates of the same few bars: ``StallTracker.note`` keeps only
the last update of each bar (a line, or a carriage-return segment) until the tracker reads them (and the
fast path of the scan hands on only the last update of each bar in a part of a block, bulk.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from . import clean as cl

#: literals that every recognised progress line holds (prefilter triggers)
PROGRESS_TRIGGERS = (b"%|", b"% Completed")

BAR = re.compile(
    r"(?P<pct>\d{1,3})%\s*(?:Completed\s*)?\|(?:[^|\r\n]{0,400}\|)?\s*(?P<done>\d+)/(?P<total>\d+)\s*\[")
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
        pct, done, total = m.group("pct", "done", "total")
        total = int(total)
        if total <= 0:
            continue
        before = seg[:m.start()]
        desc = _DESCS.get(before)
        if desc is None:
            if len(_DESCS) > 10000:
                _DESCS.clear()
            desc = _DESCS[before] = DESC_TAIL.sub("", cl.strip_prefixes(before.strip())).strip()
        out.append((desc, int(pct), int(done), total, seg))
    return out


def shown(seg: str) -> str:
    """The text of an update as shown: its segment without rank prefix and log header."""
    return cl.strip_prefixes(seg)[:300]


def _bar_key(raw: bytes) -> bytes | None:
    """Which bar a progress line updates, with bytes methods (several times cheaper than a regex on every
    line of a tqdm-heavy log): the text before its percentage and its "/total [" part; None when there is
    no "a/b [" after a percentage (a line that quotes a percentage is no update)."""
    parts = _bar_parts(raw)
    return None if parts is None else parts[0] + b"\x00" + parts[1]


def _bar_parts(raw: bytes) -> tuple[bytes, bytes] | None:
    """(the text before the percentage's digits, the "/total " part up to "[") of a progress update."""
    i = raw.find(b"%")
    j = raw.find(b"/", i)
    k = raw.find(b"[", j)
    if i < 0 or j < 0 or k < 0:
        return None
    return raw[:i].rstrip(b"0123456789 "), raw[j:k]


def _capture_pattern(pre: bytes, tail: bytes) -> "re.Pattern[bytes]":
    """A capture all of whose carriage-return segments update the bar (pre, tail): each segment is the bar's text,
    digits, its first '%', no '/' before the same "/total " and its first '[' (what _bar_parts reads)."""
    seg = re.escape(pre) + rb"[0-9 ]*%[^\r/]*" + re.escape(tail) + rb"\[[^\r]*"
    return re.compile(seg + rb"(?:\r" + seg + rb")*")


class StallTracker:
    """Follows progress bars through one input after another; ``finish()`` reports the stalls."""

    def __init__(self) -> None:
        self._bars: dict[tuple[str, int], tuple[int, int, int, str, int]] = {}   # key -> pct, done, line, segment, order
        self._last_key: tuple[str, int] | None = None
        # plain progress lines waiting to be parsed: only the last line of each bar matters, so a line
        # replaces the previous one of the same bar (told apart by its raw prefix and total)
        self._pending: dict[bytes, tuple[bytes, int, int]] = {}
        # a bar's (text, total) -> the pattern of a capture of only its updates (False: met once so far)
        self._captures: dict[tuple[bytes, bytes], "re.Pattern[bytes] | bool"] = {}

    def note(self, raw: bytes, lineno: int, order: int = 0) -> None:
        """A progress line as read (bytes): cheap; parsed when the input ends (or in batches). Each
        carriage-return segment of a capture is an update of its own, at the capture's line: of thousands
        only the last of each bar is ever parsed."""
        raw = bytes(raw)
        body = raw.rstrip(b"\r")
        pending = self._pending
        if not (b"\r" in body and self._one_bar(body, lineno, order)):
            for seg in (body.split(b"\r") if b"\r" in body else (raw,)):
                key = _bar_key(seg)
                if key is None:
                    continue        # no "a/b [" after the percentage: not an update (it quotes a percentage)
                pending.pop(key, None)          # re-insert: the dict keeps the order of last updates
                pending[key] = (seg, lineno, order)
        if len(pending) > MAX_BARS:
            self._flush()

    def _one_bar(self, body: bytes, lineno: int, order: int) -> bool:
        """A capture whose updates are all of one bar (what tqdm writes to a terminal) is noted by its last update
        alone, its segments checked by one match of that bar's pattern (the per-segment loop is the most of a
        progress-heavy log's reading). False, with nothing noted, when they are not all that bar's updates, or
        when the bar is new (its pattern is made the second time: a log of one-off captures pays no compiling)."""
        last = body[body.rfind(b"\r") + 1:]
        parts = _bar_parts(last)
        if parts is None:
            return False
        pattern = self._pattern(parts)
        if pattern is None or pattern.fullmatch(body) is None:
            return False
        key = parts[0] + b"\x00" + parts[1]
        self._pending.pop(key, None)            # re-insert: the dict keeps the order of last updates
        self._pending[key] = (last, lineno, order)
        return True

    def one_bar(self, body: bytes) -> bool:
        """Whether every carriage-return segment of ``body`` is an update of the bar of its last segment (then
        noting ``body``, or only its last segment, leaves the same last update of every bar); nothing is noted."""
        parts = _bar_parts(body[body.rfind(b"\r") + 1:])
        return parts is not None and self._pattern(parts, now=True).fullmatch(body) is not None

    def _pattern(self, parts: tuple[bytes, bytes], now: bool = False) -> "re.Pattern[bytes] | None":
        """The pattern of a capture of only bar ``parts``'s updates, made the second time the bar is met (None the
        first time: a log of one-off captures pays no compiling), or at once when ``now``."""
        seen = self._captures
        pattern = seen.get(parts)
        if pattern:
            return pattern
        if pattern is None:
            if len(seen) > MAX_BARS:
                seen.clear()
            if not now:
                seen[parts] = False            # seen once
                return None
        pattern = seen[parts] = _capture_pattern(*parts)
        return pattern

    def _flush(self) -> None:
        pending, self._pending = self._pending, {}
        for raw, lineno, order in pending.values():
            self.feed(raw.decode("utf-8", "replace").rstrip("\r"), lineno, order)

    def feed(self, raw: str, lineno: int, order: int = 0) -> None:
        self._keep(_updates(raw), lineno, order)

    def _keep(self, updates, lineno: int, order: int) -> None:
        for desc, pct, done, total, seg in updates:
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
