"""The manifest of a bundle (everything collected, left out and why, cut, redacted) and the ``.tar.gz``.

The archive holds one folder, ``ascend-doctor-bundle-<time>/``, with ``manifest.json`` first; every member
is a regular file, mode 0600, owned by uid 0 with no user or group name (the archive says nothing about
who made it). Nothing is escaped or changed at write time: the texts were redacted when collected.
"""
from __future__ import annotations

import io
import json
import tarfile
import time
from typing import Any

from .model import Entry

FORMAT = "ascend-doctor-bundle"
VERSION = 1


def redaction_totals(entries: list[Entry]) -> dict[str, int]:
    totals: dict[str, int] = {}
    for e in entries:
        for kind, n in e.redactions.items():
            totals[kind] = totals.get(kind, 0) + n
    return dict(sorted(totals.items()))


def manifest(meta: dict[str, Any], entries: list[Entry], snapshot_redaction: dict[str, Any]) -> dict[str, Any]:
    kept = [e for e in entries if e.kept]
    return {
        "format": FORMAT, "version": VERSION, "meta": meta,
        "collected": [e.to_dict() for e in kept],
        "skipped": [e.to_dict() for e in entries if not e.kept],
        "truncated": [e.name for e in kept if e.truncated],
        "redacted": {"texts": redaction_totals(entries), "snapshot": snapshot_redaction,
                     "host_name": "kept" if meta.get("include_hostname") else "removed"},
    }


def folder_name(created: float) -> str:
    return "ascend-doctor-bundle-" + time.strftime("%Y%m%d-%H%M%S", time.gmtime(created))


def build(folder: str, the_manifest: dict[str, Any], entries: list[Entry], mtime: float) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        _add(tar, f"{folder}/manifest.json",
             (json.dumps(the_manifest, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), mtime)
        for e in entries:
            if e.kept:
                _add(tar, f"{folder}/{e.name}", e.data, mtime)
    return buf.getvalue()


def _add(tar: tarfile.TarFile, name: str, data: bytes, mtime: float) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), 0o600, int(mtime)
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    tar.addfile(info, io.BytesIO(data))
