"""Render ``explain``: a rule, a problem or error codes (services.knowledge.Explanation), as text or JSON."""
from __future__ import annotations

from .console import dumps_json, t


def print_explanation(console, e, lang: str) -> None:
    from .knowledge import print_code, print_problem
    from .rules import print_rule

    titles = {pid: t(title, lang) for pid, title in e.titles.items()}
    if e.kind == "rule":
        print_rule(console, e.rule, lang, e.sources)
    elif e.kind == "problem":
        print_problem(console, e.problem, lang, titles)
    elif e.kind == "code":
        for i, c in enumerate(e.codes):
            if i:
                console.print()
            print_code(console, c, lang, titles, queried=e.query)


def explanation_json(e) -> str:
    from .knowledge import to_jsonable

    if e.kind == "rule":
        doc = {**e.rule.to_dict(), "sources": e.sources}
    elif e.kind == "problem":
        doc = {"kind": "problem", "problem": to_jsonable(e.problem)}
    elif e.kind == "code":
        doc = {"kind": "code", "query": e.query, "codes": [to_jsonable(c) for c in e.codes]}
    else:
        doc = {"kind": "unknown", "query": e.query, "nearest": e.nearest}
    return dumps_json(doc, ensure_ascii=False, indent=2) + "\n"
