"""Values derived from the knowledge (the problems as the matcher reads them, the retriever's index, the
normalised symptom phrases and their words, the identifiers each problem names, the signatures' near-miss
anchors), kept in a file beside the database:
computing them costs a few tenths of a second per run, reading them a few milliseconds. A file made from other
knowledge (its content hash), by another shape of the index (its version) or by another Python is ignored and
replaced; nothing is written when the directory is read-only.

The file is in ``marshal`` format (about twice as fast to read as JSON: every ``diagnose`` starts by reading
these), one per Python minor version (marshal's format may change between them). Only JSON values are stored
(the index passes through JSON once when it is built), so the reader gets the lists and dicts JSON would give.
marshal is not meant for untrusted data: the file is the database's neighbour, written by this module into the
same directory, and trusted as the database is; a damaged file is rebuilt."""
from __future__ import annotations

import gc
import json
import marshal
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable

#: the Python the file was written by: marshal's format is only promised within a minor version
_PY = f"py{sys.version_info[0]}{sys.version_info[1]}"


@contextmanager
def no_gc():
    """The cyclic garbage collector paused while many acyclic objects are made at once (an index read back, the
    problems made from it): each collection it would start walks every object the process holds (~0.01 s of a
    cold diagnose, spent finding no garbage). Left as it was when it was already paused."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def cached_index(kb, name: str, version: int, build: Callable[[], Any], valid: Callable[[Any], bool]) -> Any:
    """``build()``, or what it returned for the same knowledge before (``valid`` checks its shape)."""
    if not kb.content_hash:
        return build()
    key = f"{version}:{kb.content_hash}"
    path = Path(kb.path).with_suffix(f".{name}.{_PY}.marshal")
    try:
        with no_gc():
            data = marshal.loads(path.read_bytes())
        if isinstance(data, dict) and data.get("key") == key and valid(data.get("index")):
            return data["index"]
    except (OSError, ValueError, EOFError, TypeError):
        pass
    index = json.loads(json.dumps(build(), ensure_ascii=False))    # JSON values only (tuples as lists)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(marshal.dumps({"key": key, "index": index}))
        os.replace(tmp, path)
        path.with_name(f"{Path(kb.path).stem}.{name}.json").unlink(missing_ok=True)    # the JSON file of earlier releases
    except OSError:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
    return index
