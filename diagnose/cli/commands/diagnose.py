"""``ascend-doctor diagnose [PATH ...]``: from a pasted error or a pile of logs to the root cause and the fix."""
from __future__ import annotations

NAME = "diagnose"
HELP = "find the known causes behind logs, a plog directory or a pasted error (ranked, with evidence and fixes)"
DESCRIPTION = (HELP + ". PATH may be a file, a directory (read recursively: CANN plog folders, device-* logs, "
               "engine logs), a .gz file or '-' for stdin. Exit code: 0 no likely cause (score < 0.5), "
               "1 a likely cause found, 2 bad usage or unreadable input, 3 internal error.")


def add_arguments(parser) -> None:
    from ...render.registry import formats
    from ..machine import add_machine_options
    from ..options import add_format, add_kb, add_lang

    parser.add_argument("paths", nargs="*", metavar="PATH", help="log files, directories, .gz files, or - for stdin")
    parser.add_argument("--text", default=None, help="diagnose this text (an error message, an issue body)")
    parser.add_argument("--top", type=int, default=3, metavar="N", help="show the N most likely causes (default 3)")
    parser.add_argument("--no-env", action="store_true",
                        help="do not look at this machine; use only the inputs (and facts found in them)")
    parser.add_argument("-v", "--verbose", action="store_true", help="also show the decisive line, CANN messages and facts")
    add_machine_options(parser)
    add_format(parser, choices=formats("diagnosis"))
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:
    import sys

    from ...render.registry import render
    from ...matcher.model import LIKELY
    from ...services.diagnosis import check_inputs, diagnose, machine_facts, require_input
    from ...services.errors import UsageError
    from ..machine import machine_spec
    from ..options import lang_of, open_kb

    if args.top < 1 or args.top > 100:
        raise UsageError("--top must be between 1 and 100")
    if args.no_env and (args.sim or args.replay):
        raise UsageError("--no-env cannot be combined with --sim or --replay")
    paths = check_inputs(args.paths, args.text, stdin_is_terminal=sys.stdin is None or sys.stdin.isatty())
    lang = lang_of(args)
    facts = machine_facts(None if args.no_env else machine_spec(args))
    with open_kb(args) as kb:
        d = diagnose(kb, paths, text=args.text, facts=facts, lang=lang)
    require_input(d)
    sys.stdout.write(render("diagnosis", d, args.format, lang=lang, top=args.top, verbose=args.verbose,
                            color=args.format == "text" and sys.stdout.isatty()))
    sys.stdout.flush()
    return 1 if d.findings and d.findings[0].score >= LIKELY else 0
