"""Which machine a service looks at: the live one (default), a bundled profile or a recorded snapshot."""
from __future__ import annotations

import math
import os
import re
import shutil
import sys
from dataclasses import dataclass

from .errors import InputError, UsageError


def workload_python(given: str | None, env: dict[str, str] | None = None) -> str:
    """The interpreter the user runs their workload with, whose packages the check inspects: ``given``
    (it must be an executable file), else the active virtualenv or conda environment, else ``python3``
    on PATH, else the one running ascend-doctor (installed in its own venv, that one would hide torch,
    torch_npu and vLLM from the check)."""
    env = os.environ if env is None else env
    if given:
        if not (os.path.isfile(given) and os.access(given, os.X_OK)):
            raise UsageError(f"--python {given}: not an executable file")
        return given
    for var in ("VIRTUAL_ENV", "CONDA_PREFIX"):
        root = env.get(var)
        if root:
            exe = os.path.join(root, "bin", "python")
            if os.path.isfile(exe) and os.access(exe, os.X_OK):
                return exe
    return shutil.which("python3", path=env.get("PATH")) or sys.executable


@dataclass(frozen=True)
class MachineSpec:
    """The machine to look at. ``sim`` names a bundled profile, ``replay`` a snapshot file; neither
    means this machine. ``python`` is the interpreter whose packages are inspected (default: the
    workload's, see :func:`workload_python`); ``timeout`` bounds each command run on the machine."""

    sim: str | None = None
    replay: str | None = None
    python: str | None = None
    timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.sim and self.replay:
            raise UsageError(key="sim_and_replay")
        if not (isinstance(self.timeout, (int, float)) and not math.isnan(self.timeout) and 0 < self.timeout <= 3600):
            raise UsageError(key="timeout_range")

    @property
    def label(self) -> str:
        if self.sim:
            return f"simulated: {self.sim}"
        if self.replay:
            return f"snapshot: {os.path.basename(self.replay)}"
        return f"live: {os.uname().nodename}"

    @property
    def is_live(self) -> bool:
        return not (self.sim or self.replay)

    def system(self):
        """(System, python path to inspect)."""
        from ..snapshot import SnapshotError, load_snapshot
        from ..system import ProfileError, RealSystem, SimulatedSystem

        if self.sim:
            try:
                system = SimulatedSystem(self.sim)
            except ProfileError as exc:
                if exc.known:
                    raise UsageError(key="unknown_profile", name=exc.name, known=exc.known) from exc
                raise UsageError(str(exc)) from exc
            return system, self.python or system.profile.python.get("executable") or "python3"
        if self.replay:
            try:
                snap = load_snapshot(self.replay)
            except SnapshotError as exc:
                raise InputError(str(exc)) from exc
            return snap.system(), self.python or snap.python
        return RealSystem(), workload_python(self.python)

    def facts(self, on_probe=None):
        """The FactSet of this machine (every probe run once, concurrently, each within ``timeout``)."""
        from ..probes import collect

        system, python = self.system()
        return collect(system, python=python, timeout=self.timeout, on_probe=on_probe)

    def snapshot(self, *, include_hostname: bool = False, report: dict | None = None, node: str | None = None,
                 labels: dict[str, str] | None = None):
        """A private recording of this machine (see ``snapshot.take_snapshot``), named ``node`` with ``labels``
        for the fleet check."""
        from ..snapshot import take_snapshot

        system, python = self.system()
        return take_snapshot(system, python=python, timeout=self.timeout, include_hostname=include_hostname,
                             report=report, node=node, labels=labels)


NODE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
LABEL_KEY = re.compile(r"^[A-Za-z][A-Za-z0-9_.-]{0,63}$")


def node_name(value: str | None) -> str | None:
    """A node name as ``--node`` takes it (letters, digits, ``.``, ``_``, ``-``; it names files too)."""
    if value is None:
        return None
    if not NODE_NAME.match(value):
        raise UsageError(f"--node {value!r}: use letters, digits, '.', '_' and '-' (at most 128), starting with a "
                         "letter or digit")
    return value


def parse_labels(values) -> dict[str, str]:
    """``--label k=v`` (repeatable) as a dict; a malformed one is a UsageError."""
    out: dict[str, str] = {}
    for item in values or []:
        key, sep, value = str(item).partition("=")
        if not sep or not LABEL_KEY.match(key) or not value.strip() or any(ord(c) < 0x20 for c in value):
            raise UsageError(f"--label {item!r}: write key=value (the key: a letter, then letters, digits, "
                             "'.', '_' or '-'; a non-empty value)")
        out[key] = value.strip()
    return out
