"""The support bundle of a machine (``ascend-doctor bundle``): the snapshot, per-device npu-smi queries,
the kernel's Ascend messages and the newest logs, redacted, with a manifest; written as one ``.tar.gz``
(mode 0600, whole or not at all). Read-only on the machine; see ``diagnose/bundle/``."""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from .machine import MachineSpec

DEFAULT_LOG_LIMIT = 32 * 1024 * 1024
MAX_LOG_LIMIT = 1024 ** 3               # the bundle is built in memory
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$", re.I)


def parse_size(text: str) -> int | None:
    """``32M``, ``512k``, ``1G``, ``1048576`` -> bytes (binary units); None when it is not a size up to 1G."""
    m = _SIZE.match(str(text))
    if not m:
        return None
    n = int(float(m.group(1)) * 1024 ** " kmg".index(m.group(2).lower() or " "))
    return n if n <= MAX_LOG_LIMIT else None


@dataclass
class Bundle:
    meta: dict[str, Any]
    entries: list = field(default_factory=list)            # bundle.model.Entry, in archive order
    snapshot_redaction: dict[str, Any] = field(default_factory=dict)

    @property
    def kept(self) -> list:
        return [e for e in self.entries if e.kept]

    @property
    def skipped(self) -> list:
        return [e for e in self.entries if not e.kept]

    def manifest(self) -> dict[str, Any]:
        from ..bundle.archive import manifest

        return manifest(self.meta, self.entries, self.snapshot_redaction)

    def archive(self) -> bytes:
        from ..bundle.archive import build, folder_name

        return build(folder_name(self.meta["created_at"]), self.manifest(), self.entries, self.meta["created_at"])


def collect_bundle(machine: MachineSpec, *, log_limit: int = DEFAULT_LOG_LIMIT, include_hostname: bool = False,
                   exports: tuple[str, ...] = ()) -> Bundle:
    """Everything a support bundle holds, collected from ``machine`` (nothing is written)."""
    system, python = machine.system()
    return collect_from(system, python, machine.timeout, log_limit=log_limit, include_hostname=include_hostname,
                        exports=exports)


def collect_from(system, python: str | None, timeout: float, *, log_limit: int = DEFAULT_LOG_LIMIT,
                 include_hostname: bool = False, exports: tuple[str, ...] = ()) -> Bundle:
    """``collect_bundle`` on a ``System`` (the tests plant secrets in one)."""
    from ascend_doctor import __version__
    from ascend_doctor.kb.language.facts import FactSet

    from ..bundle import devices, kernel, logs
    from ..bundle.model import Entry
    from ..bundle.redact import Redactor
    from ..snapshot import take_snapshot

    redactor = Redactor(system.env(), system.uname().nodename, keep_hostname=include_hostname)
    snapshot_texts: dict[str, int] = {}

    def redact(text: str) -> str:
        text, counts = redactor.redact(text)
        for kind, n in counts.items():
            snapshot_texts[kind] = snapshot_texts.get(kind, 0) + n
        return text

    report: dict[str, Any] = {}
    snap = take_snapshot(system, python=python, timeout=timeout, include_hostname=include_hostname,
                         report=report, redact=redact)
    facts = FactSet.from_list(snap.facts)
    bad = sum(1 for f in snap.facts if f["status"] != "ok")
    entries = [Entry(kind="snapshot", source="ascend-doctor snapshot", name="snapshot.json",
                     data=(snap.to_json() + "\n").encode("utf-8"), redactions=snapshot_texts,
                     info={"facts": len(snap.facts), "facts_not_ok": bad, "answers": len(snap.calls)})]
    entries += devices.collect(system, facts, timeout, redactor)
    entries += kernel.collect(system, timeout, redactor)
    entries += logs.collect(system, log_limit, redactor, exports=tuple(exports))
    now = time.time()
    meta = {"tool_version": __version__, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
            "created_at": round(now, 3), "origin": system.origin, "include_hostname": include_hostname,
            "log_limit": log_limit, "timeout": timeout}
    return Bundle(meta=meta, entries=entries, snapshot_redaction=report)


def write_bundle(bundle: Bundle, path: str, overwrite: bool = False) -> int:
    """Write the archive to ``path`` with mode 0600, whole or not at all; an existing file is refused
    unless ``overwrite`` (a link at ``path`` is replaced, never written through). Returns its size."""
    from ..files import write_file

    data = bundle.archive()
    write_file(path, data, mode=0o600, overwrite=overwrite)
    return len(data)
