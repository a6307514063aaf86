"""Inputs of ``diagnose``: files, directories (walked recursively), ``.gz`` files, stdin and text.

Each input becomes a Source whose ``open()`` returns a binary stream; nothing is read whole.
Binary files (a NUL byte in the first 8 KiB) are skipped with a note; gzip is recognised by its
magic bytes, whatever the file is called.
"""
from __future__ import annotations

import gzip
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from .model import InputNote

SNIFF = 8192
GZIP_MAGIC = b"\x1f\x8b"
#: directory walk limits: never follow symlinked directories, skip these names
SKIP_DIRS = {".git", "__pycache__", "node_modules"}


@dataclass
class Source:
    name: str                                # shown to the user (path, "<stdin>", "<text>")
    open: Callable[[], BinaryIO]             # a fresh binary stream (decompressed if gzip)
    compressed: bool = False


def _is_gzip(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(2) == GZIP_MAGIC
    except OSError:
        return False


def _file_source(path: Path, name: str) -> Source:
    if _is_gzip(path):
        return Source(name, lambda: gzip.open(path, "rb"), compressed=True)
    return Source(name, lambda: open(path, "rb"))


def stdin_source() -> Source:
    def opener() -> BinaryIO:
        buf = getattr(sys.stdin, "buffer", None)
        if buf is None:  # pragma: no cover - stdin replaced by a text object
            return io.BytesIO(sys.stdin.read().encode("utf-8", "replace"))
        head = buf.peek(2)[:2] if hasattr(buf, "peek") else b""
        if head == GZIP_MAGIC:
            return gzip.GzipFile(fileobj=buf, mode="rb")  # type: ignore[return-value]
        return buf
    return Source("<stdin>", opener)


def text_source(text: str, name: str = "<text>") -> Source:
    data = text.encode("utf-8", "surrogateescape")
    return Source(name, lambda: io.BytesIO(data))


def expand(paths: list[str], notes: list[InputNote]) -> Iterator[Source]:
    """Sources for the given paths in a stable order; problems become notes, never exceptions."""
    for p in paths:
        if p == "-":
            yield stdin_source()
            continue
        path = Path(p)
        try:
            if path.is_dir():
                yield from _walk(path, notes)
            elif path.exists():
                if not os.access(path, os.R_OK):
                    notes.append(InputNote(p, "error", "cannot read the file: permission denied"))
                    continue
                if not path.is_file():
                    notes.append(InputNote(p, "error", "not a regular file"))
                    continue
                yield _file_source(path, p)
            else:
                notes.append(InputNote(p, "error", "no such file or directory"))
        except OSError as exc:
            notes.append(InputNote(p, "error", f"cannot read: {exc.strerror or exc}"))


def _walk(root: Path, notes: list[InputNote]) -> Iterator[Source]:
    found = 0

    def onerror(exc: OSError) -> None:
        notes.append(InputNote(str(exc.filename or root), "warning", f"cannot list the directory: {exc.strerror or exc}"))

    for dirpath, dirnames, filenames in os.walk(root, onerror=onerror, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        for f in sorted(filenames):
            path = Path(dirpath) / f
            if path.is_symlink() and not path.exists():
                continue
            if not path.is_file():
                continue
            if not os.access(path, os.R_OK):
                notes.append(InputNote(str(path), "warning", "skipped: permission denied"))
                continue
            found += 1
            yield _file_source(path, str(path))
    if not found:
        notes.append(InputNote(str(root), "warning", "the directory holds no readable files"))


def looks_binary(head: bytes) -> bool:
    """A NUL byte in the first bytes: an executable, an image, a core dump, a database."""
    return b"\x00" in head[:SNIFF]
