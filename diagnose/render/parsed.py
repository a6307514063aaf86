"""Render ``parse``: the tool-output blocks found in a text (``{"file": ..., "blocks": [...]}``)."""
from __future__ import annotations

from .console import dumps_json, esc

LABELS = {
    "en": {"none": "No known tool output found in the text.", "lines": "lines", "note": "note"},
    "zh": {"none": "文本中没有找到可识别的工具输出。", "lines": "行", "note": "说明"},
}


def print_parsed(console, report, lang: str) -> None:
    L = LABELS.get(lang, LABELS["en"])
    if not report["blocks"]:
        console.print(L["none"])
        return
    for b in report["blocks"]:
        console.print(f"[bold]{esc(b['kind'])}[/bold] {L['lines']} {b['start_line']}-{b['end_line']}: {esc(b['status'])}")
        if b["status"] != "ok":
            console.print(f"  [yellow]{esc(b.get('reason', ''))}[/yellow]")
            continue
        for line in dumps_json(b["value"], ensure_ascii=False, indent=2).splitlines():
            console.print("  " + esc(line))
        for n in b.get("notes", []):
            console.print(f"  [dim]{L['note']}: {esc(n)}[/dim]")


def parsed_json(report) -> str:
    return dumps_json(report, ensure_ascii=False, indent=2) + "\n"
