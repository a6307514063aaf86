"""``check`` as text in the spirit of ``flutter doctor``: one section per group, a glyph per rule,
the fix under each WARN / FAIL; ``verbose`` adds the evidence, the facts used and probe timings.

Everything that comes from the machine (fact values, messages built from them) is escaped.
"""
from __future__ import annotations

from .check_common import GLYPH, STYLE, CheckReport, group_fixes, label, summary_line, verdict, worst
from .console import esc


def _fact_line(fact) -> str:
    from ascend_doctor.kb.language.facts import show

    value = show(fact.value, 120) if fact.ok else f"({fact.status}{': ' + fact.detail if fact.detail else ''})"
    took = f" [{fact.duration_ms:.0f} ms]" if fact.duration_ms >= 0.5 else ""
    src = f" ← {fact.source}" if fact.source else ""
    return f"{fact.key} = {value}{src}{took}"


def print_check(console, report: CheckReport, verbose: bool = False) -> None:
    lang = report.lang
    head = f"[bold]{esc(label('title', lang))}[/bold]"
    meta = [m for m in (report.origin, report.version and f"ascend-doctor {report.version}") if m]
    if meta:
        head += f"  [dim]{esc(' · '.join(meta))}[/dim]"
    console.print(head)
    env = report.environment()
    if env:
        # every known component: the one that fails (torch_npu at the end of the list) must not be cut
        console.print("[dim]" + esc(" · ".join(f"{k} {v}" for k, v in env)) + "[/dim]")
    kind, sentence = verdict(report)
    style = {"ok": "bold green", "ok_errors": "bold yellow", "problems": "bold red", "no_ascend": "bold yellow"}[kind]
    console.print(f"[{style}]{esc(sentence)}[/{style}]")
    for heading, text, command, source in group_fixes(report):
        console.print(f"[bold]{esc(heading)}:[/bold] {esc(text)}")
        console.print(esc(command), soft_wrap=True)          # one line, ready to copy
        console.print(f"[dim]{esc(source)}[/dim]")
    console.print()
    for group, results in report.grouped():
        g = worst(r.status for r in results if r.status != "SKIP") if any(r.status != "SKIP" for r in results) else "SKIP"
        skipped = sum(1 for r in results if r.status == "SKIP")
        title = group.title.get(lang) or group.title["en"]
        extra = f"  [dim]({skipped} {esc(label('skipped', lang))})[/dim]" if skipped and not verbose else ""
        console.print(f"[{STYLE[g]}]\\[{GLYPH[g]}][/{STYLE[g]}] [bold]{esc(title)}[/bold]{extra}")
        for r in results:
            if r.status == "SKIP" and not verbose:
                continue
            _print_result(console, r, report, verbose)
        console.print()
    took = f" · {report.duration_ms / 1000:.2f} s" if report.duration_ms else ""
    console.print(f"[bold]{esc(label('summary', lang))}:[/bold] {esc(summary_line(report))}{esc(took)}")


def _print_result(console, r, report: CheckReport, verbose: bool) -> None:
    lang = report.lang
    st = STYLE[r.status]
    title = r.text("title", lang)
    msg = r.text("message", lang)
    line = f"    [{st}]{GLYPH[r.status]}[/{st}] {esc(title)}"
    if r.status == "PASS":
        if msg:
            line += f" [dim]— {esc(msg)}[/dim]"
        if verbose:
            line += f"  [dim]{esc(r.rule)}[/dim]"
        console.print(line)
    else:
        console.print(line + f"  [dim]{esc(r.rule)}[/dim]")
        if msg:
            console.print(f"        {esc(msg)}", style=None if r.status != "SKIP" else "dim")
        fix = r.text("fix", lang)
        if fix and r.status in ("WARN", "FAIL"):
            console.print(f"        [cyan]→ {esc(label('fix', lang))}:[/cyan] {esc(fix)}")
            console.print(f"        [dim]{esc(label('explain', lang).format(problem=r.problem))}[/dim]")
    if verbose:
        for ev in r.evidence:
            console.print(f"        [dim]{esc(label('evidence', lang))}: {esc(ev)}[/dim]")
        facts = [report.facts.get(k) for k in r.facts_used]
        shown = [f for f in facts if f is not None]
        if shown:
            console.print(f"        [dim]{esc(label('facts', lang))}:[/dim]")
            for f in shown:
                console.print(f"          [dim]{esc(_fact_line(f))}[/dim]")
