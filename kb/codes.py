"""Spelling of error codes: one canonical form for storage and look-up, and wildcard ranges.

Canonical form: upper case (``ei0006`` -> ``EI0006``, ``err00100`` -> ``ERR00100``), hex event ids
keep a lower-case ``0x`` prefix with upper-case digits (``0X80e01801`` -> ``0x80E01801``). In a
stored code a lower-case ``x`` (after any ``0x`` prefix) is a one-character wildcard:
``561xxx`` covers ``561103``, ``ERR01xxx`` covers ``ERR01100``.
"""
from __future__ import annotations

import re

_WILDCARD_CHAR = "[0-9A-Z]"


def canonical(code: str) -> str:
    code = code.strip()
    if code[:2].lower() == "0x":
        return "0x" + code[2:].upper()
    return code.upper()


def canonical_stored(code: str) -> str:
    """Like :func:`canonical` but keeps lower-case ``x`` wildcards."""
    code = code.strip()
    prefix = ""
    if code[:2].lower() == "0x":
        prefix, code = "0x", code[2:]
    return prefix + "".join(c if c == "x" else c.upper() for c in code)


def is_pattern(stored: str) -> bool:
    body = stored[2:] if stored.startswith("0x") else stored
    return "x" in body


def pattern_regex(stored: str) -> re.Pattern[str]:
    prefix = ""
    body = stored
    if stored.startswith("0x"):
        prefix, body = "0x", stored[2:]
    parts = [_WILDCARD_CHAR if c == "x" else re.escape(c) for c in body]
    return re.compile("^" + re.escape(prefix) + "".join(parts) + "$")


def specificity(stored: str) -> int:
    """How many characters are fixed; a more specific pattern is shown first."""
    body = stored[2:] if stored.startswith("0x") else stored
    return sum(1 for c in body if c != "x")
