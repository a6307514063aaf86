"""Verdicts remembered by the shape of their line, for lines that end in nothing.

Most lines that hold a trigger keep nothing (``Defaulting to ...``, a benign plog line once the error
words are off) and repeat with other numbers in them. A line whose verdict is "nothing" is remembered
by its shape (uniform.py: its digits written 0) when every signal that could tell its digits apart
provably cannot:

- the triggers: no trigger holding a digit can sit on a line of this shape (so every line of the shape
  holds the same triggers);
- the signature regexes of its signature triggers are digit-uniform (a broken one never matches);
- an error word: ``cannot_be_error`` holds (digit-uniform);
- no line of the shape can hold a code (``codes.possible``);
- no cause header, no progress bar (those keep something), and the line fits in MAX_KEEP bytes (so no
  window of a long line depends on where its digits are).

Then every line of that shape gets the same verdict, and the scanner counts it without reading it.
"""
from __future__ import annotations

from typing import Iterable

import ahocorasick_rs

from . import codes as codes_mod
from .model import SIGNATURE
from .uniform import shape, uniform
from .verdict import ERROR, MAX_KEEP, Classifier, Verdict, cannot_be_error

MAX_SHAPES = 100000         # shapes remembered; then the memory is emptied and filled again

_UNSURE = Verdict()         # marks a shape whose lines must each be read


class ShapeMemo:
    """Shape of a line -> its verdict, for the shapes whose lines all end in nothing (see the module doc);
    made for one automaton (``triggers``: the literals it finds)."""

    def __init__(self, classifier: Classifier, triggers: Iterable[bytes]):
        self._cl = classifier
        self._verdicts: dict[bytes, Verdict] = {}
        digits = sorted({shape(t) for t in triggers if any(48 <= c <= 57 for c in t)})
        self._digit_triggers = ahocorasick_rs.BytesAhoCorasick(digits) if digits else None
        self._uniform: dict[str, bool] = {}

    def get(self, key: bytes) -> Verdict | None:
        """The verdict of every line whose shape is ``key``, or None."""
        v = self._verdicts.get(key)
        return None if v is _UNSURE else v

    def learn(self, raw_b: bytes, key: bytes, trigs: set[bytes], v: Verdict) -> None:
        """Remember ``v``, the verdict of ``raw_b`` (whose shape is ``key`` and triggers ``trigs``), for
        every line of that shape when it provably holds for all of them."""
        if len(self._verdicts) >= MAX_SHAPES:
            self._verdicts.clear()
        self._verdicts[key] = v if self._holds_for_shape(raw_b, key, trigs, v) else _UNSURE

    def _holds_for_shape(self, raw_b: bytes, key: bytes, trigs: set[bytes], v: Verdict) -> bool:
        if v.kinds or v.notes or len(raw_b) > MAX_KEEP:
            return False
        if self._digit_triggers is not None and self._digit_triggers.find_matches_as_indexes(key):
            return False
        kind_of = self._cl.kind_of
        for t in trigs:
            kind = kind_of.get(t)
            if kind == SIGNATURE:
                if not all(self._uniform_regex(sp) for sp in self._cl.by_literal[t]):
                    return False
            elif kind == ERROR:
                if not cannot_be_error(raw_b):
                    return False
        return not codes_mod.possible(key.decode("utf-8", "replace"))

    def _uniform_regex(self, sp) -> bool:
        ok = self._uniform.get(sp.id)
        if ok is None:
            rx = sp.regex
            ok = self._uniform[sp.id] = rx is None or uniform(rx)
        return ok
