"""``ascend-doctor profiles``: the bundled simulated machines, one per line, name first."""
from __future__ import annotations

NAME = "profiles"
HELP = "list the bundled simulated machines usable with --sim (--fleets: the simulated fleets)"


def add_arguments(parser) -> None:
    from ..options import add_format

    add_format(parser)
    parser.add_argument("--fleets", action="store_true",
                        help="list the bundled simulated fleets instead (fleet --sim, snapshot --sim-fleet)")


def run(args) -> int:

    from ...system import ProfileError, list_profiles, load_profile
    from ...services.errors import EXIT_INTERNAL, DoctorError
    from ..output import emit

    if args.fleets:
        return _fleets(args)
    rows = []
    for name in list_profiles():
        try:
            p = load_profile(name)
        except ProfileError as exc:
            err = DoctorError(f"bundled profile {name} is broken: {exc}")
            err.exit_code = EXIT_INTERNAL
            raise err from exc
        rows.append({"name": p.name, "description": p.description, "expected_problems": p.expected_problems})
    emit("profiles", rows, args.format)
    return 0


def _fleets(args) -> int:
    from ...services.errors import EXIT_INTERNAL, DoctorError
    from ...simfleet import list_fleets, load_fleet
    from ...system import ProfileError
    from ..output import emit

    rows = []
    for name in list_fleets():
        try:
            f = load_fleet(name)
        except ProfileError as exc:
            err = DoctorError(f"bundled fleet {name} is broken: {exc}")
            err.exit_code = EXIT_INTERNAL
            raise err from exc
        rows.append({"name": name, "nodes": len(f.nodes), "base": f.base, "description": f.description,
                     "expected": {k: dict(v) for k, v in (f.expected.get("fleet") or {}).items()}})
    emit("fleets", rows, args.format)
    return 0
