"""``ascend-doctor profiles``: the bundled simulated machines, one per line, name first."""
from __future__ import annotations

from ...render.console import dumps_json

NAME = "profiles"
HELP = "list the bundled simulated machines usable with --sim (--fleets: the simulated fleets)"


def add_arguments(parser) -> None:
    from ..options import add_format

    add_format(parser)
    parser.add_argument("--fleets", action="store_true",
                        help="list the bundled simulated fleets instead (fleet --sim, snapshot --sim-fleet)")


def run(args) -> int:

    from ...system import ProfileError, list_profiles, load_profile
    from ...services.errors import DoctorError, EXIT_INTERNAL

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
    if args.format == "json":
        print(dumps_json({"profiles": rows}, ensure_ascii=False, indent=2))
        return 0
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        print(f"{r['name']:<{width}}  {r['description']}")
    return 0


def _fleets(args) -> int:
    from ...services.errors import EXIT_INTERNAL, DoctorError
    from ...simfleet import list_fleets, load_fleet
    from ...system import ProfileError

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
    if args.format == "json":
        print(dumps_json({"fleets": rows}, ensure_ascii=False, indent=2))
        return 0
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        print(f"{r['name']:<{width}}  {r['nodes']:>5} nodes  {r['description']}")
    return 0
