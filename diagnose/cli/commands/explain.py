"""``ascend-doctor explain CODE|ID``: what an error code, a known problem or a rule means."""
from __future__ import annotations


NAME = "explain"
HELP = "explain an error code (561000, EI0006, -8005, ERR00100, 0x80E01801), a problem id or a rule id"


def add_arguments(parser) -> None:
    from ...render.registry import formats
    from ..options import add_format, add_kb, add_lang

    parser.add_argument("what", metavar="CODE|ID", help="error code, symbolic name, problem id or rule id")
    parser.add_argument("--family", default=None, help="only codes of this family (aclnn, acl, cann, dcmi, hccl, ...)")
    add_format(parser, choices=formats("explanation"))
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:
    from ...services.errors import NotFound, UsageError
    from ...services.knowledge import explain
    from ..options import lang_of, open_kb
    from ..output import emit

    what = args.what.strip()
    if not what or len(what) > 200:
        raise UsageError(key="explain_what")
    with open_kb(args) as kb:
        found = explain(kb, what, family=args.family)
    if found.kind == "unknown" and args.format == "text":
        from ...services.errors import LABELS, message

        hint = {lang: message("nearest", lang, codes=", ".join(found.nearest)) for lang in LABELS} if found.nearest else ""
        raise NotFound(key="unknown_id", what=what, hint=hint)
    emit("explanation", found, args.format, lang=lang_of(args))
    return 1 if found.kind == "unknown" else 0
