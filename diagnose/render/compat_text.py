"""The text form of a compatibility query (``ascend-doctor compat``)."""
from __future__ import annotations

from typing import Any

from .console import esc


def _cell(v: Any) -> str:
    return ", ".join(v) if isinstance(v, list) else str(v)


def _merge(rows: list[dict], columns: list[str]) -> list[dict]:
    """Rows that share the first column (one torch_npu wheel from three sources) become one entry."""
    merged: dict[str, dict] = {}
    for r in rows:
        key = _cell(r.get(columns[0], "")) if columns else ""
        e = merged.setdefault(key, {"values": {}, "notes": [], "sources": []})
        for c in columns[1:]:
            if c == "note" or r.get(c) in (None, "", []):
                continue
            vals = e["values"].setdefault(c, [])
            if _cell(r[c]) not in vals:
                vals.append(_cell(r[c]))
        if r.get("note") and "note" in columns and r["note"] not in e["notes"]:
            e["notes"].append(r["note"])
        if r.get("source") and r["source"] not in e["sources"]:
            e["sources"].append(r["source"])
    return [{"key": k, **v} for k, v in merged.items()]


def print_compat(console, result: dict) -> None:
    out = lambda text: console.print(text, soft_wrap=True)  # noqa: E731 - long URLs stay on one line
    for v in result["verdicts"]:
        style = {"compatible": "green", "not compatible": "red"}.get(v["verdict"], "yellow")
        out(f"[bold]{esc(v['pair'])}[/bold]: [{style}]{esc(v['verdict'])}[/{style}]")
        if v.get("documented"):
            out(f"  documented: {esc(', '.join(v['documented']))}")
        for s in v["sources"]:
            out(f"  [dim]source: {esc(s)}[/dim]")
    for sec in result["sections"]:
        out("")
        out(f"[bold]{esc(sec['title'])}[/bold]  [dim]({esc(sec['matrix'])})[/dim]")
        for e in _merge(sec["rows"], sec["columns"]):
            parts = [f"{esc(c)}={esc(' | '.join(vals))}" for c, vals in e["values"].items()]
            out(f"  [bold]{esc(e['key'])}[/bold]  " + "  ".join(parts))
            for n in e["notes"]:
                out(f"    {esc(n)}")
            for s in e["sources"]:
                out(f"    [dim]source: {esc(s)}[/dim]")
