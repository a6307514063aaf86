"""Snapshots: one versioned JSON file with every raw answer the probes got from a machine.

``take_snapshot()`` runs the probes on the real machine through a ``RecordingSystem``, makes the
recording private (environment allowlist, serial numbers / UUIDs removed, host name only on request)
and computes the facts from the private recording, so that ``--replay FILE`` gives exactly the
facts stored in the file. The file is written with mode 0600.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

from ascend_doctor.kb.language.facts import FactSet
from .files import write_file
from .system import RealSystem, RecordingSystem, ReplaySystem, System, call_key, scrub
from .system.replay import map_texts

FORMAT = "ascend-doctor-snapshot"
VERSION = 1


class SnapshotError(Exception):
    """A snapshot file cannot be read or is not a snapshot."""


@dataclass
class Snapshot:
    meta: dict[str, Any]
    calls: dict[str, dict[str, Any]]
    facts: list[dict[str, Any]]
    path: str = ""

    @property
    def python(self) -> str | None:
        return self.meta.get("python")

    def system(self) -> ReplaySystem:
        return ReplaySystem(self.calls, origin=f"replay:{self.path or 'snapshot'}")

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "meta": self.meta, "facts": self.facts,
                           "calls": self.calls}, ensure_ascii=False, indent=1, sort_keys=True)


def redaction_report(raw: dict[str, dict[str, Any]], kept: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What a private snapshot left out of the recording: answers dropped per kind (other processes'
    open files, unrelated mounts), environment variable names dropped, outputs changed (serials, UUIDs)."""
    def kind(k: str) -> str:
        return json.loads(k)[0]

    dropped: dict[str, int] = {}
    for k in raw:
        if k not in kept:
            dropped[kind(k)] = dropped.get(kind(k), 0) + 1
    env_key = call_key("env")
    env_raw = (raw.get(env_key) or {}).get("value") or {}
    env_kept = (kept.get(env_key) or {}).get("value") or {}
    changed = sorted({kind(k) for k in kept if k in raw and kept[k] != raw[k] and kind(k) != "env"})
    return {"answers_kept": len(kept), "answers_dropped": dropped,
            "env_kept": sorted(env_kept), "env_dropped": sorted(set(env_raw) - set(env_kept)),
            "env_values_changed": sorted(n for n in env_kept if env_kept[n] != env_raw.get(n)),
            "outputs_changed": changed}


#: what a snapshot holds besides versions and settings, said in its meta (the fleet check needs addresses)
HOLDS = ("device (NPU NIC) and host addresses, /etc/hccn.conf and the rank table named by RANK_TABLE_FILE (every "
         "server's addresses): kept for 'ascend-doctor fleet'; keep the file for your own cluster, not for public "
         "tickets")


def take_snapshot(system: System | None = None, python: str | None = None, timeout: float = 10.0,
                  include_hostname: bool = False, report: dict | None = None, node: str | None = None,
                  labels: dict[str, str] | None = None, redact: Callable[[str], str] | None = None) -> Snapshot:
    """``redact``: applied to every recorded output and file text after the snapshot's own scrubbing (the
    support bundle removes secrets from free text too); the facts are computed after it."""
    from ascend_doctor import __version__

    from .probes import collect
    from .probes.host import env_allowed

    inner = system or RealSystem()
    rec = RecordingSystem(inner)
    python = python or sys.executable
    collect(rec, python=python, timeout=timeout)
    calls = scrub(rec.calls, env_allowed, include_hostname=include_hostname)
    if redact is not None:
        calls = map_texts(calls, redact)
    if report is not None:
        report.update(redaction_report(rec.calls, calls))
    facts = collect(ReplaySystem(calls), python=python, timeout=timeout)
    meta = {"tool_version": __version__, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "python": python,
            "timeout": timeout, "origin": inner.origin, "include_hostname": include_hostname,
            "collected_at": round(time.time(), 3), "holds": HOLDS}
    if node:
        meta["node"] = node
    if labels:
        meta["labels"] = dict(labels)
    return Snapshot(meta=meta, calls=calls, facts=facts.to_list())


def write_snapshot(snap: Snapshot, path: str, overwrite: bool = True) -> None:
    """Write with mode 0600, whole or not at all (see ``files.write_file``)."""
    write_file(path, snap.to_json() + "\n", mode=0o600, overwrite=overwrite)


#: a snapshot ascend-doctor writes is tens of kB (command outputs are capped at 8 MiB each); a larger
#: file is refused before it is parsed, so a foreign or doctored one cannot take minutes and gigabytes
MAX_SNAPSHOT = 64 * 1024 * 1024


def load_snapshot(path: str) -> Snapshot:
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SNAPSHOT + 1)
        if len(raw) > MAX_SNAPSHOT:
            raise SnapshotError(f"{path} is larger than {MAX_SNAPSHOT >> 20} MiB: not a snapshot ascend-doctor wrote")
        data = json.loads(raw.decode("utf-8"))
    except FileNotFoundError as exc:
        raise SnapshotError(f"snapshot file not found: {path}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise SnapshotError(f"cannot read snapshot {path}: {getattr(exc, 'strerror', None) or exc}") from exc
    except json.JSONDecodeError as exc:
        raise SnapshotError(f"{path} is not a snapshot (invalid JSON at line {exc.lineno})") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SnapshotError(f"{path} is not an ascend-doctor snapshot")
    if data.get("version") != VERSION:
        raise SnapshotError(f"{path} has snapshot format version {data.get('version')!r}; "
                            f"this ascend-doctor reads version {VERSION}")
    calls, facts, meta = data.get("calls"), data.get("facts"), data.get("meta")
    if not isinstance(calls, dict) or not isinstance(facts, list) or not isinstance(meta, dict):
        raise SnapshotError(f"{path}: snapshot is incomplete (calls, facts or meta missing)")
    return Snapshot(meta=meta, calls=calls, facts=facts, path=path)


def stored_facts(snap: Snapshot) -> FactSet:
    return FactSet.from_list(snap.facts, origin=f"snapshot:{snap.path}")
