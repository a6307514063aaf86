"""The machine options of the check, diagnose, facts and tui commands, as a MachineSpec:

    add_machine_options(parser)     # --sim PROFILE | --replay FILE, --python PATH, --timeout S
    machine_spec(args) -> MachineSpec
"""
from __future__ import annotations

import argparse

from ..services.machine import MachineSpec


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


def machine_spec(args: argparse.Namespace) -> MachineSpec:
    return MachineSpec(sim=getattr(args, "sim", None), replay=getattr(args, "replay", None),
                       python=getattr(args, "python", None), timeout=getattr(args, "timeout", 10.0))
