"""The machine the TUI looks at (a MachineSpec: live, --sim profile or --replay snapshot), its facts cached."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from ..services.machine import MachineSpec


class Machine:
    def __init__(self, spec: MachineSpec):
        self.spec = spec
        self.label = spec.label
        self._facts = None
        self._lock = threading.Lock()

    def facts(self, progress=None, refresh: bool = False):
        """The FactSet (collected once, in a worker thread; ``refresh`` probes again)."""
        with self._lock:
            if self._facts is None or refresh:
                self._facts = self.spec.facts(on_probe=progress)
            return self._facts

    def export_snapshot(self, directory: str | os.PathLike | None = None) -> Path:
        """Write a private snapshot (env allowlist, no serials, no hostname, mode 0600) and return its path."""
        from ..snapshot import write_snapshot

        snap = self.spec.snapshot()
        stem = Path(directory or os.getcwd()) / f"ascend-doctor-snapshot-{time.strftime('%Y%m%d-%H%M%S')}"
        for n in range(1000):                 # two exports in one second never overwrite each other
            path = stem.with_name(stem.name + (f"-{n}" if n else "") + ".json")
            try:
                write_snapshot(snap, str(path), overwrite=False)
                return path
            except FileExistsError:
                continue
        raise FileExistsError(17, "too many snapshots with this name", str(stem))
