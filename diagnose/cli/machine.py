"""Which machine a command looks at: the live one (default), a bundled profile (``--sim``) or a
snapshot (``--replay``). The check, diagnose, facts and TUI commands all use these two functions:

    add_machine_options(parser)     # --sim PROFILE | --replay FILE, --python PATH, --timeout S
    collect_facts(args) -> FactSet
"""
from __future__ import annotations

import argparse

from .errors import InputError, UsageError


def add_machine_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_mutually_exclusive_group()
    g.add_argument("--sim", metavar="PROFILE", default=None,
                   help="look at a bundled simulated machine instead of this one (see 'ascend-doctor profiles')")
    g.add_argument("--replay", metavar="FILE", default=None,
                   help="look at the machine recorded in a snapshot file ('ascend-doctor snapshot')")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="Python interpreter whose packages are inspected (default: the active venv or conda "
                             "environment, else python3 on PATH, else the one running ascend-doctor)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=10.0,
                        help="time-out of each command run on the machine (default 10)")


def make_system(args: argparse.Namespace):
    """(System, python path to inspect) for the options in ``args``."""
    from ..system import ProfileError, RealSystem, SimulatedSystem
    from ..snapshot import SnapshotError, load_snapshot

    if getattr(args, "sim", None):
        try:
            system = SimulatedSystem(args.sim)
        except ProfileError as exc:
            raise UsageError(str(exc)) from exc
        return system, args.python or system.profile.python.get("executable") or "python3"
    if getattr(args, "replay", None):
        try:
            snap = load_snapshot(args.replay)
        except SnapshotError as exc:
            raise InputError(str(exc)) from exc
        return snap.system(), args.python or snap.python
    return RealSystem(), workload_python(getattr(args, "python", None))


def workload_python(given: str | None, env: dict[str, str] | None = None) -> str:
    """The interpreter the user runs their workload with, whose packages the check inspects: ``--python``
    (it must be an executable file), else the active virtualenv or conda environment, else ``python3``
    on PATH, else the one running ascend-doctor (installed in its own venv, that one would hide torch,
    torch_npu and vLLM from the check)."""
    import os
    import shutil
    import sys

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


def collect_facts(args: argparse.Namespace):
    """The FactSet of the machine chosen by ``args`` (live machine by default)."""
    from ..probes import collect

    timeout = getattr(args, "timeout", 10.0) or 10.0
    if not 0 < timeout <= 3600:          # written so that nan is refused too
        raise UsageError("--timeout must be between 0 and 3600 seconds")
    system, python = make_system(args)
    return collect(system, python=python, timeout=timeout)
