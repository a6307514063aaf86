"""One fast pass deciding which trigger literals occur in a block of bytes.

Python cannot run Aho-Corasick at C speed, but ``bytes.translate`` can delete bytes at C speed.
The prefilter learns which byte values are rare in the input (from the first block), keeps only
those (a block shrinks to a few percent of its size) and looks for each trigger's projection
onto the rare bytes in that small remainder: a trigger whose projection is absent cannot occur in
the block. Only the few triggers that pass are confirmed with ``bytes.find`` on the block.
Triggers with too few rare bytes are searched directly. The answer is always exact: the
projection test can only say "maybe", and every "maybe" is confirmed.
"""
from __future__ import annotations

from collections import Counter

#: share of the sampled bytes the rare set may cover
RARE_SHARE = 0.08
MIN_PROJECTION = 2


class Prefilter:
    def __init__(self, triggers: list[bytes]):
        self.triggers = list(dict.fromkeys(t for t in triggers if t))
        self._trained = False
        self._delete = b""
        self._groups: dict[bytes, list[bytes]] = {}   # projection -> triggers
        self._direct: list[bytes] = list(self.triggers)
        self._children: dict[bytes, list[bytes]] = {}

    def train(self, sample: bytes) -> None:
        """Choose the rare byte set from a sample of the input (the first block)."""
        self._trained = True
        if not self.triggers:
            return
        counts = Counter(sample[:1 << 20])
        total = max(1, sum(counts.values()))
        used = set(b"".join(self.triggers))
        # bytes the triggers use, rarest first; bytes absent from the sample cost nothing
        order = sorted(used, key=lambda b: (counts.get(b, 0), b))
        rare: set[int] = set()
        share = 0.0
        for b in order:
            f = counts.get(b, 0) / total
            if share + f > RARE_SHARE:
                break
            rare.add(b)
            share += f
        rare.discard(10)
        self._delete = bytes(b for b in range(256) if b not in rare)
        groups: dict[bytes, list[bytes]] = {}
        direct = []
        for t in self.triggers:
            proj = bytes(c for c in t if c in rare)
            if len(proj) >= MIN_PROJECTION:
                groups.setdefault(proj, []).append(t)
            else:
                direct.append(t)
        self._groups = groups
        # a direct trigger that contains another direct trigger is only searched when that one is present:
        # in a block without "rror", "error code is 561003" cannot occur either
        direct.sort(key=len)
        parents: list[bytes] = []
        children: dict[bytes, list[bytes]] = {}
        for t in direct:
            parent = next((q for q in parents if q in t), None)
            if parent is None:
                parents.append(t)
            else:
                children.setdefault(parent, []).append(t)
        self._direct, self._children = parents, children

    def present(self, block: bytes) -> list[bytes]:
        if not self._trained:
            self.train(block)
        found = []
        for t in self._direct:
            if t in block:
                found.append(t)
                found.extend(c for c in self._children.get(t, ()) if c in block)
        if self._groups:
            small = block.translate(None, self._delete)
            for proj, trigs in self._groups.items():
                if proj in small:
                    found.extend(t for t in trigs if t in block)
        return found

    def stats(self) -> dict[str, int]:
        return {"triggers": len(self.triggers), "projected": sum(len(v) for v in self._groups.values()),
                "direct": len(self._direct), "nested": sum(len(v) for v in self._children.values()), "rare_bytes": 256 - len(self._delete)}
