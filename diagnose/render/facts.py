"""Render ``facts``: every fact of a machine with its status and origin (a FactSet or a list of facts)."""
from __future__ import annotations

from .console import dumps_json, esc

_COLOUR = {"ok": "green", "missing": "yellow", "denied": "magenta", "timeout": "red", "error": "red",
           "unparsed": "yellow"}
LABELS = {"en": "Facts", "zh": "事实"}


def print_facts(console, report, lang: str) -> None:
    origin, facts = report
    console.print(f"[bold]{LABELS.get(lang, LABELS['en'])}[/bold] ({esc(origin)}): {len(facts)}")
    for f in facts:
        value = dumps_json(f.value, ensure_ascii=False) if f.ok else ""
        if len(value) > 160:
            value = value[:157] + "..."
        line = f"[{_COLOUR.get(f.status, 'white')}]{f.status:8}[/] [bold]{esc(f.key)}[/bold]"
        if value:
            line += f" = {esc(value)}"
        line += f"  [dim]({esc(f.source)}; {f.duration_ms:.0f} ms)[/dim]"
        console.print(line, soft_wrap=True)
        if f.detail:
            console.print(f"         [dim]{esc(f.detail)}[/dim]", soft_wrap=True)


def facts_json(report) -> str:
    origin, facts = report
    return dumps_json({"origin": origin, "facts": [f.to_dict() for f in facts]}, ensure_ascii=False, indent=2) + "\n"
