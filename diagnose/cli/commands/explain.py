"""``ascend-doctor explain CODE|ID``: what an error code, a known problem or a rule means."""
from __future__ import annotations

from ...render.console import dumps_json

import re

NAME = "explain"
HELP = "explain an error code (561000, EI0006, -8005, ERR00100, 0x80E01801), a problem id or a rule id"

RULE_ID = re.compile(r"^AD-[A-Z]+-\d{3}$", re.IGNORECASE)


def add_arguments(parser) -> None:
    from ..options import add_format, add_kb, add_lang

    parser.add_argument("what", metavar="CODE|ID", help="error code, symbolic name, problem id or rule id")
    parser.add_argument("--family", default=None, help="only codes of this family (aclnn, acl, cann, dcmi, hccl, ...)")
    add_format(parser)
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:

    from ...render.console import make_console
    from ...render.knowledge import print_code, print_problem, to_jsonable
    from ...services.errors import NotFound, UsageError
    from ..options import lang_of, open_kb

    what = args.what.strip()
    if not what or len(what) > 200:
        raise UsageError("give an error code, a problem id or a rule id")
    lang = lang_of(args)
    console = make_console()

    if RULE_ID.match(what) or "." in what and not what.replace(".", "").isdigit():
        from ascend_doctor.rules.catalog import find_rule

        rule = find_rule(what)
        if rule is not None:
            from ...render.rules import print_rule

            with open_kb(args) as kb:
                problem = kb.problem(rule.problem)
            sources = list(problem.sources) if problem else []
            if args.format == "json":
                console.print_json(dumps_json({**rule.to_dict(), "sources": sources}, ensure_ascii=False))
            else:
                print_rule(console, rule, lang, sources)
            return 0

    with open_kb(args) as kb:
        problem = kb.problem(what) or kb.problem(what.lower())
        if problem is not None:
            if args.format == "json":
                print(dumps_json({"kind": "problem", "problem": to_jsonable(problem)}, ensure_ascii=False, indent=2))
                return 0
            titles = {p.id: p.title.get(lang) or p.title["en"] for p in (kb.problem(r) for r in problem.related) if p}
            print_problem(console, problem, lang, titles)
            return 0
        found = kb.codes(what, family=args.family) or kb.code_names(what)
        if found:
            exact = [c for c in found if not c.is_pattern]
            shown = exact or found
            if args.format == "json":
                print(dumps_json({"kind": "code", "query": what, "codes": [to_jsonable(c) for c in shown]},
                                 ensure_ascii=False, indent=2))
                return 0
            linked = {pid for c in shown for pid in c.problems}
            titles = {pid: (p.title.get(lang) or p.title["en"]) for pid in linked if (p := kb.problem(pid))}
            for i, c in enumerate(shown):
                if i:
                    console.print()
                print_code(console, c, lang, titles, queried=what)
            return 0
        near = kb.nearest_codes(what)
        hint = f"; nearest known codes: {', '.join(near)}" if near else ""
        if args.format == "json":
            print(dumps_json({"kind": "unknown", "query": what, "nearest": near}, ensure_ascii=False))
            return 1
        raise NotFound(f"unknown code or id '{what}'{hint} (try: ascend-doctor search '{what}')")
