"""Reading inputs as blocks of whole lines; nothing here knows what a log line means.

An input is read into one of two buffers in blocks that end after their last newline; the partial
line after it starts the next block (a line still without a newline after MAX_LINE bytes is cut
there), so memory stays flat whatever the size. The buffers and one helper thread belong to a
:class:`Reader`, made once per scan and used for every input of it.

While the helper thread runs the caller's search over one block (the automaton of prefilter.py runs
without the GIL), the next block is read into the other buffer; the caller then gets the block and
the answer of the search, in order.
"""
from __future__ import annotations

import io
import sys
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, BinaryIO, Callable, Iterator

from .model import InputNote
from .sources import looks_binary

BLOCK = 4 << 20
MAX_LINE = 1 << 20          # a line still without a newline after this many carried bytes is cut there
SWITCH_INTERVAL = 0.0005    # seconds: sys.setswitchinterval while a scan reads (the helper hands each answer back
                            # at once instead of waiting the default 5 ms for the GIL)

#: what the caller gives for each block: called in this thread just before the block is handed to the
#: helper, it returns the function the helper runs on (buffer, end)
Search = Callable[[], Callable[[bytearray, int], Any]]


class Block:
    """``buf[:end]``: whole lines (the last may lack its newline when the input ends there)."""
    __slots__ = ("buf", "view", "end", "data_end", "got", "notes", "skip")

    def __init__(self, buf: bytearray, view: memoryview):
        self.buf, self.view = buf, view
        self.end = self.data_end = self.got = 0
        self.notes: list[InputNote] = []
        self.skip = False


class Reader:
    """Two reusable buffers and a helper thread for the inputs of one scan (use as a context manager).

    After :meth:`blocks` has run over an input: ``size`` (bytes read), ``cut_lines``, ``notes`` (empty,
    binary, read errors) and ``skipped`` (nothing of the input is text to scan)."""

    def __init__(self) -> None:
        self._bufs: list[bytearray] = []
        self._views: list[memoryview] = []
        self._pool: ThreadPoolExecutor | None = None
        self._interval: float | None = None
        self.size = self.cut_lines = 0
        self.notes: list[InputNote] = []
        self.skipped = False
        self._regular = False

    def __enter__(self) -> "Reader":
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._interval, SWITCH_INTERVAL))
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        for v in self._views:
            v.release()
        self._views, self._bufs = [], []
        if self._interval is not None:
            sys.setswitchinterval(self._interval)

    def blocks(self, name: str, stream: BinaryIO, search: Search | None, regular: bool = False
               ) -> Iterator[tuple[Block, Any]]:
        """(block, answer of the search for it) for each block of ``stream``, in order; without a search
        (None) the blocks are read in this thread, the answer None. ``regular``: the stream reads a regular
        file (a short read there is its end: no read after it to find that out)."""
        self._regular = regular and type(stream) is io.BufferedReader
        self.size = self.cut_lines = 0
        self.notes = []
        self.skipped = False
        if not self._bufs:
            self._bufs = [bytearray(max(BLOCK, MAX_LINE) + BLOCK) for _ in range(2)]
            self._views = [memoryview(b) for b in self._bufs]
        blk = self._block(name, stream, 0, None)
        self.notes.extend(blk.notes)
        if blk.skip or not blk.end:
            self.skipped = True
            return
        k = 0
        if search is None:
            while True:
                yield blk, None
                if not blk.got:
                    return
                k ^= 1
                blk = self._block(name, stream, k, blk)
                self.notes.extend(blk.notes)
                if not blk.end:
                    return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="ad-scan")
        job: Future | None = self._pool.submit(search(), blk.buf, blk.end)
        try:
            while True:
                nxt = None
                if blk.got:
                    k ^= 1
                    nxt = self._block(name, stream, k, blk)
                assert job is not None
                found = job.result()
                job = None
                if nxt is not None and nxt.end:
                    job = self._pool.submit(search(), nxt.buf, nxt.end)
                yield blk, found
                if nxt is None:
                    break
                self.notes.extend(nxt.notes)
                if job is None:
                    break
                blk = nxt
        finally:
            if job is not None:         # the caller stopped early: the helper must be done with the buffer
                job.cancel() or job.exception()

    def _block(self, name: str, stream: BinaryIO, k: int, prev: Block | None) -> Block:
        """The next block in buffer ``k``: the partial line left after ``prev`` (it never holds a newline
        and is shorter than max(BLOCK, MAX_LINE)), then what is read after it, cut after its last newline.
        ``end`` 0: nothing left; ``got`` 0: the input ended (or failed) here."""
        buf, view = self._bufs[k], self._views[k]
        blk = Block(buf, view)
        first = prev is None
        n = 0
        if prev is not None:
            n = prev.data_end - prev.end
            if n:
                view[:n] = prev.view[prev.end:prev.data_end]
        while True:
            try:
                with view[n:n + BLOCK] as into:
                    got = stream.readinto(into) or 0
            except (OSError, EOFError, zlib.error) as exc:
                blk.notes.append(InputNote(name, "error", f"stopped reading after {self.size} bytes: {exc}"))
                got = 0
            if first:
                first = False
                if not got:
                    blk.notes.append(InputNote.of(name, "warning", "empty"))
                    blk.skip = True
                    return blk
                if looks_binary(buf, got):
                    blk.notes.append(InputNote.of(name, "warning", "binary"))
                    blk.skip = True
                    return blk
            self.size += got
            if got:
                data_end = n + got
                cut = buf.rfind(b"\n", 0, data_end)
                if cut < 0:
                    if data_end < MAX_LINE:
                        n = data_end
                        continue
                    cut = data_end - 1
                    self.cut_lines += 1
                end = cut + 1
                if got < BLOCK and end == data_end and self._regular:
                    got = 0     # BufferedReader.readinto reads until the room is full or the file ends: it ended here
            else:
                end = data_end = n
            break
        blk.end, blk.data_end, blk.got = end, data_end, got
        return blk
