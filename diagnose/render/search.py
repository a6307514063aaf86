"""Render ``search`` results (services.knowledge.SearchResult), as text or JSON."""
from __future__ import annotations

from .console import dumps_json, esc, t

LABELS = {
    "en": {"none": "No known problem or code matches [bold]{query}[/bold].",
           "more": "ascend-doctor explain <id> shows one in full"},
    "zh": {"none": "没有与 [bold]{query}[/bold] 匹配的已知问题或错误码。",
           "more": "ascend-doctor explain <id> 查看完整内容"},
}


def print_search(console, result, lang: str) -> None:
    L = LABELS.get(lang, LABELS["en"])
    if not result.hits:
        console.print(L["none"].format(query=esc(result.query)))
        return
    for h in result.hits:
        title = t(h.title, lang)
        if h.kind == "problem":
            ref = h.ref
        else:
            family, code = h.ref.split(":", 1)
            ref = f"{code} ({family})"
            title = title[len(code):].strip() if title.startswith(code) else title
            title = title if len(title) <= 110 else title[:109] + "…"
        console.print(f"[bold]{h.score:5.1f}[/bold]  [cyan]{esc(ref)}[/cyan]  {esc(title)}")
    console.print(f"[dim]{esc(L['more'])}[/dim]")


def search_json(result) -> str:
    return dumps_json({"query": result.query, "results": [
        {"kind": h.kind, "ref": h.ref, "title": h.title, "score": h.score} for h in result.hits]},
        ensure_ascii=False, indent=2) + "\n"
