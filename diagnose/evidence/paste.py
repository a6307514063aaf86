"""Undo what copying a log into an issue, a chat or a terminal does to it, for text a person pasted
(``--text``, a short standard input): non-breaking and ideographic spaces, full-width punctuation and
letters (``：``, ``（``, ``ＥＲＲ``), zero-width characters, container-runtime log prefixes
(``2025-06-01T08:15:02.123456789Z stderr F`` from ``kubectl logs`` of a CRI log file), and hard wrapping at a fixed width (a web page,
``fold``, an 80-column terminal) that cuts a log line in two.

A wrap is undone only when the text shows one: with W the longest line (60 to 200 characters), at
least two lines and 40% of the lines over 60 characters are within 12 of W (a wrap fills lines up to
the width), or, with a single such line, the 80 columns of a default terminal; then a line is joined with the next when the next one's first word (a Chinese character is a word: Chinese
breaks anywhere) would not have fitted on it (which is why a wrap breaks there), unless the next line starts a new record (a time stamp, a log
level, ``[``, a vLLM worker prefix, ``Traceback``, ``File``, a list mark; but a CANN plog header alone is never a
whole record) or the line is a table row or ends in a shell's line continuation (a backslash).
"""
from __future__ import annotations

import re

_SPACES = {0x00A0: " ", 0x2007: " ", 0x202F: " ", 0x3000: " ", 0x200B: "", 0x200C: "", 0x200D: "", 0xFEFF: ""}
_FULLWIDTH = {c: chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}
_TABLE = {**_SPACES, **_FULLWIDTH}
_NEW_RECORD = re.compile(
    r"^\s*(?:[\^~]+\s*$|\[|[|+]|\(\w[\w ]*(?:pid|rank)=|\d{2,4}[-/]\d{1,2}[-/]\d|\d{1,2}:\d{2}:\d{2}|[IWEF]\d{4}\s|(?:INFO|WARN|WARNING|ERROR|DEBUG|CRITICAL|FATAL)\b|Traceback|"
    r"File\b|[-*•]\s|#|\$ |>>>|\w+Error\b|\w+Exception\b|E\s{2,}|[A-Z][A-Z0-9_]{2,}=)")
_MARKS = re.compile(r"^\s*[\^~]+\s*$")
#: a CANN plog header and nothing after it: never a whole record, so what follows goes on it even when it starts
#: with '[' (its '[file.cc:94]' location, where an 80-column wrap of a plog line usually breaks)
_PLOG_HEAD_ONLY = re.compile(r"^\s*\[(?:ERROR|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s+\w+\(\d+,[^)]*\):[\d\-:.]+\s*$")
#: a line that ends a sentence, and one that starts the next (a capital, a Chinese character, a code span)
_SENTENCE_END = re.compile(r"[.!?:;。！？：；]\s*$")
_SENTENCE_START = re.compile(r"^\s*(?:[A-Z`\u3400-\u9fff]|```)")
_OPEN_BAR = re.compile(r"\d+%\|[^|]*\|\s*\d+/\d+\s*$")
MIN_WIDTH = 60
TERMINAL = 80      # the width to assume when a single line was cut (a default terminal)
TERMINAL_WIDTHS = (80, 100, 120, 132, 160, 200)    # widths a terminal or a fold usually has
SLACK = 12         # lines this close to the width show a wrap
_CRI_PREFIX = re.compile(r"(?m)^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2}) (?:stdout|stderr) [FP] ")
#: the first word of a line, as a wrap sees it: Chinese has no spaces and breaks between any two characters,
#: so a Chinese character is a word of its own
_FIRST_WORD = re.compile(r"[\u3400-\u9fff]|[^ \u3400-\u9fff]*")
_TAIL = re.compile(r"[A-Za-z]+$")
_HEAD = re.compile(r"^[A-Za-z]+")


def _glue(prev: str, line: str, default: str, words: frozenset[str]) -> str:
    """The join of two pieces of a wrapped line. Where a known word decides it (the log's own vocabulary:
    the words of the knowledge's signatures) it wins: 'for|the' are two words, 'ou|t' is one."""
    a, b = _TAIL.search(prev), _HEAD.match(line)
    if words and a and b and not prev.endswith(" "):
        whole = (a.group(0) + b.group(0)).lower()
        if whole in words and not (a.group(0).lower() in words and b.group(0).lower() in words):
            return ""
        if a.group(0).lower() in words and b.group(0).lower() in words and whole not in words:
            return " "
    return default


def unpaste(text: str, words: frozenset[str] = frozenset()) -> str:
    """``words``: lower-case words the logs use (the knowledge's signature literals), to tell where a
    wrap cut a word from where it broke between two."""
    text = _CRI_PREFIX.sub("", text.translate(_TABLE))
    if "\n" not in text:
        return text
    lines = text.split("\n")
    width = wrap_width(lines)
    if width is None:
        return text

    def continues(prev: str, line: str) -> bool:
        if not prev.strip() or not line.strip() or prev.rstrip().endswith(("|", "+", "\\")) or _MARKS.match(prev):
            return False              # a table row (npu-smi), a traceback's ^^^ marks, a shell line continued are complete
        # a wrap breaks a line where its next word does not fit: the line plus that word passes the
        # width (a line cut inside a word fills it exactly)
        word = len(line) - len(line.lstrip(" ")) + len(_FIRST_WORD.match(line.lstrip(" ")).group(0))
        if len(prev) + 1 + word <= width:
            return False
        if _SENTENCE_END.search(prev) and _SENTENCE_START.match(line):
            return False              # prose: a sentence ended and the next begins (two lines of equal length)
        # a progress bar cut before its '[elapsed<left, rate]' goes on whatever the next line looks like
        return bool(_OPEN_BAR.search(prev) or _PLOG_HEAD_ONLY.match(prev)) or not _NEW_RECORD.match(line)

    # 'fold -w' cuts anywhere, so (nearly) every line it cut fills the width exactly: join as is; 'fold -s'
    # keeps the space it broke at; any other wrap (a web page, an editor) dropped a space: put it back
    joins = [continues(a, b) for a, b in zip(lines, lines[1:])]     # joins[i]: line i+1 goes on line i
    cut = [a for a, j in zip(lines, joins) if j]
    # (with one or two cut lines the share says little, the longest line being the width by definition: then
    # they must fill a terminal's usual width exactly)
    # (only lines that reach the width count: a short line whose next line starts with a word too long for any
    # line, a long URL, was not cut by the wrap)
    cut = [a for a in cut if len(a) >= width - SLACK]
    if len(cut) >= 3:
        cut_anywhere = sum(len(a) == width for a in cut) >= 0.8 * len(cut)
    else:
        cut_anywhere = bool(cut) and width in TERMINAL_WIDTHS and all(len(a) == width for a in cut)
    out = [lines[0]]
    for prev, line, join in zip(lines, lines[1:], joins):
        if join:
            glue = "" if cut_anywhere or prev.endswith((" ", "-")) else " "
            out[-1] = out[-1] + _glue(prev, line, glue, words) + line
        else:
            out.append(line)
    return "\n".join(out)


def wrap_width(lines: list[str]) -> int | None:
    """The width the text was hard-wrapped at, or None when it was not."""
    lengths = [len(ln.rstrip("\r")) for ln in lines]
    long = [n for n in lengths if n >= MIN_WIDTH]
    if not long:
        return None
    width = max(long)
    near = sum(1 for n in long if n >= width - SLACK)
    if width > 200 or near < 2 or near < 0.4 * len(long):
        # one long line cut once shows no pattern; an 80-column terminal is the usual culprit
        return TERMINAL if width <= TERMINAL and near >= 1 and width >= TERMINAL - SLACK else None
    return width
