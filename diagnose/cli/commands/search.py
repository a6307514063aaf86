"""``ascend-doctor search TEXT``: find known problems and error codes by words, in English or Chinese."""
from __future__ import annotations

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
    from ...services.errors import UsageError
    from ...services.knowledge import search
    from ..options import lang_of, open_kb
    from ..output import emit

    query = " ".join(args.query).strip()
    if not query:
        raise UsageError(key="search_words")
    if not 1 <= args.limit <= 1000:
        raise UsageError("--limit must be between 1 and 1000")
    kinds = ("problem", "code") if args.kind == "all" else (args.kind,)
    with open_kb(args) as kb:
        result = search(kb, query, limit=args.limit, kinds=kinds)
    emit("search", result, args.format, lang=lang_of(args))
    return 0 if result.hits else 1
