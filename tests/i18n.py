"""Helpers for the tests that keep the interface Chinese under ``--lang zh``.

Every text a front end writes of its own lives in a table ``{"en": ..., "zh": ...}`` at module level
(``LABELS`` and the like). ``catalogues()`` finds them all; ``chrome_words()`` is the English the
translations remove (words of an English entry that its Chinese entry does not keep: "Copy fix" gives
copy and fix; "ctrl+r: diagnose" gives diagnose, not ctrl); ``english_chrome(text)`` the ones of them
left in a screen or an output outside data (ids, commands, paths, URLs, quoted text).
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from functools import lru_cache

#: packages whose modules hold the front ends' words
PACKAGES = ("ascend_doctor.diagnose",)
#: modules not to import for the scan (the CLI entry point would run nothing, but keep the list explicit)
SKIP = ("ascend_doctor.diagnose.cli.main", "ascend_doctor.diagnose._pkg")

WORD = re.compile(r"[A-Za-z][a-z]{2,}")
#: what is data, not chrome: placeholders, URLs, paths, quoted and code text, identifiers (with _ . - digits
#: = < >, in CAPS or camelCase)
DATA = re.compile(r"\{[^}]*\}|https?://\S+|\S*/\S+|`[^`]*`|'[^']*'|\"[^\"]*\"|\S*[_\d=<>.\-@#]\S*|\b[A-Z][A-Za-z]*[A-Z]\w*|\b\w*[a-z][A-Z]\w*")


def _modules():
    for pkg_name in PACKAGES:
        pkg = importlib.import_module(pkg_name)
        for info in pkgutil.walk_packages(pkg.__path__, pkg_name + "."):
            if info.name in SKIP or info.name.endswith("__main__"):
                continue
            yield importlib.import_module(info.name)


@lru_cache(maxsize=1)
def catalogues() -> tuple[tuple[str, dict], ...]:
    """(module.NAME, table) for every module-level {"en": ..., "zh": ...} table of the front ends."""
    out = []
    for mod in _modules():
        for name, value in vars(mod).items():
            if isinstance(value, dict) and set(value) == {"en", "zh"} and getattr(mod, "__name__", "") and \
                    not name.startswith("__"):
                out.append((f"{mod.__name__}.{name}", value))
    return tuple(out)


def pairs():
    """(where, key, English, Chinese) of every entry (a flat table is one entry, key "")."""
    for where, table in catalogues():
        en, zh = table["en"], table["zh"]
        if isinstance(en, dict):
            for key in en:
                yield where, key, en[key], zh.get(key) if isinstance(zh, dict) else None
        else:
            yield where, "", en, zh


@lru_cache(maxsize=1)
def chrome_words() -> frozenset[str]:
    words: set[str] = set()
    for _where, _key, en, zh in pairs():
        if not isinstance(en, str) or not isinstance(zh, str):
            continue
        kept = {w.lower() for w in WORD.findall(DATA.sub(" ", zh))}
        words |= {w.lower() for w in WORD.findall(DATA.sub(" ", en))} - kept
    return frozenset(words)


def english_chrome(text: str, allowed=()) -> list[str]:
    """The chrome words left in ``text`` (lines of a screen or an output), with the line they are on.
    ``allowed``: words that are data there, exactly as written (``environment``, a fact's source, does
    not allow ``Environment``, a tab)."""
    allowed = set(allowed)
    out = []
    for line in text.splitlines():
        left = DATA.sub(" ", line)
        found = sorted({w for w in WORD.findall(left) if w.lower() in chrome_words() and w not in allowed})
        if found:
            out.append(f"{', '.join(found)}  <-  {line.strip()}")
    return out
