"""Values derived from the knowledge (the problems as the matcher reads them, the retriever's index, the
normalised symptom phrases and their words, the identifiers each problem names, the signatures' near-miss
anchors), kept in a JSON file beside the database:
computing them costs a few tenths of a second per run, reading them a few milliseconds. A file made from other
knowledge (its content hash) or by another shape of the index (its version) is ignored and replaced; nothing is
written when the directory is read-only."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable


def cached_index(kb, name: str, version: int, build: Callable[[], Any], valid: Callable[[Any], bool]) -> Any:
    """``build()``, or what it returned for the same knowledge before (``valid`` checks its shape)."""
    if not kb.content_hash:
        return build()
    key = f"{version}:{kb.content_hash}"
    path = Path(kb.path).with_suffix(f".{name}.json")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") == key and valid(data.get("index")):
            return data["index"]
    except (OSError, ValueError):
        pass
    index = build()
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"key": key, "index": index}, fh, ensure_ascii=False)
        os.replace(tmp, path)
    except OSError:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
    return index
