"""Render the bundled catalogues a user lists: simulated machines (``profiles``), simulated fleets
(``profiles --fleets``) and the versions the compatibility matrices know (``compat --list``)."""
from __future__ import annotations

from .console import dumps_json, esc


def print_profiles(console, rows, lang: str) -> None:
    width = max((len(r["name"]) for r in rows), default=0)
    for r in rows:
        console.print(f"{esc(r['name']):<{width}}  {esc(r['description'])}", soft_wrap=True)


def print_fleets(console, rows, lang: str) -> None:
    width = max((len(r["name"]) for r in rows), default=0)
    nodes = {"en": "nodes", "zh": "个节点"}.get(lang, "nodes")
    for r in rows:
        console.print(f"{esc(r['name']):<{width}}  {r['nodes']:>5} {nodes}  {esc(r['description'])}", soft_wrap=True)


def print_versions(console, known, lang: str) -> None:
    for key, values in known.items():
        console.print(f"{esc(key)}: {esc(', '.join(values))}", soft_wrap=True)


def rows_json(key: str):
    def render(rows) -> str:
        return dumps_json({key: rows} if key else rows, ensure_ascii=False, indent=2) + "\n"
    return render


KB_STATS = {
    "en": {"signatures": "signatures", "compat": "compatibility rows", "problems": "problems", "codes": "codes"},
    "zh": {"signatures": "日志特征", "compat": "兼容性条目", "problems": "已知问题", "codes": "错误码"},
}


def print_kb_stats(console, stats, lang: str) -> None:
    """``kb stats``: counts per family and origin (built-in, site, user)."""
    L = KB_STATS.get(lang, KB_STATS["en"])
    for what in ("problems", "codes"):
        for origin, fams in stats[what].items():
            if not fams:
                continue
            console.print(f"[bold]{L[what]} ({esc(origin)})[/bold]: {sum(fams.values())}")
            for fam, n in sorted(fams.items()):
                console.print(f"  {esc(fam):<20} {n:>5}")
    console.print(f"[bold]{L['signatures']}[/bold]: {stats['signatures']}")
    if stats["compat_rows"]:
        console.print(f"[bold]{L['compat']}[/bold]: {sum(stats['compat_rows'].values())}")
        for m, n in sorted(stats["compat_rows"].items()):
            console.print(f"  {esc(m):<20} {n:>5}")


def kb_stats_json(stats) -> str:
    return dumps_json(stats, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def print_lint(console, report, lang: str) -> None:
    """``kb lint``: one finding per line (the summary goes to stderr, see the command)."""
    for f in report["findings"]:
        console.print(esc(str(f)), soft_wrap=True)


def lint_json(report) -> str:
    found = report["findings"]
    errors = sum(1 for f in found if f.severity == "error")
    return dumps_json({"findings": [f.__dict__ for f in found], "errors": errors, "warnings": len(found) - errors},
                      ensure_ascii=False, indent=2) + "\n"
