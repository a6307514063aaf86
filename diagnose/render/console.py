"""Rich console helpers shared by the text renderers.

Every text that came from outside (log lines, fact values, user input) must pass through
``esc()`` before it is put into rich markup: ``[bold]`` in a log line is data, not style.
"""
from __future__ import annotations

import sys
from typing import Any


def esc(text: Any) -> str:
    from rich.markup import escape

    return escape(str(text))


def make_console(file=None, no_color: bool = False):
    from rich.console import Console

    return Console(file=file or sys.stdout, highlight=False, no_color=no_color, soft_wrap=False)


def t(texts: dict[str, str] | None, lang: str) -> str:
    """Pick the text in ``lang`` from an {"en": ..., "zh": ...} table, falling back to English."""
    if not texts:
        return ""
    return texts.get(lang) or texts.get("en") or next(iter(texts.values()), "")


def tl(texts: dict[str, list[str]] | None, lang: str) -> list[str]:
    if not texts:
        return []
    return texts.get(lang) or texts.get("en") or []
