"""``ascend-doctor search TEXT``: find known problems and error codes by words, in English or Chinese."""
from __future__ import annotations

from ...render.console import dumps_json

NAME = "search"
HELP = "search known problems and error codes (English or Chinese: \"weight loading hang\", \"权重加载 卡住\")"


def add_arguments(parser) -> None:
    from ..options import add_format, add_kb, add_lang

    parser.add_argument("query", nargs="+", help="words to look for")
    parser.add_argument("--limit", type=int, default=10, help="how many results (default 10)")
    parser.add_argument("--kind", choices=("all", "problem", "code"), default="all", help="what to search")
    add_format(parser)
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:

    from ...render.console import esc, make_console
    from ...services.errors import UsageError
    from ..options import lang_of, open_kb

    query = " ".join(args.query).strip()
    if not query:
        raise UsageError("search needs some words")
    if not 1 <= args.limit <= 1000:
        raise UsageError("--limit must be between 1 and 1000")
    lang = lang_of(args)
    kinds = ("problem", "code") if args.kind == "all" else (args.kind,)
    with open_kb(args) as kb:
        hits = kb.search(query, limit=args.limit, kinds=kinds)
    if args.format == "json":
        print(dumps_json({"query": query, "results": [
            {"kind": h.kind, "ref": h.ref, "title": h.title, "score": h.score} for h in hits]},
            ensure_ascii=False, indent=2))
        return 0 if hits else 1
    console = make_console()
    if not hits:
        console.print(f"No known problem or code matches [bold]{esc(query)}[/bold].")
        return 1
    for h in hits:
        title = h.title.get(lang) or h.title["en"]
        if h.kind == "problem":
            ref = h.ref
        else:
            family, code = h.ref.split(":", 1)
            ref = f"{code} ({family})"
            title = title[len(code):].strip() if title.startswith(code) else title
            title = title if len(title) <= 110 else title[:109] + "…"
        console.print(f"[bold]{h.score:5.1f}[/bold]  [cyan]{esc(ref)}[/cyan]  {esc(title)}")
    console.print("[dim]ascend-doctor explain <id> shows one in full[/dim]")
    return 0
