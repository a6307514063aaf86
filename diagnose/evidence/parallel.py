"""Many files at once: worker processes scan whole files, the results are merged in input order.

A worker scans one file with the serial code (scan.py) from a fresh state and sends back what it kept
(lines with their dedupe keys, codes, stalls, notes, the head as bytes). The main process merges the
files in the order the serial scan reads them, and the merge is the serial scan's own result: line
counts, ranks and earliest times add up, orders are renumbered, codes are counted as the serial scan
counts them. Where the serial scan would have behaved differently because of what earlier inputs left
(the error words switched off after MAX_GENERIC_HITS, the MAX_DISTINCT cap, a code first met on a line
that an earlier file already kept, two inputs of the same name) the main process scans that file itself
instead. Inputs that are not regular files (stdin, pasted text, pipes), and files smaller than
MIN_FILE_BYTES (a plog folder holds thousands of small ones), are always read here, in order.
At most 2 x jobs results wait to be merged, so memory stays flat however many files there are.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Iterable

from . import scan as scan_mod
from .model import Evidence, InputNote, SignaturePattern
from .reader import Reader
from .sources import Source, file_source

#: below this many bytes of regular files, starting processes costs more than it saves
MIN_BYTES = 8 << 20
MIN_FILES = 2
#: a smaller file is read in this process, in its turn: sending its result back costs about as much as reading it
MIN_FILE_BYTES = 1 << 20


def default_jobs() -> int:
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 16))


@dataclass
class Partial:
    """One file scanned alone (see the module doc)."""
    lines: list = field(default_factory=list)          # (dedupe key, EvidenceLine) in reading order
    codes: dict = field(default_factory=dict)          # (family, code) -> CodeHit
    code_seen: dict = field(default_factory=dict)      # (family, code) -> kept occurrences
    stalls: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    head: bytes | None = None
    bytes_read: int = 0
    lines_read: int = 0
    generic_hits: int = 0


# -- in a worker -------------------------------------------------------------------------------------
_scanner: scan_mod.Scanner | None = None
_reader: Reader | None = None


def _init(signatures: list[SignaturePattern]) -> None:
    global _scanner, _reader
    _scanner = scan_mod.Scanner(signatures)
    _reader = Reader().__enter__()      # its buffers serve every file of this worker; the process exit frees them


def _scan_file(path: str, name: str) -> Partial:
    assert _scanner is not None and _reader is not None
    sc = _scanner
    sc._generic_hits = 0
    ev = Evidence()
    st = scan_mod._State(ev, partial=True)
    sc._scan_source(file_source(path, name), st, _reader)
    return Partial(lines=list(st.lines.items()), codes=st.codes, code_seen=st.code_seen or {}, stalls=ev.stalls,
                   notes=ev.notes, head=st.raw_heads[0][1] if st.raw_heads else None, bytes_read=ev.bytes_read,
                   lines_read=ev.lines_read, generic_hits=sc._generic_hits)


# -- in the main process ---------------------------------------------------------------------------
def plan(sources: Iterable[Source], ev: Evidence) -> tuple[list[tuple[list[InputNote], Source]], list[InputNote]]:
    """The sources, each with the notes the directory walk made just before it (the serial scan shows
    them there), and the notes made after the last one."""
    out = []
    it = iter(sources)
    while True:
        before = len(ev.notes)
        try:
            src = next(it)
        except StopIteration:
            after = ev.notes[before:]
            del ev.notes[before:]
            return out, after
        out.append((ev.notes[before:], src))
        del ev.notes[before:]


def worth_it(items: list[tuple[list[InputNote], Source]], jobs: int) -> bool:
    files = [s for _, s in items if _to_worker(s)]
    return jobs > 1 and len(files) >= MIN_FILES and sum(s.size for s in files) >= MIN_BYTES


def _to_worker(src: Source) -> bool:
    return bool(src.path) and src.size >= MIN_FILE_BYTES


def scan(scanner: scan_mod.Scanner, items: list[tuple[list[InputNote], Source]], st: "scan_mod._State",
         jobs: int) -> None:
    """Scan ``items`` (from :func:`plan`) into ``st`` with ``jobs`` worker processes."""
    ctx = multiprocessing.get_context("fork" if threading.active_count() == 1 else "forkserver")
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init, initargs=(scanner.signatures,)) as pool, \
            Reader() as rd:
        pending: dict[int, Future] = {}
        todo = iter(i for i, (_, s) in enumerate(items) if _to_worker(s))
        ahead = 2 * jobs

        def feed() -> None:
            while len(pending) < ahead:
                i = next(todo, None)
                if i is None:
                    return
                src = items[i][1]
                pending[i] = pool.submit(_scan_file, src.path, src.name)

        feed()
        names: set[str] = set()
        for i, (pre, src) in enumerate(items):
            st.ev.notes.extend(pre)
            st.ev.inputs.append(src.name)
            part = None
            job = pending.pop(i, None)
            if job is not None:
                feed()
                try:
                    part = job.result()
                except Exception:       # a worker that died: this file is read here
                    part = None
            if part is None or src.name in names or not merge(scanner, st, src.name, part):
                scanner._scan_source(src, st, rd)
            names.add(src.name)
            if pending and saturated(scanner, st):
                # what earlier inputs left changes how every later one is read: the rest is read here
                for job in pending.values():
                    job.cancel()
                pending.clear()
                todo = iter(())
        for job in pending.values():
            job.cancel()


def saturated(scanner: scan_mod.Scanner, st: "scan_mod._State") -> bool:
    """No later file can be merged: the error words are off, or the distinct lines are (nearly) at their cap."""
    return st.generic_off or scanner._generic_hits >= scan_mod.MAX_GENERIC_HITS \
        or len(st.lines) >= scan_mod.MAX_DISTINCT * 0.9


def merge(scanner: scan_mod.Scanner, st: "scan_mod._State", name: str, part: Partial) -> bool:
    """Add one file's result to ``st`` as the serial scan would have read it; False (and nothing changed)
    when the serial scan would have read it differently (see the module doc)."""
    if scanner._generic_hits + part.generic_hits > scan_mod.MAX_GENERIC_HITS or st.generic_off:
        return False
    if len(st.lines) + len(part.lines) >= scan_mod.MAX_DISTINCT:
        return False
    for key, ln in part.lines:
        # a line already kept from an earlier input: its codes count only where they were already found
        if key in st.lines and any(ck not in st.codes for ck in ln.codes):
            return False
    known = set(st.codes)
    order_of = {0: st.order}        # the file's own order -> the merged order at that point
    for key, ln in part.lines:
        old = st.lines.get(key)
        if old is None:
            st.order += 1
            order_of[ln.order] = st.order
            ln.order = st.order
            st.lines[key] = ln
            continue
        order_of[ln.order] = st.order
        old.count += ln.count
        old.ranks |= ln.ranks
        if ln.time and (not old.time or ln.time < old.time):
            old.time = ln.time
    for ck, hit in part.codes.items():
        if ck in known:
            st.codes[ck].count += part.code_seen.get(ck, 0)
        else:
            hit.order = order_of[hit.order]
            st.codes[ck] = hit
    scanner._generic_hits += part.generic_hits
    ev = st.ev
    ev.notes.extend(part.notes)
    ev.bytes_read += part.bytes_read
    ev.lines_read += part.lines_read
    for s in part.stalls:
        s.order = _at(order_of, s.order)
    ev.stalls.extend(part.stalls)
    if part.head is not None:
        left = min(scan_mod.HEAD_BYTES, max(0, scan_mod.HEAD_TOTAL - st.head_used))
        if left > 0:
            st.add_head(name, part.head[:left])
    return True


def _at(order_of: dict[int, int], local: int) -> int:
    """The merged order of the file's own order ``local`` (the last kept line at or before it)."""
    while local not in order_of:
        local -= 1
    return order_of[local]

