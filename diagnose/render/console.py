"""Rich console helpers shared by the text renderers.

Every text that came from outside (log lines, fact values, user input, file names, snapshots) must
pass through ``esc()`` before it is put into rich markup: ``[bold]`` in a log line is data, not style,
and an ESC from a replayed snapshot is shown as ``\x1b``, never sent to the terminal. Text printed
without markup goes through ``visible()``.
"""
from __future__ import annotations

from typing import Any


#: control characters shown as ``\xNN``: C0 but tab and newline, DEL, and C1 (0x80-0x9f, where the
#: one-character CSI U+009B lives); ESC, OSC and CSI from a log, an npu-smi output or a snapshot must never
#: reach the terminal as control sequences
_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), *range(0x7f, 0xa0)) if c not in (0x09, 0x0a)}


def visible(text: Any) -> str:
    """Untrusted text with every control character made visible (``\x1b``), nothing else changed."""
    return str(text).translate(_CONTROLS)


_C1_JSON = {c: f"\\u{c:04x}" for c in range(0x7f, 0xa0)}


def dumps_json(obj: Any, **kw: Any) -> str:
    """JSON for output: like ``json.dumps(obj, ensure_ascii=False, ...)`` (C0 controls are escaped by
    JSON itself) with DEL and the C1 controls escaped too, so no terminal sees a raw U+009B CSI."""
    import json

    kw.setdefault("ensure_ascii", False)
    return json.dumps(obj, **kw).translate(_C1_JSON)


def esc(text: Any) -> str:
    """Untrusted text ready for rich markup: control characters made visible, markup escaped."""
    from rich.markup import escape

    return escape(visible(text))


def t(texts: dict[str, str] | None, lang: str) -> str:
    """Pick the text in ``lang`` from an {"en": ..., "zh": ...} table, falling back to English."""
    if not texts:
        return ""
    return texts.get(lang) or texts.get("en") or next(iter(texts.values()), "")


def tl(texts: dict[str, list[str]] | None, lang: str) -> list[str]:
    if not texts:
        return []
    return texts.get(lang) or texts.get("en") or []


def locale_lang() -> str:
    """``zh`` when the locale says Chinese (ASCEND_DOCTOR_LANG, LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else ``en``."""
    import os

    for var in ("ASCEND_DOCTOR_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"
