"""``ascend-doctor tui``: the interactive assistant (Check, Ask, Knowledge, Environment)."""
from __future__ import annotations

NAME = "tui"
HELP = "interactive assistant: run the check, ask about a problem, browse the knowledge"


def add_arguments(parser) -> None:
    from ..machine import add_machine_options
    from ..options import add_kb, add_lang

    add_machine_options(parser)
    parser.add_argument("--screen", choices=("check", "ask", "knowledge", "environment", "fleet"), default=None,
                        help="screen to open first (default: check; fleet when a fleet is given)")
    parser.add_argument("--fleet", action="append", default=[], metavar="DIR|FILE",
                        help="add a Fleet screen comparing these snapshots (repeatable)")
    parser.add_argument("--fleet-sim", metavar="FLEET", default=None,
                        help="add a Fleet screen comparing a bundled simulated fleet")
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:
    import sys

    from ...services.errors import UsageError
    from ..machine import machine_spec
    from ..options import lang_of, open_kb

    if not sys.stdout.isatty():
        raise UsageError(key="tui_terminal")
    spec = machine_spec(args)
    spec.system()                          # bad --sim / --replay: one-line error before the screen opens
    from ...tui.app import AscendDoctorApp
    from ...tui.machine import Machine

    fleet = None
    if args.fleet or args.fleet_sim:
        from ...services.fleet import snapshot_files
        from ...tui.fleet_pane import FleetSource

        if args.fleet and args.fleet_sim:
            raise UsageError("give --fleet DIR|FILE or --fleet-sim FLEET, not both")
        if args.fleet:
            snapshot_files(args.fleet)     # a bad path: one-line error before the screen opens
        fleet = FleetSource(args.fleet, sim=args.fleet_sim, kb_path=args.kb, lang=lang_of(args))
    elif args.screen == "fleet":
        raise UsageError("--screen fleet needs --fleet DIR|FILE or --fleet-sim FLEET")
    kb = open_kb(args)
    start = args.screen or ("fleet" if fleet is not None else "check")
    AscendDoctorApp(kb, Machine(spec), lang=lang_of(args), start=start, fleet=fleet).run()
    return 0
