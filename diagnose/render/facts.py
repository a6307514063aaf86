"""Render ``facts``: every fact of a machine with its status and origin (a FactSet or a list of facts)."""
from __future__ import annotations

from .console import dumps_json, esc

_COLOUR = {"ok": "green", "missing": "yellow", "denied": "magenta", "timeout": "red", "error": "red",
           "unparsed": "yellow"}
LABELS = {
    "en": {"facts": "Facts", "ok": "ok", "missing": "missing", "denied": "denied", "timeout": "timeout",
           "error": "error", "unparsed": "unparsed"},
    "zh": {"facts": "事实", "ok": "正常", "missing": "缺失", "denied": "无权限", "timeout": "超时",
           "error": "出错", "unparsed": "无法解析"},
}


def status_word(status: str, lang: str) -> str:
    """A fact status (ok, missing, ...) in ``lang``."""
    return LABELS.get(lang, LABELS["en"]).get(status, status)


def print_facts(console, report, lang: str) -> None:
    from rich.cells import cell_len

    origin, facts = report
    console.print(f"[bold]{status_word('facts', lang)}[/bold] ({esc(origin)}): {len(facts)}")
    for f in facts:
        value = dumps_json(f.value, ensure_ascii=False) if f.ok else ""
        if len(value) > 160:
            value = value[:157] + "..."
        word = status_word(f.status, lang)
        line = f"[{_COLOUR.get(f.status, 'white')}]{word}{' ' * max(0, 8 - cell_len(word))}[/] [bold]{esc(f.key)}[/bold]"
        if value:
            line += f" = {esc(value)}"
        line += f"  [dim]({esc(f.source)}; {f.duration_ms:.0f} ms)[/dim]"
        console.print(line, soft_wrap=True)
        if f.detail:
            console.print(f"         [dim]{esc(f.detail)}[/dim]", soft_wrap=True)


def facts_json(report) -> str:
    origin, facts = report
    return dumps_json({"origin": origin, "facts": [f.to_dict() for f in facts]}, ensure_ascii=False, indent=2) + "\n"
