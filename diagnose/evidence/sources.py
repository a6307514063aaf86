"""Inputs of ``diagnose``: files, directories (walked recursively), ``.gz`` files, stdin and text.

Each input becomes a Source whose ``open()`` returns a binary stream; nothing is read whole.
Binary files (a NUL byte in the first 8 KiB) are skipped with a note; gzip is recognised by its
magic bytes, whatever the file is called. UTF-16 (with its byte-order mark) and GBK / GB18030 logs,
which Windows tools and Chinese consoles write, are transcoded to UTF-8 as they are read. Pipes
(``diagnose <(kubectl logs pod)``, a FIFO) are read like files; directories are walked without
recursion, however deep.
"""
from __future__ import annotations

import codecs
import gzip
import io
import os
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from .model import InputNote
from .paste import unpaste

SNIFF = 8192
OPEN_BUFFER = 1 << 16
GZIP_MAGIC = b"\x1f\x8b"
#: directory walk limits: never follow symlinked directories, skip these names
SKIP_DIRS = {".git", "__pycache__", "node_modules"}


@dataclass
class Source:
    name: str                                # shown to the user (path, "<stdin>", "<text>")
    open: Callable[[], BinaryIO]             # a fresh binary stream (decompressed if gzip)
    path: str = ""                           # a regular file (another process may open it: parallel.py)
    known_size: int | None = None            # its size on disk, when already known

    @property
    def size(self) -> int:
        """Its size on disk (0: not a file, or not found), looked up when first asked (only parallel.py asks)."""
        if self.known_size is None:
            try:
                self.known_size = os.stat(self.path).st_size if self.path else 0
            except OSError:
                self.known_size = 0
        return self.known_size


def file_source(path: str, name: str, size: int | None = None) -> Source:
    """A regular file (gzip or not) as a Source; ``size``: its size when already known."""

    def opener() -> BinaryIO:
        # a buffer of OPEN_BUFFER: the peeks below read a small file whole (a plog file: one read, not two)
        raw = open(path, "rb", buffering=OPEN_BUFFER)
        if raw.peek(2)[:2] == GZIP_MAGIC:       # gzip is recognised by its magic bytes, whatever the name
            raw.close()
            return decoded(gzip.open(path, "rb"))
        return decoded(raw)
    return Source(name, opener, path=path, known_size=size)


def _gunzipped(buf):
    """A gzip reader over ``buf`` (a pipe, standard input) when its first bytes are gzip's, else None."""
    if hasattr(buf, "peek") and buf.peek(2)[:2] == GZIP_MAGIC:
        return gzip.GzipFile(fileobj=buf, mode="rb")
    return None


def _pipe_source(path: Path, name: str) -> Source:
    """A FIFO or process substitution: read once, as a stream."""
    def opener() -> BinaryIO:
        raw = open(path, "rb")
        return decoded(_gunzipped(raw) or raw)
    return Source(name, opener)


#: standard input up to this size is taken as pasted text
PASTE_MAX = 1 << 20


class _Chained(io.RawIOBase):
    """Bytes already read, then the rest of the stream they came from."""

    def __init__(self, first: bytes, rest: BinaryIO) -> None:
        self._first = memoryview(first)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        if self._first:
            n = min(len(b), len(self._first))
            b[:n] = self._first[:n]
            self._first = self._first[n:]
            return n
        return self._rest.readinto(b)

    def close(self) -> None:
        try:
            self._rest.close()
        finally:
            super().close()


class _Transcoded(io.RawIOBase):
    """A binary stream of UTF-8 made from a stream in another encoding, decoded incrementally."""

    def __init__(self, raw: BinaryIO, encoding: str) -> None:
        self._raw = raw
        self._dec = codecs.getincrementaldecoder(encoding)(errors="replace")
        self._pending = b""
        self._eof = False

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:
        while not self._pending and not self._eof:
            chunk = self._raw.read(65536)
            self._eof = not chunk
            self._pending = self._dec.decode(chunk, final=self._eof).encode("utf-8", "surrogateescape")
        n = min(len(b), len(self._pending))
        b[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self) -> None:
        try:
            self._raw.close()
        finally:
            super().close()


def sniff_encoding(head: bytes) -> str | None:
    """The encoding to transcode from, or None for UTF-8 (and anything undecidable, read as is)."""
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and b"\x00" in head[2:512]:
        return "utf-16"          # a byte-order mark, then the NUL halves of ASCII (a newline at least)
    if head.startswith(codecs.BOM_UTF8) or head.isascii():
        return None
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return None
    except UnicodeDecodeError:
        pass
    try:
        codecs.getincrementaldecoder("gb18030")().decode(head, final=False)
        return "gb18030"
    except UnicodeDecodeError:
        return None


def decoded(raw: BinaryIO) -> BinaryIO:
    """``raw`` as UTF-8: transcoded when its first bytes show UTF-16 or GBK, else unchanged."""
    stream = raw if hasattr(raw, "peek") else io.BufferedReader(raw)  # type: ignore[arg-type]
    encoding = sniff_encoding(stream.peek(SNIFF)[:SNIFF])
    if encoding is None:
        return stream
    return io.BufferedReader(_Transcoded(stream, encoding), buffer_size=65536)  # type: ignore[return-value]


def stdin_source(words: frozenset[str] = frozenset()) -> Source:
    def opener() -> BinaryIO:
        if sys.stdin is None:
            raise OSError("standard input is closed")
        buf = getattr(sys.stdin, "buffer", None)
        if buf is None:  # pragma: no cover - stdin replaced by a text object
            return io.BytesIO(sys.stdin.read().encode("utf-8", "replace"))
        gz = _gunzipped(buf)
        if gz is not None:
            return decoded(gz)  # type: ignore[arg-type]
        stream = decoded(buf)
        # a short input is most likely pasted (pbpaste | ascend-doctor diagnose -): read it whole and
        # undo what pasting did; a long one (a log piped in) is streamed as it is
        first = stream.read(PASTE_MAX + 1)
        if len(first) <= PASTE_MAX:
            return io.BytesIO(unpaste(first.decode("utf-8", "surrogateescape"), words).encode("utf-8", "surrogateescape"))
        return io.BufferedReader(_Chained(first, stream))  # type: ignore[return-value]
    return Source("<stdin>", opener)


def text_source(text: str, name: str = "<text>", words: frozenset[str] = frozenset()) -> Source:
    """Text a person pasted (``--text``): what pasting did to it is undone first (see paste.py)."""
    data = unpaste(text, words).encode("utf-8", "surrogateescape")
    return Source(name, lambda: io.BytesIO(data))


def expand(paths: list[str], notes: list[InputNote], words: frozenset[str] = frozenset()) -> Iterator[Source]:
    """Sources for the given paths in a stable order; problems become notes, never exceptions."""
    for p in paths:
        if p == "-":
            yield stdin_source(words)
            continue
        path = Path(p)
        try:
            if path.is_dir():
                yield from _walk(path, notes)
            elif path.exists():
                if not os.access(path, os.R_OK):
                    notes.append(InputNote.of(p, "error", "denied"))
                    continue
                mode = os.stat(path).st_mode
                if stat.S_ISFIFO(mode):
                    yield _pipe_source(path, p)
                    continue
                if not stat.S_ISREG(mode):
                    notes.append(InputNote.of(p, "error", "not_regular"))
                    continue
                yield file_source(str(path), p)
            else:
                notes.append(InputNote.of(p, "error", "no_file"))
        except OSError as exc:
            notes.append(InputNote.of(p, "error", "cannot_read", reason=exc.strerror or str(exc)))


def _walk(root: Path, notes: list[InputNote]) -> Iterator[Source]:
    found = 0

    def onerror(exc: OSError) -> None:
        notes.append(InputNote.of(str(exc.filename or root), "warning", "cannot_list", reason=exc.strerror or str(exc)))

    for dirpath, entries in _walk_dirs(root, onerror):
        prefix = str(Path(dirpath) / "x")[:-1]     # the names pathlib gives (a root of "." adds nothing)
        for e in entries:
            try:
                if not e.is_file():             # a broken symbolic link, a FIFO, a socket, a device
                    continue
                if not os.access(e.path, os.R_OK):
                    notes.append(InputNote.of(prefix + e.name, "warning", "skipped_denied"))
                    continue
            except OSError:
                continue
            found += 1
            name = prefix + e.name
            yield file_source(name, name)
    if not found:
        notes.append(InputNote.of(str(root), "warning", "no_files"))


def _walk_dirs(root: Path, onerror) -> Iterator[tuple[str, list[os.DirEntry]]]:
    """(directory, its entries that are not directories, sorted by name) top-down in sorted order, like
    ``os.walk`` without following symlinked directories, but with an explicit stack: no recursion limit,
    however deep the tree."""
    stack = [str(root)]
    while stack:
        d = stack.pop()
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except OSError as exc:
            onerror(exc)
            continue
        dirs, files = [], []
        for e in entries:
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name not in SKIP_DIRS:
                        dirs.append(e.name)
                else:
                    files.append(e)
            except OSError:
                continue
        files.sort(key=lambda e: e.name)
        yield d, files
        stack.extend(os.path.join(d, n) for n in sorted(dirs, reverse=True))


def looks_binary(head: "bytes | bytearray", end: int | None = None) -> bool:
    """A NUL byte in the first bytes (of ``head[:end]``): an executable, an image, a core dump, a database."""
    return head.find(b"\x00", 0, SNIFF if end is None else min(end, SNIFF)) >= 0
