"""Lines that differ only in their digits: when they are sure to get the same verdict.

The *shape* of a line is the line with every ASCII digit written ``0``. A check is *digit-uniform*
when it treats every ASCII digit alike (``\\d``, ``\\w``, ``[0-9a-f]``, ``.``: yes; a literal ``8``,
``[1-9]``, a back-reference: no); a digit-uniform check gives the same answer on all the lines of one
shape. ``uniform`` decides it for a regex from its parse tree; codes.py's patterns capture the digits
themselves, so ``codes.possible`` says instead whether any line of a shape can hold a code.
"""
from __future__ import annotations

import re

try:                                    # Python 3.11+
    from re import _parser as _p
except ImportError:                     # pragma: no cover - Python 3.9 and 3.10
    import sre_parse as _p              # type: ignore[no-redef]

#: bytes.translate table: every ASCII digit -> "0"
TO_ZERO = bytes.maketrans(b"0123456789", b"0000000000")
_DIGITS = frozenset(range(48, 58))
#: categories of a character class and the ASCII digits each holds (all or none)
_ALL = {"CATEGORY_DIGIT", "CATEGORY_UNI_DIGIT", "CATEGORY_WORD", "CATEGORY_UNI_WORD", "CATEGORY_LOC_WORD",
        "CATEGORY_NOT_SPACE", "CATEGORY_UNI_NOT_SPACE", "CATEGORY_NOT_LINEBREAK", "CATEGORY_UNI_NOT_LINEBREAK"}
_NONE = {"CATEGORY_NOT_DIGIT", "CATEGORY_UNI_NOT_DIGIT", "CATEGORY_NOT_WORD", "CATEGORY_UNI_NOT_WORD",
         "CATEGORY_LOC_NOT_WORD", "CATEGORY_SPACE", "CATEGORY_UNI_SPACE", "CATEGORY_LINEBREAK",
         "CATEGORY_UNI_LINEBREAK"}


def shape(line: bytes) -> bytes:
    return line.translate(TO_ZERO)


def uniform(rx: "re.Pattern[str] | re.Pattern[bytes]") -> bool:
    """True when ``rx.search`` gives the same answer on every line of one shape: no literal digit, no class
    holding some digits but not all, no back-reference. Anything not understood counts as not uniform."""
    try:
        tree = _p.parse(rx.pattern, rx.flags)
    except Exception:       # pragma: no cover - a compiled pattern always parses
        return False
    return _tree(tree)


def _tree(items) -> bool:
    for op, av in items:
        name = str(op)
        if name in ("LITERAL", "NOT_LITERAL"):
            if av in _DIGITS:
                return False
        elif name in ("ANY", "AT"):
            continue
        elif name == "IN":
            if not _class(av):
                return False
        elif name == "BRANCH":
            if not all(_tree(b) for b in av[1]):
                return False
        elif name == "SUBPATTERN":
            if not _tree(av[-1]):
                return False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if not _tree(av[2]):
                return False
        elif name in ("ASSERT", "ASSERT_NOT"):
            if not _tree(av[1]):
                return False
        elif name == "ATOMIC_GROUP":
            if not _tree(av):
                return False
        elif name == "GROUPREF_EXISTS":
            if not _tree(av[1]) or (av[2] is not None and not _tree(av[2])):
                return False
        else:               # GROUPREF and anything newer
            return False
    return True


def _class(items) -> bool:
    """A character class holds all the ASCII digits or none of them."""
    held: set[int] = set()
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            continue
        if name == "LITERAL":
            if av in _DIGITS:
                held.add(av)
        elif name == "RANGE":
            held |= _DIGITS & set(range(av[0], av[1] + 1))
        elif name == "CATEGORY":
            cat = str(av)
            if cat in _ALL:
                held |= _DIGITS
            elif cat not in _NONE:
                return False
        else:
            return False
    return not held or held == _DIGITS
