"""Many files at once: worker processes scan files, the results are merged in input order.

With ``jobs`` processes, this one and jobs - 1 workers share the units: every jobs-th unit is read here, in
its turn, straight into the result (the serial scan itself), while the workers read the others.

A worker scans one unit, a large file or a run of consecutive small ones (a plog folder holds thousands
of files of a few KB), with the serial code (scan.py) from a fresh state, and sends back what it kept
(lines with their dedupe keys, codes, stalls, and per file its notes and head as bytes). The main process
merges the units in the order the serial scan reads them, and the merge is the serial scan's own result:
line counts, ranks and earliest times add up, orders are renumbered, codes are counted as the serial scan
counts them, and past the MAX_DISTINCT cap a line new to the merged result is kept only if the serial scan
keeps such a line there (a signature or code line). Where the serial scan would have behaved differently
because of what earlier inputs left (the error words switched off after MAX_GENERIC_HITS, a code first met
on a line that an earlier file already kept, a unit that reached the cap on its own, two inputs of the same
name) the main process scans that unit itself instead. Inputs that are not regular files (stdin, pasted
text, pipes) are always read here, in order. At most 2 x (jobs - 1) units wait to be merged, so memory
stays flat however many files there are.
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable

from . import scan as scan_mod
from .bulk import KEPT_PAST_CAP
from .model import Evidence, InputNote, SignaturePattern
from .reader import Reader
from .sources import Source, file_source

#: below this many bytes of regular files, starting processes costs more than it saves
MIN_BYTES = 8 << 20
MIN_FILES = 2
#: a file this large is a unit of its own; smaller consecutive files are sent together, up to UNIT_BYTES
#: and UNIT_FILES a unit (one file's result costs about as much to send back as to read)
MIN_FILE_BYTES = 1 << 20
UNIT_BYTES = 1 << 20
UNIT_FILES = 256


#: the fewest CPUs on which workers pay: on two, one worker beside this process was slower than this process
#: alone on every folder measured (1,000 and 10,000 plog files, four 100 MB logs; bench/NOTES.md, session 10)
MIN_CPUS = 3


def default_jobs() -> int:
    """One process per CPU (up to 16), or this one alone where there are fewer than MIN_CPUS."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return 1 if n < MIN_CPUS else min(n, 16)


@dataclass
class Partial:
    """One unit of files scanned alone (see the module doc)."""
    lines: list = field(default_factory=list)          # (dedupe key, EvidenceLine) in reading order
    codes: dict = field(default_factory=dict)          # (family, code) -> CodeHit
    code_seen: dict = field(default_factory=dict)      # (family, code) -> kept occurrences
    stalls: list = field(default_factory=list)
    files: list = field(default_factory=list)          # per file of the unit: (its notes, its head as bytes or None)
    last_time: dict = field(default_factory=dict)      # file name -> the time of its last timed line
    bytes_read: int = 0
    lines_read: int = 0
    generic_hits: int = 0
    generic_off: bool = False                          # scanned with the error words off from its start
    capped: bool = False                               # scanned past the cap (frozen keys)
    dropped: set = field(default_factory=set)          # then: the keys of the lines not kept


# -- in a worker -------------------------------------------------------------------------------------
_scanner: scan_mod.Scanner | None = None
_reader: Reader | None = None


def _init(signatures: list[SignaturePattern]) -> None:
    global _scanner, _reader
    _scanner = scan_mod.Scanner(signatures)
    _reader = Reader().__enter__()      # its buffers serve every file of this worker; the process exit frees them


def _scan_files(files: list[tuple[str, str, int]], generic_off: bool, frozen: str | None, head_left: int) -> Partial:
    """Scan ``files`` ((path, name, size) in reading order) into one Partial, from a fresh state (the error
    words already off when ``generic_off``; ``frozen``: the file of the keys the merged result held when it
    reached the cap, past which only lines of those keys and signature and code lines are kept; ``head_left``:
    the merged result's _State.head_left() when the unit was sent, no less than what its merge can take)."""
    assert _scanner is not None and _reader is not None
    sc = _scanner
    sc._generic_hits = 0
    ev = Evidence()
    st = scan_mod._State(ev, partial=True)
    st.generic_off = generic_off
    st.head_used = scan_mod.HEAD_TOTAL - head_left     # a partial state never adds to it: each file's head is cut there
    if frozen is not None:
        st.frozen = _frozen_keys(frozen)
    per_file = []
    for path, name, size in files:
        notes, heads = len(ev.notes), len(st.raw_heads)
        sc._scan_source(file_source(path, name, size), st, _reader)
        per_file.append((ev.notes[notes:], st.raw_heads[heads][1] if len(st.raw_heads) > heads else None))
    st.settle()
    return Partial(lines=list(st.lines.items()), codes=st.codes, code_seen=st.code_seen or {}, stalls=ev.stalls,
                   files=per_file, last_time=st.last_time, bytes_read=ev.bytes_read, lines_read=ev.lines_read,
                   generic_hits=sc._generic_hits, generic_off=generic_off, capped=frozen is not None,
                   dropped=st.dropped)


_frozen: tuple[str, frozenset[str]] = ("", frozenset())


def _frozen_keys(path: str) -> frozenset[str]:
    global _frozen
    if _frozen[0] != path:
        with open(path, "rb") as fh:
            _frozen = (path, frozenset(pickle.load(fh)))
    return _frozen[1]


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
    files = [s for _, s in items if s.path]
    return jobs > 1 and len(files) >= MIN_FILES and sum(s.size for s in files) >= MIN_BYTES


def units(items: list[tuple[list[InputNote], Source]]) -> list[list[int]]:
    """The places of ``items`` sent to the workers, as units read in order: a file of MIN_FILE_BYTES or
    more alone, a run of consecutive smaller files together up to UNIT_BYTES and UNIT_FILES."""
    out: list[list[int]] = []
    run: list[int] = []
    run_bytes = 0
    for i, (_, src) in enumerate(items):
        if not src.path or src.size >= MIN_FILE_BYTES:
            if run:
                out.append(run)
                run, run_bytes = [], 0
            if src.path:
                out.append([i])
            continue
        run.append(i)
        run_bytes += src.size
        if run_bytes >= UNIT_BYTES or len(run) >= UNIT_FILES:
            out.append(run)
            run, run_bytes = [], 0
    if run:
        out.append(run)
    return out


def scan(scanner: scan_mod.Scanner, items: list[tuple[list[InputNote], Source]], st: "scan_mod._State",
         jobs: int) -> None:
    """Scan ``items`` (from :func:`plan`) into ``st`` with ``jobs`` processes: this one and jobs - 1 workers.
    Every jobs-th unit is read here, in its turn, into ``st`` itself (the serial scan's own reading); the
    others are read by the workers meanwhile and merged."""
    ctx = multiprocessing.get_context("fork" if threading.active_count() == 1 else "forkserver")
    plan_units = units(items)
    unit_at = {u[0]: u for u in plan_units}         # the first item of each unit -> the unit
    workers = max(1, jobs - 1)
    own = {u[0] for n, u in enumerate(plan_units) if jobs > 1 and n % jobs == 0}     # the units read here
    with ExitStack() as stack:
        frozen = _Frozen()
        stack.callback(frozen.remove)           # after the workers are gone (the stack unwinds in reverse)
        pool = stack.enter_context(ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init,
                                                       initargs=(scanner.signatures,)))
        rd = stack.enter_context(Reader())
        pending: dict[int, Future] = {}
        todo = [u for u in reversed(plan_units) if u[0] not in own]     # units not sent yet, the next one last
        ahead = 2 * workers

        def feed() -> None:
            while len(pending) < ahead and todo:
                u = todo.pop()
                pending[u[0]] = pool.submit(_scan_files, [(items[i][1].path, items[i][1].name, items[i][1].size)
                                                          for i in u], st.generic_off, frozen.path, st.head_left())

        def here(i: int) -> None:
            pre, src = items[i]
            st.ev.notes.extend(pre)
            st.ev.inputs.append(src.name)
            scanner._scan_source(src, st, rd)
            names.add(src.name)

        switched = st.generic_off
        feed()
        names: set[str] = set()
        i = 0
        while i < len(items):
            feed()
            unit = unit_at.get(i)
            job = pending.pop(i, None) if unit else None
            if job is None:
                for k in unit if unit and i in own else [i]:
                    here(k)
                i = k + 1
            else:
                try:
                    part = job.result()
                except Exception:       # a worker that died: the unit is read here
                    part = None
                unit_items = [items[k] for k in unit]
                if part is None or not merge(scanner, st, unit_items, part, names, frozen.count):
                    for k in unit:
                        here(k)
                i = unit[-1] + 1
            if frozen.path is None and len(st.lines) >= scan_mod.MAX_DISTINCT:
                frozen.freeze(st)           # units sent from now on keep only what the capped result can take
            if st.generic_off and not switched:
                # the error words were switched off: every unit sent with them on is read again without them
                switched = True
                for first in sorted(pending, reverse=True):
                    pending.pop(first).cancel()
                    todo.append(unit_at[first])
                feed()
        for job in pending.values():
            job.cancel()


def merge(scanner: scan_mod.Scanner, st: "scan_mod._State", unit: list[tuple[list[InputNote], Source]],
          part: Partial, names: set[str], frozen_count: int = 0) -> bool:
    """Add one unit's result to ``st`` as the serial scan would have read its files; False (and nothing
    changed) when the serial scan would have read it differently (see the module doc)."""
    unit_names = [src.name for _, src in unit]
    if len(set(unit_names)) < len(unit_names) or not names.isdisjoint(unit_names):
        return False
    if part.generic_off != st.generic_off:
        return False        # read with the error words on, and they are off here now (or the reverse)
    if not st.generic_off and scanner._generic_hits + part.generic_hits > scan_mod.MAX_GENERIC_HITS:
        return False        # the error words were switched off inside the unit
    if part.capped:
        # read past the cap: a line it left out is one the serial scan keeps only if its key came in after
        # the keys were frozen (a signature or code line of the same key)
        if part.dropped and not part.dropped.isdisjoint(islice(reversed(st.lines), len(st.lines) - frozen_count)):
            return False
    elif len(part.lines) >= scan_mod.MAX_DISTINCT:
        return False        # the unit reached the cap on its own: it may have left out a line kept here
    for key, ln in part.lines:
        # a line already kept from an earlier input: its codes count only where they were already found
        if key in st.lines and any(ck not in st.codes for ck in ln.codes):
            return False
    st.settle()
    known = set(st.codes)
    order_of = {0: st.order}        # the unit's own order -> the merged order at that point
    cap = scan_mod.MAX_DISTINCT
    for key, ln in part.lines:
        old = st.lines.get(key)
        if old is None:
            if len(st.lines) >= cap and not (ln.kinds & KEPT_PAST_CAP):
                order_of[ln.order] = st.order       # past the cap the serial scan does not keep it (it has no code)
                continue
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
    st.last_time.update(part.last_time)
    ev = st.ev
    ev.bytes_read += part.bytes_read
    ev.lines_read += part.lines_read
    for s in part.stalls:
        s.order = _at(order_of, s.order)
    ev.stalls.extend(part.stalls)
    for (pre, src), (notes, head) in zip(unit, part.files):
        ev.notes.extend(pre)
        ev.inputs.append(src.name)
        ev.notes.extend(notes)
        if head is not None:
            left = st.head_left()
            if left > 0:
                st.add_head(src.name, head[:left])
    names.update(unit_names)
    return True


class _Frozen:
    """The keys of the merged result when it reached the cap, in a temporary file the workers read once."""

    def __init__(self) -> None:
        self.path: str | None = None
        self.count = 0

    def freeze(self, st: "scan_mod._State") -> None:
        fd, path = tempfile.mkstemp(prefix="ascend-doctor-keys-")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(list(st.lines), fh, protocol=pickle.HIGHEST_PROTOCOL)
        self.path, self.count = path, len(st.lines)

    def remove(self) -> None:
        if self.path is not None:
            try:
                os.unlink(self.path)
            except OSError:
                pass


def _at(order_of: dict[int, int], local: int) -> int:
    """The merged order of the unit's own order ``local`` (the last kept line at or before it)."""
    while local not in order_of:
        local -= 1
    return order_of[local]
