"""``diagnose`` as rich text. Every text from the inputs and the facts goes through esc()."""
from __future__ import annotations

from ..matcher.reasons import kind_word
from .console import esc, t
from .knowledge import print_fixes

L = {
    "en": {"title": "Diagnosis", "score": "score", "why": "Why", "root": "Root cause", "none":
           "No known cause matched.", "codes": "Error codes found", "first": "First errors (in time)",
           "search": "Try", "decisive": "Decisive line", "inputs": "Read", "lines": "lines", "cann": "CANN says",
           "confirmed": "confirmed by", "ruled": "made unlikely by", "seen": "seen", "times": "times", "ranks": "ranks",
           "facts": "Facts used", "more": "more finding(s); use --top to see them",
           "stalls": "Progress that stopped (last state below 100%)", "files": "files under",
           "less": "Less likely", "sources": "Sources"},
    "zh": {"title": "诊断结果", "score": "得分", "why": "依据", "root": "根因", "none": "未匹配到已知原因。",
           "codes": "发现的错误码", "first": "最早出现的错误", "search": "可尝试", "decisive": "关键行",
           "inputs": "已读取", "lines": "行", "cann": "CANN 提示", "confirmed": "环境信息佐证", "ruled": "环境信息不符",
           "seen": "出现", "times": "次", "ranks": "rank", "facts": "使用的环境信息", "more": "个其他结果；用 --top 查看",
           "stalls": "停止推进的进度条（最后状态未到 100%）", "files": "个文件，位于",
           "less": "可能性较低", "sources": "来源"},
}


def _where(source: str, line: int) -> str:
    return f"{source}:{line}" if line else source


#: findings below this score are listed on one line after the others (no root cause, no fixes)
FOLD_BELOW = 0.3
#: more inputs than this are summarised by their folder
LIST_INPUTS = 5


def inputs_summary(inputs: list[str], lang: str = "en") -> str:
    """``a.log, b.log`` or, for many files, ``200 files under /var/log/npu``."""
    import os

    lb = L.get(lang, L["en"])
    if len(inputs) <= LIST_INPUTS:
        return ", ".join(inputs) or "-"
    paths = [i for i in inputs if not i.startswith("<")]
    try:
        root = os.path.commonpath(paths) if paths else ""
    except ValueError:
        root = ""
    where = root if root and root not in paths else (os.path.dirname(root) if root else "")
    return f"{len(inputs)} {lb['files']} {where or '.'}"


def print_diagnosis(console, d, lang: str = "en", top: int = 3, verbose: bool = False) -> None:
    lb = L.get(lang, L["en"])
    console.print(f"[bold]{lb['title']}[/bold]  [dim]{lb['inputs']} {esc(inputs_summary(d.inputs, lang))} · "
                  f"{d.lines_read:,} {lb['lines']}[/dim]")
    for n in d.notes:
        style = "red" if n.level == "error" else "yellow" if n.level == "warning" else "dim"
        console.print(f"[{style}]{esc(n.source)}: {esc(n.text(lang))}[/{style}]")
    listed = d.findings[:top]
    # the first finding in full whatever its score; after it, the unlikely ones on one line each
    shown = [f for i, f in enumerate(listed) if i == 0 or f.score >= FOLD_BELOW or verbose]
    folded = [f for f in listed if f not in shown]
    if not shown:
        console.print(f"\n[bold yellow]{lb['none']}[/bold yellow]")
    for i, f in enumerate(shown, start=1):
        p = f.problem
        bar = "█" * round(f.score * 10) + "░" * (10 - round(f.score * 10))
        console.print(f"\n[bold]{i}. {esc(t(p.title, lang))}[/bold]  [dim]{esc(f.id)}[/dim]")
        console.print(f"   {lb['score']} [bold]{f.score:.2f}[/bold] {bar}")
        console.print(f"   [bold]{lb['why']}:[/bold]")
        for s in f.evidence:
            if s.kind == "fact" and s.source == "facts":
                continue                # the confirm / rule-out notes: printed below with their mark
            extra = []
            if s.count > 1:
                extra.append(f"{lb['seen']} {s.count} {lb['times']}")
            if s.ranks:
                extra.append(f"{lb['ranks']} {','.join(s.ranks[:8])}")
            tail = f" [dim]({esc('; '.join(extra))})[/dim]" if extra else ""
            console.print(f"   • [dim]{esc(_where(s.source, s.line))}[/dim] {esc(s.text[:300])}{tail}")
            console.print(f"     [dim]{esc(kind_word(s.kind, lang))}: {esc(s.detail)}[/dim]")
        for note in f.confirmed_by:
            console.print(f"   [green]✓ {lb['confirmed']}: {esc(note)}[/green]")
        for note in f.ruled_out_by:
            console.print(f"   [yellow]✗ {lb['ruled']}: {esc(note)}[/yellow]")
        console.print(f"   [bold]{lb['root']}:[/bold] {esc(t(p.root_cause, lang))}")
        print_fixes(console, p.fixes, lang, indent="   ")
    if folded:
        console.print(f"\n[bold]{lb['less']}:[/bold]")
        for i, f in enumerate(folded, start=len(shown) + 1):
            console.print(f"   {i}. [dim]{f.score:.2f}[/dim] {esc(t(f.problem.title, lang))}  [dim]{esc(f.id)}[/dim]")
    if len(d.findings) > top:
        console.print(f"\n[dim]+{len(d.findings) - top} {lb['more']}[/dim]")
    if d.decisive is not None and (not shown or verbose):
        console.print(f"\n[bold]{lb['decisive']}:[/bold] [dim]{esc(_where(d.decisive.source, d.decisive.line))}[/dim] "
                      f"{esc(d.decisive.text[:300])}")
    if not shown and d.first_errors:
        console.print(f"\n[bold]{lb['first']}:[/bold]")
        for ln in d.first_errors:
            console.print(f"   • [dim]{esc(_where(ln.source, ln.line))}[/dim] {esc(ln.text[:300])}")
    stalls = getattr(d, "stalls", [])
    if stalls and (not shown or verbose):
        console.print(f"\n[bold]{lb['stalls']}:[/bold]")
        for s in stalls[:5]:
            console.print(f"   • [dim]{esc(_where(s.source, s.line))}[/dim] {esc(s.text[:300])}")
    if d.causes and (not shown or verbose):
        console.print(f"\n[bold]{lb['cann']}:[/bold]")
        for ln in d.causes[:5]:
            console.print(f"   [dim]{esc(_where(ln.source, ln.line))}[/dim] {esc(ln.text[:300])}")
    if d.codes:
        console.print(f"\n[bold]{lb['codes']}:[/bold]")
        for c in d.codes[:10]:
            meaning = t(c.meaning, lang) if c.meaning else ""
            console.print(f"   [cyan]{esc(c.code)}[/cyan] [dim]{esc(c.family)} ×{c.count}[/dim] {esc(meaning[:160])}")
    if verbose and d.facts:
        console.print(f"\n[bold]{lb['facts']}:[/bold]")
        for f in d.facts:
            console.print(f"   [dim]{esc(f.key)} = {esc(str(f.value)[:120])} ({esc(f.source)})[/dim]")
    if d.suggestion:
        console.print(f"\n{lb['search']}: [cyan]ascend-doctor search {esc(_quote(d.suggestion))}[/cyan]")


def _quote(s: str) -> str:
    return "'" + s.replace("'", "") + "'"
