"""``ascend-doctor facts``: every fact about a machine, with its status and where it came from."""
from __future__ import annotations

NAME = "facts"
HELP = "show every fact observed on this machine (or a --sim profile / --replay snapshot)"


def add_arguments(parser) -> None:
    from ..machine import add_machine_options
    from ..options import add_format

    add_machine_options(parser)
    parser.add_argument("--key", metavar="PREFIX", action="append", default=None,
                        help="only facts whose key starts with PREFIX (repeatable)")
    add_format(parser)


def run(args) -> int:
    from ...services.errors import NotFound
    from ..machine import machine_spec
    from ..options import lang_of
    from ..output import emit

    fs = machine_spec(args).facts()
    facts = [f for f in fs if not args.key or any(f.key.startswith(p) for p in args.key)]
    if args.key and not facts:
        raise NotFound(f"no fact key starts with {', '.join(args.key)}")
    emit("facts", (fs.origin, facts), args.format, lang=lang_of(args))
    return 0
