"""Line breaking for Chinese (and Japanese, Korean) text in rich and textual.

Both toolkits break lines only at spaces: a Chinese sentence is one long "word" to them, so it moves to
the next line whole and leaves a half-empty line behind ("该 NPU ⏎已被其他容器…"). ``enable()`` (and
``tui.text.enable_cjk_wrap()`` for textual) teaches their word splitters that a line may break between
two CJK characters too, except before closing punctuation (，。）…) and after opening punctuation (（「“),
as Chinese typesetting does. Text without CJK characters splits exactly as before: a Latin word, a
command or a URL is never broken inside.

Both toolkits read their word pattern from a module global when they wrap, and expose no hook to
change it; these functions replace those two patterns (idempotent, process-wide).
"""
from __future__ import annotations

import re

#: ideographs, kana, hangul, CJK symbols and full-width forms: a line may break before and after each
_IDEO = "\u2e80-\u2fff\u3040-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
#: punctuation that never starts a line (closing and trailing marks, full-width and CJK)
_CLOSE_FW = "\u3001\u3002\u3009\u300b\u300d\u300f\u3011\u3015\u3017\u3019\uff01\uff09\uff0c\uff0e\uff1a\uff1b\uff1f\uff3d\uff5d\uff60"
#: the same plus the marks that may follow a CJK character: … — · ” ’ and ASCII closing marks such as ) > ,
#: (inside Latin text they stay as they were)
_CLOSE = _CLOSE_FW + "\u2026\u2014\u00b7\u201d\u2019" + r")\]}>,.;:!?%'\""
#: punctuation that never ends a line (opening marks)
_OPEN = "\u3008\u300a\u300c\u300e\u3010\u3014\u3016\u3018\uff08\uff3b\uff5b\uff5f\u201c\u2018"

#: one breakable unit: a CJK character with the punctuation glued to it, or a run of anything else
#: (a Latin word, a number, a path) with the full-width closing marks that follow it
_UNIT = (rf"[{_OPEN}]*[{_IDEO}][{_CLOSE}]*"
         rf"|[{_OPEN}]*[^\s{_IDEO}{_OPEN}{_CLOSE_FW}]+[{_CLOSE_FW}]*"
         rf"|[{_OPEN}{_CLOSE_FW}]+")

#: rich (rich._wrap.words): a unit with the spaces around it
RICH_WORD = re.compile(rf"\s*(?:{_UNIT})\s*")
#: textual (textual._wrap.chunks): a unit with the spaces after it, or a run of spaces
TEXTUAL_CHUNK = re.compile(rf"(?:{_UNIT})\s*|\s+")


def enable() -> None:
    """Let rich break lines between CJK characters (process-wide; the TUI does the same for textual with
    ``TEXTUAL_CHUNK``, in tui/text.py, since only the TUI may import textual)."""
    import rich._wrap

    rich._wrap.re_word = RICH_WORD


def cell_width(text: str) -> int:
    """Terminal columns a text takes: two for a wide (CJK, full-width) character, one otherwise."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` (whitespace collapsed) cut into lines of at most ``width`` columns, breaking at spaces and
    between CJK characters by the same units as rich and textual (argparse's own wrapping counts a CJK
    character as one column and breaks only at spaces)."""
    lines: list[str] = []
    line, used = "", 0
    for m in RICH_WORD.finditer(" ".join(text.split())):
        unit = m.group(0)
        word, w = unit.rstrip(), cell_width(unit.rstrip())
        if line and used + w > width:
            lines.append(line.rstrip())
            line, used = "", 0
            word = word.lstrip()
            w = cell_width(word)
        line += unit if line else word + unit[len(unit.rstrip()):]
        used = cell_width(line)
    if line.strip():
        lines.append(line.rstrip())
    return lines
