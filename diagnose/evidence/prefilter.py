"""One pass over a block finds every trigger literal and the lines that hold one.

All trigger literals (KB signature literals, error words, code markers, CANN cause headers, progress
bars, and the three-byte prefixes of CANN / torch_npu codes) go into one Aho-Corasick automaton
(``ahocorasick_rs``, a binding of the Rust ``aho-corasick`` crate; a contiguous NFA, quick to build, and a
DFA in its place once it has searched ``DFA_AFTER`` bytes). A block is searched once with overlapping
matches, so every occurrence of every trigger is reported, including a short one inside a longer one
(``rror`` inside ``error code is 561003``). The answer is exact: a line is reported with exactly the
triggers that occur in it.

The block may be a ``bytearray`` searched only up to ``end`` (the reader fills reusable buffers):
nothing is copied, the automaton reads the buffer through a ``memoryview`` and releases the GIL while
it runs (the reader runs :meth:`Prefilter.matches` in a helper thread; the scanner groups the answer
into lines with :meth:`Prefilter.lines_apart`).
"""
from __future__ import annotations

from typing import Iterable, Union

import ahocorasick_rs

Buffer = Union[bytes, bytearray]


#: bytes searched with the quick-to-build automaton before the DFA is built: the DFA searches about a quarter
#: faster but takes ~0.05 s to build for the knowledge's ~1,200 triggers (the NFA ~0.006 s), and the fast path
#: searches only the first line of each new line shape (a small log, or one of few shapes, never repays it)
DFA_AFTER = 4 << 20


class Prefilter:
    def __init__(self, triggers: Iterable[bytes]):
        self.triggers: list[bytes] = list(dict.fromkeys(t for t in triggers if t))
        self._ac = (ahocorasick_rs.BytesAhoCorasick(self.triggers,
                                                    implementation=ahocorasick_rs.Implementation.ContiguousNFA)
                    if self.triggers else None)
        self._until_dfa = DFA_AFTER     # bytes left before the DFA replaces it (both give the same answers)

    def matches(self, block: Buffer, end: int | None = None) -> list[tuple[int, int, int]]:
        """Every (trigger index, start, end) in ``block[:end]``, overlapping ones included. The
        automaton runs without the GIL, so another thread can call this while Python works on."""
        if self._ac is None:
            return []
        return self._matches(block, end)

    def _matches(self, block: Buffer, end: int | None) -> list[tuple[int, int, int]]:
        assert self._ac is not None
        if self._until_dfa > 0:
            self._until_dfa -= len(block) if end is None else min(end, len(block))
            if self._until_dfa <= 0:
                self._ac = ahocorasick_rs.BytesAhoCorasick(self.triggers, implementation=ahocorasick_rs.Implementation.DFA)
        if end is None or end >= len(block):
            return self._ac.find_matches_as_indexes(block, overlapping=True)
        with memoryview(block) as mv, mv[:end] as hay:
            return self._ac.find_matches_as_indexes(hay, overlapping=True)

    def lines_apart(self, block: Buffer, end: int | None, apart: frozenset[int],
                    matches: list[tuple[int, int, int]] | None = None, drop: frozenset[int] = frozenset()
                    ) -> tuple[dict[int, set[bytes]], list[int]]:
        """Start offset of each line of ``block[:end]`` that holds a trigger -> the triggers it holds (a line
        is the span between two newlines; a trigger belongs to the line where it starts), except the
        triggers whose index is in ``apart``: their start offsets come back as a sorted list (the caller
        deals with them per block).

        ``matches``: the answer of :meth:`matches` for the same block when already known; the
        triggers whose index is in ``drop`` are then left out (as if they were not in the automaton)."""
        if self._ac is None:
            return {}, []
        if end is None or end > len(block):
            end = len(block)
        if matches is None:
            matches = self._matches(block, end)
        if drop:
            matches = [m for m in matches if m[0] not in drop]
        aside = [s for i, s, _e in matches if i in apart]
        if aside:
            matches = [m for m in matches if m[0] not in apart]
            aside.sort()
        return self._group(block, end, matches), aside

    def _group(self, block: Buffer, end: int, matches: list[tuple[int, int, int]]) -> dict[int, set[bytes]]:
        out: dict[int, set[bytes]] = {}
        trig = self.triggers
        ls, le = 0, -1          # the current line: block[ls:le] (le is its newline or the end)
        for i, pos, _end in matches:
            if not ls <= pos < le:
                ls = block.rfind(b"\n", 0, pos) + 1
                le = block.find(b"\n", pos, end)
                if le < 0:
                    le = end
            hit = out.get(ls)
            if hit is None:
                out[ls] = {trig[i]}
            else:
                hit.add(trig[i])
        return out
