"""Where a line's time sits among its digits, the same for every line of a shape.

``clean.line_time`` finds a line's time in its first 120 characters: a plog time
(``2025-08-20-10:00:00.123.456``), else an ISO one (``2025-08-20 10:00:00,123``), else a vLLM one
(``08-20 10:00:00``). On a shape (uniform.py: every digit written 0) the places of those digits are
fixed, so a Clock found once from the shape gives the time of any line of it from the line's digits
alone. It is found only when that is sure: the kind of time line_time would take is the only candidate
in the head (one plog-looking time, or no plog time and one ISO time, or neither and a vLLM time, whose
pattern has no literal digit). A line whose digits make that time invalid (a month 13, a year 2125)
gets None: it is read on its own, as line_time would look further along it.
"""
from __future__ import annotations

import re
from operator import itemgetter

HEAD = 120                  # characters of a line where clean.line_time looks for its time
PLOG_ANY = re.compile(r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3}")
ISO_ANY = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,](\d{1,6}))?")
MD_ANY = re.compile(r"(?<![\d-])\d\d-\d\d \d\d:\d\d:\d\d(?:[.,](\d{1,6}))?")
MAX_VALID = 10000           # validity answers remembered (a time's date and hour -> valid), for every clock
_VALID: dict[bytes, bool] = {}   # keys of 10 digits (with a year) and of 6 (without) never meet


class Clock:
    """The time of a line of one shape from its digits: they start at the ``ts``-th digit, with a year
    (``year``: its 4 digits first, which must start 19 or 20) or not, then month, day, hour, minute,
    second and ``frac`` digits of the second (0-6)."""
    __slots__ = ("ts", "year", "frac", "_n", "pad", "head", "time")

    def __init__(self, ts: int, year: bool, frac: int):
        self.ts, self.year, self.frac = ts, year, frac
        self._n = (4 if year else 0) + 10 + frac
        self.pad = b"0" * (6 - frac)      # the fraction padded to 6 digits
        #: the slices of a line's digits that hold its date and hour (checked, see ``valid``) and its time
        #: from the month on (``at`` without the padding of the fraction)
        self.head = slice(ts, ts + (10 if year else 6))
        self.time = slice(ts + (4 if year else 0), ts + self._n)

    def at(self, digits: bytes) -> bytes | None:
        """``MMDDhhmmssffffff`` (16 digits, the fraction padded with 0) of the line whose digits are
        ``digits``, or None when its time is not a valid one."""
        return digits[self.time] + self.pad if self.valid(digits[self.head]) else None

    def valid(self, head: bytes) -> bool:
        """Whether the date and hour digits ``head`` (``digits[self.head]``) make a valid time."""
        ok = _VALID.get(head)
        return self._check(head) if ok is None else ok

    def _check(self, head: bytes) -> bool:
        """Whether the date and hour digits ``head`` (10 with the year, 6 without) make a valid time; remembered."""
        return _remember(head, head[:2] in (b"19", b"20") and _valid_mdh(head[4:10]) if self.year else _valid_mdh(head))

    def all_valid(self, ds: "list[bytes]") -> bool:
        """Whether ``at`` finds a valid time in every one of the digit strings ``ds`` (each distinct date and
        hour checked once)."""
        return all(map(self.valid, set(map(itemgetter(self.head), ds))))

    def times(self, ds: "list[bytes]") -> "list[bytes]":
        """``at`` of each of the digit strings ``ds``, all valid (``all_valid``), without a call per line."""
        got = list(map(itemgetter(self.time), ds))
        return [t + self.pad for t in got] if self.pad else got

    def text(self, digits: bytes) -> str | None:
        """What clean.line_time gives the line whose digits are ``digits`` (``MM-DD hh:mm:ss.ffffff``), or
        None when its time is not a valid one."""
        t = self.at(digits)
        return None if t is None else time_text(t)



_TEXT: dict[bytes, str] = {}   # month to second digits -> "MM-DD HH:MM:SS."


def time_text(t: bytes) -> str:
    """What clean.line_time gives a line whose time ``at`` reads as ``t`` (MMDDhhmmssffffff)."""
    head = _TEXT.get(t[:10])
    if head is None:
        if len(_TEXT) >= MAX_VALID:
            _TEXT.clear()
        c = t[:10].decode("ascii")
        head = _TEXT[t[:10]] = f"{c[:2]}-{c[2:4]} {c[4:6]}:{c[6:8]}:{c[8:10]}."
    return head + t[10:].decode("ascii")


def _remember(key: bytes, ok: bool) -> bool:
    if len(_VALID) >= MAX_VALID:
        _VALID.clear()
    _VALID[key] = ok
    return ok


def _valid_mdh(t: bytes) -> bool:
    """Month, day and hour digits as clean.line_time accepts them."""
    return b"01" <= t[:2] <= b"12" and b"01" <= t[2:4] <= b"31" and t[4:6] <= b"23"


def plog(ts: int) -> Clock:
    """The clock of a plog header's time whose digits start at the ``ts``-th digit of the line."""
    return Clock(ts, True, 6)


def find(shape_text: str) -> Clock | None:
    """The clock of the lines of shape ``shape_text`` (decoded), or None when line_time's choice of time
    could depend on the digits, the head is not ASCII, or the line has no time."""
    head = shape_text[:HEAD]
    if not head.isascii():
        return None             # line_time counts characters, the digits bytes
    plog_times = list(PLOG_ANY.finditer(head))
    if plog_times:
        if len(plog_times) > 1:
            return None
        return plog(head.count("0", 0, plog_times[0].start()))
    iso = list(ISO_ANY.finditer(head))
    if iso:
        if len(iso) > 1:
            return None
        return Clock(head.count("0", 0, iso[0].start()), True, len(iso[0].group(1) or ""))
    m = MD_ANY.search(head)
    if m:
        return Clock(head.count("0", 0, m.start()), False, len(m.group(1) or ""))
    return None
