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

    def suggested_snapshot(self, directory: str | os.PathLike) -> Path:
        """A snapshot file name in ``directory`` that does not exist yet (what the save dialog offers)."""
        stem = Path(directory) / f"ascend-doctor-snapshot-{time.strftime('%Y%m%d-%H%M%S')}"
        for n in range(1000):                 # two exports in one second never overwrite each other
            path = stem.with_name(stem.name + (f"-{n}" if n else "") + ".json")
            if not path.exists():
                return path
        raise FileExistsError(17, "too many snapshots with this name", str(stem))

    def export_snapshot(self, path: str | os.PathLike) -> Path:
        """Write a private snapshot (env allowlist, no serials, no hostname, mode 0600) to ``path`` (never
        over an existing file) and return it."""
        from ..snapshot import write_snapshot

        write_snapshot(self.spec.snapshot(), str(path), overwrite=False)
        return Path(path)
