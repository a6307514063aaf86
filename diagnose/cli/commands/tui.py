"""``ascend-doctor tui``: the interactive assistant (Check, Ask, Knowledge, Environment)."""
from __future__ import annotations

NAME = "tui"
HELP = "interactive assistant: run the check, ask about a problem, browse the knowledge"


def add_arguments(parser) -> None:
    from ..machine import add_machine_options
    from ..options import add_kb, add_lang

    add_machine_options(parser)
    parser.add_argument("--screen", choices=("check", "ask", "knowledge", "environment"), default="check",
                        help="screen to open first (default: check)")
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:
    import sys

    from ...services.errors import UsageError
    from ..machine import machine_spec
    from ..options import lang_of, open_kb

    if not sys.stdout.isatty():
        raise UsageError("the TUI needs a terminal; use 'ascend-doctor check' or 'diagnose' in scripts")
    spec = machine_spec(args)
    spec.system()                          # bad --sim / --replay: one-line error before the screen opens
    from ...tui.app import AscendDoctorApp
    from ...tui.machine import Machine

    kb = open_kb(args)
    AscendDoctorApp(kb, Machine(spec), lang=lang_of(args), start=args.screen).run()
    return 0
