"""``ascend-doctor facts``: every fact about a machine, with its status and where it came from."""
from __future__ import annotations

from ...render.console import dumps_json

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

    from ...render.console import esc, make_console
    from ...services.errors import NotFound
    from ..machine import machine_spec

    fs = machine_spec(args).facts()
    facts = [f for f in fs if not args.key or any(f.key.startswith(p) for p in args.key)]
    if args.key and not facts:
        raise NotFound(f"no fact key starts with {', '.join(args.key)}")
    if args.format == "json":
        print(dumps_json({"origin": fs.origin, "facts": [f.to_dict() for f in facts]}, ensure_ascii=False, indent=2))
        return 0
    console = make_console()
    colour = {"ok": "green", "missing": "yellow", "denied": "magenta", "timeout": "red", "error": "red",
              "unparsed": "yellow"}
    console.print(f"[bold]Facts[/bold] ({esc(fs.origin)}): {len(facts)}")
    for f in facts:
        value = dumps_json(f.value, ensure_ascii=False) if f.ok else ""
        if len(value) > 160:
            value = value[:157] + "..."
        line = f"[{colour.get(f.status, 'white')}]{f.status:8}[/] [bold]{esc(f.key)}[/bold]"
        if value:
            line += f" = {esc(value)}"
        line += f"  [dim]({esc(f.source)}; {f.duration_ms:.0f} ms)[/dim]"
        console.print(line, soft_wrap=True)
        if f.detail:
            console.print(f"         [dim]{esc(f.detail)}[/dim]", soft_wrap=True)
    return 0
