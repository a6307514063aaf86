"""``ascend-doctor diagnose [PATH ...]``: from a pasted error or a pile of logs to the root cause and the fix."""
from __future__ import annotations

NAME = "diagnose"
HELP = "find the known causes behind logs, a plog directory or a pasted error (ranked, with evidence and fixes)"
DESCRIPTION = (HELP + ". PATH may be a file, a directory (read recursively: CANN plog folders, device-* logs, "
               "engine logs), a .gz file or '-' for stdin. Exit code: 0 no likely cause (score < 0.5), "
               "1 a likely cause found, 2 bad usage or unreadable input, 3 internal error.")
LIKELY = 0.5
ASCEND_MARKERS = ("/usr/local/Ascend/driver", "/dev/davinci_manager")


def add_arguments(parser) -> None:
    from ..machine import add_machine_options
    from ..options import add_format, add_kb, add_lang

    parser.add_argument("paths", nargs="*", metavar="PATH", help="log files, directories, .gz files, or - for stdin")
    parser.add_argument("--text", default=None, help="diagnose this text (an error message, an issue body)")
    parser.add_argument("--top", type=int, default=3, metavar="N", help="show the N most likely causes (default 3)")
    parser.add_argument("--no-env", action="store_true",
                        help="do not look at this machine; use only the inputs (and facts found in them)")
    parser.add_argument("-v", "--verbose", action="store_true", help="also show the decisive line, CANN messages and facts")
    add_machine_options(parser)
    add_format(parser, choices=("text", "json", "markdown"))
    add_lang(parser)
    add_kb(parser)


def looks_like_ascend_machine() -> bool:
    import os
    import shutil

    return any(os.path.exists(p) for p in ASCEND_MARKERS) or shutil.which("npu-smi") is not None


def machine_facts(args):
    """Facts of the machine: --sim / --replay when given; the live one only when it is an Ascend machine."""
    if args.no_env:
        if getattr(args, "sim", None) or getattr(args, "replay", None):
            from ..errors import UsageError

            raise UsageError("--no-env cannot be combined with --sim or --replay")
        return None
    if getattr(args, "sim", None) or getattr(args, "replay", None) or looks_like_ascend_machine():
        from ..machine import collect_facts

        return collect_facts(args)
    return None


def run(args) -> int:
    import sys

    from ascend_doctor.diagnose.matcher import diagnose

    from ...render.console import make_console
    from ..errors import InputError, UsageError
    from ..options import lang_of, open_kb

    if args.top < 1 or args.top > 100:
        raise UsageError("--top must be between 1 and 100")
    paths = list(args.paths)
    if args.text is not None and not args.text.strip():
        raise InputError("--text is empty: nothing to diagnose")
    if not paths and args.text is None:
        if sys.stdin is None or sys.stdin.isatty():
            raise UsageError("give a log file, a directory, '-' for stdin, or --text '...'")
        paths = ["-"]
    if paths.count("-") > 1:
        raise UsageError("'-' (stdin) may be given once")
    lang = lang_of(args)
    facts = machine_facts(args)
    with open_kb(args) as kb:
        d = diagnose(kb, paths, text=args.text, facts=facts, lang=lang)
    if d.lines_read == 0:
        why = "; ".join(f"{n.source}: {n.message}" for n in d.notes) or "the input is empty"
        raise InputError(f"nothing to diagnose ({why})")
    if args.format == "json":
        from ...render.diagnosis_json import render_json

        sys.stdout.write(render_json(d, lang, args.top) + "\n")
    elif args.format == "markdown":
        from ...render.diagnosis_markdown import render_markdown

        sys.stdout.write(render_markdown(d, lang, args.top))
    else:
        from ...render.diagnosis_text import print_diagnosis

        print_diagnosis(make_console(), d, lang, args.top, verbose=args.verbose)
    return 1 if d.findings and d.findings[0].score >= LIKELY else 0
