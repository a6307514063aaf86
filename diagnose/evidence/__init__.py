"""Evidence readers: logs, directories, .gz files, stdin and pasted text -> Evidence.

    ev = read_evidence(["~/ascend/log/debug/plog", "vllm.log"], text=None, signatures=patterns)

Everything is streamed; see scan.py for how lines are chosen and textfacts.py for the facts read
from the text.
"""
from __future__ import annotations

import gc
import re
from contextlib import contextmanager
from typing import Iterable

from .model import CAUSE, CODE, ERROR_LINE, PROSE, SIGNATURE, CodeHit, Evidence, EvidenceLine, InputNote, SignaturePattern
from .scan import Scanner, prose_lines, report_title
from .sources import Source, expand, text_source

__all__ = ["read_evidence", "Evidence", "EvidenceLine", "CodeHit", "InputNote", "SignaturePattern", "Scanner",
           "CAUSE", "CODE", "ERROR_LINE", "PROSE", "SIGNATURE"]


@contextmanager
def frozen_gc():
    """What the process held before the scan (the knowledge, the modules: ~200,000 objects) set aside from the
    cyclic garbage collector while the scan runs: a full collection the scan's own objects start would walk
    them all for nothing (~0.05 s on a plog folder of 10,000 files). The scan's objects stay collectable, so
    memory stays as it was. Not done when something else froze objects already (gc.freeze is process-wide)."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def read_evidence(paths: Iterable[str] = (), text: str | None = None,
                  signatures: Iterable[SignaturePattern] = (), jobs: int | None = None) -> Evidence:
    """``jobs``: processes reading many files at once (None: one per available CPU, up to 16; 1: this
    process only); the Evidence is the same whatever the number."""
    from .parallel import default_jobs
    from .textfacts import facts_from_text

    ev = Evidence()
    signatures = list(signatures)
    # the words the logs use, from the signatures' literals: where a wrap cut a word or broke between two
    words = frozenset(w.lower() for s in signatures for w in re.findall(r"[A-Za-z]{2,}", s.literal))
    sources: list[Source] = []
    if text is not None:
        sources.append(text_source(text, words=words))
    scanner = Scanner(signatures)

    def all_sources():
        yield from sources
        yield from expand(list(paths), ev.notes, words)

    with frozen_gc():
        scanner.scan(all_sources(), ev, jobs=default_jobs() if jobs is None else jobs)
    seen: set[str] = set()
    for name, head in ev.heads:
        for f in facts_from_text(name, head):
            if f.key not in seen:
                seen.add(f.key)
                ev.facts.append(f)
    ev.prose = prose_lines(ev.heads)
    ev.title = report_title(ev.heads)
    return ev
