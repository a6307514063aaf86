"""Node sets as people and cluster tools write them: ``node[001-064]``, ``node[001-016,018-064],gpu[1-2]``.

``expand("node[001-003]")`` -> ``["node001", "node002", "node003"]`` (zero padding kept);
``fold(["node001", "node002", "node003", "node007"])`` -> ``"node[001-003,007]"``. Both follow the
ClusterShell / Slurm hostlist notation, so ``--expect-nodes "$(scontrol show hostnames ...)"`` and
``--expect-nodes 'node[001-064]'`` both work.
"""
from __future__ import annotations

import re
from itertools import product

MAX_NODES = 100_000
_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


class NodeSetError(ValueError):
    """A node set that cannot be read (with the reason)."""


def _split_top(text: str) -> list[str]:
    """Split on commas outside brackets."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise NodeSetError(f"unbalanced ']' in {text!r}")
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if depth:
        raise NodeSetError(f"unbalanced '[' in {text!r}")
    out.append("".join(cur))
    return [p.strip() for p in out if p.strip()]


def _numbers(spec: str, whole: str) -> list[str]:
    out: list[str] = []
    for part in spec.split(","):
        m = _RANGE.match(part.strip())
        if not m:
            raise NodeSetError(f"bad range {part!r} in {whole!r} (write node[001-064] or node[1,3,5-7])")
        a, b = m.group(1), m.group(2) or m.group(1)
        lo, hi = int(a), int(b)
        if hi < lo:
            raise NodeSetError(f"range {part!r} in {whole!r} goes down")
        if hi - lo >= MAX_NODES:
            raise NodeSetError(f"range {part!r} in {whole!r} is larger than {MAX_NODES} nodes")
        width = len(a) if a.startswith("0") and len(a) > 1 else 0
        out += [str(n).zfill(width) for n in range(lo, hi + 1)]
    return out


def expand(text: str) -> list[str]:
    """The node names of a node set, in order, without duplicates."""
    names: list[str] = []
    for item in _split_top(text or ""):
        pieces = re.split(r"(\[[^\]]*\])", item)
        choices = [_numbers(p[1:-1], item) if p.startswith("[") else [p] for p in pieces if p != ""]
        count = 1
        for c in choices:
            count *= len(c)
        if count + len(names) > MAX_NODES:
            raise NodeSetError(f"{text!r} names more than {MAX_NODES} nodes")
        names += ["".join(t) for t in product(*choices)]
        if any(not re.fullmatch(r"[A-Za-z0-9._-]+", n) for n in names[-count:]):
            raise NodeSetError(f"{item!r}: node names are letters, digits, '.', '_' and '-'")
    return list(dict.fromkeys(names))


_TAIL = re.compile(r"^(.*?)(\d+)(\D*)$")


def _ranges(numbers: list[int], width: int) -> str:
    numbers = sorted(set(numbers))
    parts, start, prev = [], numbers[0], numbers[0]
    for n in numbers[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        a, b = str(start).zfill(width), str(prev).zfill(width)
        parts.append(a if start == prev else f"{a}-{b}")
        if n is not None:
            start = prev = n
    return ",".join(parts)


def fold(names) -> str:
    """The shortest usual notation of a set of node names (``node[001-003,007],login1``)."""
    groups: dict[tuple[str, str, int], list[int]] = {}
    plain: list[str] = []
    for name in dict.fromkeys(str(n) for n in names):
        m = _TAIL.match(name)
        if not m:
            plain.append(name)
            continue
        digits = m.group(2)
        width = len(digits) if digits.startswith("0") and len(digits) > 1 else 0
        groups.setdefault((m.group(1), m.group(3), width), []).append(int(digits))
    # an unpadded number as long as a padded group's width belongs to it (node100 with node[001-099])
    for (pre, suf, width), nums in list(groups.items()):
        if width:
            continue
        for n in list(nums):
            padded = (pre, suf, len(str(n)))
            if padded in groups and padded != (pre, suf, 0):
                groups[padded].append(n)
                nums.remove(n)
        if not nums:
            del groups[(pre, suf, width)]
    out = []
    for (pre, suf, width), nums in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1], min(kv[1]))):
        if len(set(nums)) == 1:
            out.append(f"{pre}{str(nums[0]).zfill(width)}{suf}")
        else:
            out.append(f"{pre}[{_ranges(nums, width)}]{suf}")
    return ",".join(out + sorted(plain))
