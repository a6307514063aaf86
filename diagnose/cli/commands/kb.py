"""``ascend-doctor kb ...``: validate, build and inspect the knowledge base."""
from __future__ import annotations

NAME = "kb"
HELP = "knowledge base: validate, build, stats"


def add_arguments(parser) -> None:
    from ..main import _Parser
    from ..options import add_format, add_kb

    sub = parser.add_subparsers(dest="kb_command", metavar="ACTION", parser_class=_Parser)
    p = sub.add_parser("validate", help="check the knowledge files (and user overlays); exit 1 on any problem")
    p.add_argument("paths", nargs="*", help="extra knowledge files to check as overlays")
    p = sub.add_parser("build", help="compile the knowledge files into the database now")
    add_kb(p)
    p = sub.add_parser("stats", help="counts of problems, codes and compatibility rows per family")
    add_format(p)
    add_kb(p)
    p = sub.add_parser("path", help="print where the compiled database is")
    add_kb(p)


def run(args) -> int:
    action = getattr(args, "kb_command", None)
    if action is None:
        from ..errors import UsageError

        raise UsageError("kb needs an action: validate, build, stats, path (see 'ascend-doctor kb --help')")
    return {"validate": _validate, "build": _build, "stats": _stats, "path": _path}[action](args)


def _validate(args) -> int:
    import sys
    from pathlib import Path

    from ascend_doctor.kb.build import overlay_files
    from ascend_doctor.kb.loader import load
    from ascend_doctor.kb.paths import KNOWLEDGE_DIR

    from ..errors import InputError

    extra = [Path(p) for p in args.paths]
    for p in extra:
        if not p.is_file():
            raise InputError(f"no such file: {p}")
    kn, issues = load(KNOWLEDGE_DIR, overlay_files() + extra)
    for issue in issues:
        sys.stdout.write(f"{issue}\n")
    summary = (f"{len(kn.problems)} problems, {len(kn.codes)} codes, {len(kn.compat)} compatibility rows, "
               f"{sum(len(p.signatures) for p in kn.problems)} signatures")
    if issues:
        sys.stderr.write(f"ascend-doctor: {len(issues)} problem(s) in the knowledge files ({summary})\n")
        return 1
    sys.stdout.write(f"knowledge files are valid: {summary}\n")
    return 0


def _build(args) -> int:
    from ..options import open_kb

    with open_kb(args) as kb:
        print(f"knowledge base ready: {kb.path}")
    return 0


def _path(args) -> int:
    from pathlib import Path

    from ascend_doctor.kb.paths import default_db_path

    print(Path(args.kb) if args.kb else default_db_path())
    return 0


def _stats(args) -> int:
    import json

    from ...render.console import make_console
    from ..options import open_kb

    with open_kb(args) as kb:
        stats = kb.stats()
    if args.format == "json":
        print(json.dumps(stats, ensure_ascii=False, indent=2, sort_keys=True))
        return 0
    console = make_console()
    for what in ("problems", "codes"):
        for origin, fams in stats[what].items():
            if not fams:
                continue
            console.print(f"[bold]{what} ({origin})[/bold]: {sum(fams.values())}")
            for fam, n in sorted(fams.items()):
                console.print(f"  {fam:<20} {n:>5}")
    console.print(f"[bold]signatures[/bold]: {stats['signatures']}")
    if stats["compat_rows"]:
        console.print(f"[bold]compatibility rows[/bold]: {sum(stats['compat_rows'].values())}")
        for m, n in sorted(stats["compat_rows"].items()):
            console.print(f"  {m:<20} {n:>5}")
    return 0
