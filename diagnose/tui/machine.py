"""The machine the TUI looks at (live, --sim profile or --replay snapshot), with its facts cached."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path


class Machine:
    def __init__(self, args):
        self.args = args
        self._facts = None
        self._lock = threading.Lock()
        if getattr(args, "sim", None):
            self.label = f"simulated: {args.sim}"
        elif getattr(args, "replay", None):
            self.label = f"snapshot: {os.path.basename(args.replay)}"
        else:
            self.label = f"live: {os.uname().nodename}"

    def facts(self, progress=None, refresh: bool = False):
        """The FactSet (collected once, in a worker thread; ``refresh`` probes again)."""
        from ..probes import collect
        from ..cli.machine import make_system

        with self._lock:
            if self._facts is None or refresh:
                system, python = make_system(self.args)
                self._facts = collect(system, python=python, timeout=getattr(self.args, "timeout", 10.0) or 10.0,
                                      on_probe=progress)
            return self._facts

    def export_snapshot(self, directory: str | os.PathLike | None = None) -> Path:
        """Write a private snapshot (env allowlist, no serials, no hostname, mode 0600) and return its path."""
        from ..cli.machine import make_system
        from ..snapshot import take_snapshot, write_snapshot

        system, python = make_system(self.args)
        snap = take_snapshot(system, python=python, timeout=getattr(self.args, "timeout", 10.0) or 10.0)
        stem = Path(directory or os.getcwd()) / f"ascend-doctor-snapshot-{time.strftime('%Y%m%d-%H%M%S')}"
        for n in range(1000):                 # two exports in one second never overwrite each other
            path = stem.with_name(stem.name + (f"-{n}" if n else "") + ".json")
            try:
                write_snapshot(snap, str(path), overwrite=False)
                return path
            except FileExistsError:
                continue
        raise FileExistsError(17, "too many snapshots with this name", str(stem))
