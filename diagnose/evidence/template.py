"""A kept line's verdict for every line of its shape, the line's digits filled in.

Serving logs repeat the same kept line with another time (vLLM's ``INFO 08-20 10:00:12 [platform.py:174]
... use_inductor not supported ...`` at every start), and CANN writes many plog lines whose digits reach their cleaned text: a thread id after the source file
(``[op_desc.cc:914]73093 GetAttr: ... of op Add_5 is empty``), an operator's number. Each such line is
its own kept line, yet every line of the shape is cleaned the same way: cleaning and the dedupe key are
digit-uniform (uniform.py) rewritings, so a digit of the cleaned text is always a digit of the line,
copied from the same place. A Template finds those places once, from two lines of the shape made with
every digit numbered (the k-th digit written k % 10, then k // 10 % 10), and then gives the cleaned
text and the dedupe key of any line of the shape from its digits alone.

It is made only when nothing else of the verdict can depend on the digits: the shape holds no trigger
with a digit (memo.py checks), no code can be on it, its signature regexes are digit-uniform, no rank
is read on it, no ``0x`` (the dedupe key's hexadecimal rule is the only one with a literal digit), no
"0 errors" wording can appear in its cleaned text, its time sits where a Clock (clock.py) says, and the numbered
lines get the same kinds, signatures and error-word hits.
"""
from __future__ import annotations

import re
from typing import Callable

from . import clean as cl
from . import codes as codes_mod
from .clock import Clock
from .verdict import MAX_KEEP, Verdict

#: verdict.BENIGN_ERROR with its literal digits as classes (for cleaned shapes)
BENIGN_ANY = re.compile(r"\b\d errors?\b|error_?count[=:]\s*\d\b|errors?:\s*\d\b|no errors?", re.I)
ZERO_X = re.compile(rb"0[xX]")
MAX_DIGITS = 100            # digits of a line a template can number (two numbered lines)


class Template:
    """``v``: the verdict of the first line (its kinds, signatures, error-word hits); ``cleaned(d)`` and
    ``key(d)``: the cleaned text and dedupe key of a line of the shape whose digits are ``d`` (str); the key
    is made of the digits from the ``lo``-th on (a header's digits, the time's among them, never reach
    it); ``clock``: where the time of a line of the shape sits among its digits; ``keys``: the keys made so
    far, by the digits they are made of (bulk.py remembers them there)."""
    __slots__ = ("v", "cleaned", "key", "lo", "clock", "keys")

    def __init__(self, v: Verdict, cleaned: Callable[[str], str], key: Callable[[str], str], lo: int, clock: Clock):
        self.v, self.cleaned, self.key, self.lo, self.clock = v, cleaned, key, lo, clock
        self.keys: dict[bytes, str] = {}

    def verdict(self, d: str, key: str | None = None) -> Verdict:
        """The verdict of the line whose digits are ``d`` (``key``: its dedupe key, when known)."""
        v = self.v
        return Verdict(v.gh, v.notes, v.kinds, v.codes, v.sigs, self.cleaned(d), self.key(d) if key is None else key)


def make(line: bytes, shape: bytes, clock: Clock, classify: Callable[[bytes], Verdict],
         uniform_sigs: Callable[[bytes], bool]) -> Template | None:
    """The template of ``line``'s shape (its time where ``clock`` says, from its digits), or None.
    ``classify(line)``: its verdict; ``uniform_sigs(line)``: its signature regexes are digit-uniform."""
    if len(line) > MAX_KEEP or ZERO_X.search(shape):
        return None
    v = classify(line)
    if not v.kinds or v.notes or v.codes or not uniform_sigs(line):
        return None
    text = line.decode("utf-8", "replace").rstrip("\r")
    stext = shape.decode("utf-8", "replace").rstrip("\r")
    if codes_mod.possible(stext) or cl.RANK_IN.search(text[:120]) or BENIGN_ANY.search(cl.clean(stext)):
        return None
    at = [i for i, c in enumerate(line) if 48 <= c <= 57]
    digits = bytes(line[i] for i in at)
    if len(at) > MAX_DIGITS or cl.line_time(text) != clock.text(digits):
        return None
    numbered = []
    for place in (1, 10):
        b = bytearray(line)
        for k, i in enumerate(at):
            b[i] = 48 + k // place % 10
        n = classify(bytes(b))
        if (n.gh, n.notes, n.kinds, n.codes, n.sigs) != (v.gh, v.notes, v.kinds, v.codes, v.sigs):
            return None
        numbered.append(n)
    d = digits.decode("ascii")
    fills = []
    for attr in ("cleaned", "key"):
        fill = _fill(getattr(v, attr), getattr(numbered[0], attr), getattr(numbered[1], attr), d)
        if fill is None:
            return None
        fills.append(fill)
    return Template(v, fills[0][0], fills[1][0], fills[1][1], clock)


def _fill(out: str, ones: str, tens: str, d: str) -> tuple[Callable[[str], str], int] | None:
    """The function of a line's digits that gives ``out`` (the text made from the line whose digits are
    ``d``), found from ``ones`` and ``tens`` (the same text made from the numbered lines), and the first
    digit it takes (``len(d)``: none)."""
    if not len(out) == len(ones) == len(tens):
        return None
    pieces: list = []           # str (a constant) or [first digit, after the last digit]
    for p, c in enumerate(out):
        if ones[p].isdigit() and ones[p].isascii():
            if not (tens[p].isdigit() and tens[p].isascii()):
                return None
            k = int(tens[p]) * 10 + int(ones[p])
            if k >= len(d) or d[k] != c:
                return None
            if pieces and isinstance(pieces[-1], list) and pieces[-1][1] == k:
                pieces[-1][1] = k + 1
            else:
                pieces.append([k, k + 1])
        else:
            if ones[p] != c or tens[p] != c:
                return None
            if pieces and isinstance(pieces[-1], str):
                pieces[-1] += c
            else:
                pieces.append(c)
    consts = tuple(p for p in pieces if isinstance(p, str))
    expr, n = [], 0
    for p in pieces:
        if isinstance(p, str):
            expr.append(f"c[{n}]")
            n += 1
        else:
            expr.append(f"d[{p[0]}:{p[1]}]")
    fill = eval(f"lambda d, c=c: {' + '.join(expr) or repr('')}", {"c": consts})
    if fill(d) != out or fill("".join(str(k % 10) for k in range(len(d)))) != ones:
        return None
    return fill, min([p[0] for p in pieces if not isinstance(p, str)], default=len(d))
