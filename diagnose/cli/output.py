"""Where a report goes: the main format to stdout or ``-o FILE``, the other formats to their own files
(``--json F --junit F ...``), each file whole or not at all. Shared by every command that writes reports."""
from __future__ import annotations

import os
import sys

from ..files import write_error_texts, write_file
from ..render.registry import render
from ..services.errors import InputError, UsageError


def check_output_files(paths) -> None:
    """Refuse one file named twice, also under two spellings (``-o x --json ../d/x``)."""
    given = [p for p in paths if p]
    real = [os.path.realpath(p) for p in given]
    if len(set(real)) != len(real):
        raise UsageError("each output file may be given only once")


def write_to(path: str, text: str) -> None:
    try:
        write_file(path, text)
    except OSError as exc:
        raise InputError(write_error_texts(path, exc)) from exc


def emit(kind: str, report, fmt: str, output: str | None = None, also: dict[str, str | None] | None = None,
         verbose: bool = False, lang: str = "en") -> None:
    """``report`` (of ``kind`` in render/registry.py) as ``fmt`` to ``output`` or stdout (in colour on a
    terminal), and as each format of ``also`` (format -> path) to that file."""
    main_text = render(kind, report, fmt, verbose=verbose, lang=lang,
                       color=fmt == "text" and not output and sys.stdout.isatty())
    also = also or {}
    for other, path in also.items():
        if path:
            write_to(path, render(kind, report, other, lang=lang))
    if output:
        write_to(output, main_text)
    else:
        sys.stdout.write(main_text)
        sys.stdout.flush()


def spinner(text: str):
    """A spinner with ``text`` on stderr while something runs, only when stderr is a terminal."""
    import contextlib

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    return Console(stderr=True).status(text, spinner="dots")
