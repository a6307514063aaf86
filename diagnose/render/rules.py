"""Render rules: ``explain AD-CONT-001`` (one rule) and ``ascend-doctor rules`` (the list)."""
from __future__ import annotations

from rich.cells import cell_len

from .check_common import label
from .console import esc, t


def _cond(cond) -> str:
    from ascend_doctor.kb.language.conditions import describe

    return describe(cond)


def print_rule(console, rule, lang: str, sources: list[str] = ()) -> None:
    """One rule; ``sources`` are its problem's (a rule cites through the problem it checks for)."""
    L = lambda k: label(k, lang)  # noqa: E731
    from ascend_doctor.rules.catalog import group_titles

    group = t(group_titles().get(rule.group), lang) or rule.group
    console.print(f"[bold]{esc(t(rule.title, lang))}[/bold]  [dim]{esc(rule.id)} · {esc(rule.slug)}[/dim]")
    console.print(f"[dim]{esc(L('group'))} {esc(group)} · {esc(L('severity'))} {esc(L('severity.' + rule.severity))} · "
                  f"{esc(L('problem'))} {esc(rule.problem)}[/dim]")
    console.print(f"[bold]{esc(L('applies_when'))}:[/bold] {esc(_cond(rule.applies_when))}")
    console.print(f"[bold]{esc(L('skip'))}:[/bold] {esc(t(rule.skip, lang))}")
    console.print(f"[bold]{esc(L('condition'))}:[/bold] {esc(_cond(rule.condition))}")
    if rule.warn_when:
        console.print(f"[bold]{esc(L('warn_when'))}:[/bold] {esc(_cond(rule.warn_when))}")
    console.print(f"[bold]{esc(L('message'))}:[/bold] {esc(t(rule.message, lang))}")
    console.print(f"[bold]{esc(L('fix'))}:[/bold] {esc(t(rule.fix, lang))}")
    console.print(f"[bold]{esc(L('facts'))}:[/bold] {esc(', '.join(rule.facts_used()))}")
    if sources:
        console.print(f"[bold]{esc(L('sources'))}:[/bold]")
        for s in sources:
            console.print(f"  [dim]{esc(s)}[/dim]", soft_wrap=True)
    console.print(f"[dim]{esc(label('explain', lang).format(problem=rule.problem))}[/dim]")


def print_rule_list(console, rules, lang: str) -> None:
    from ascend_doctor.rules.catalog import group_titles

    titles = group_titles()
    current = None
    for r in rules:
        if r.group != current:
            if current is not None:
                console.print()
            current = r.group
            console.print(f"[bold]{esc(t(titles.get(r.group), lang) or r.group)}[/bold]")
        sev = {"critical": "bold red", "error": "red", "warning": "yellow"}.get(r.severity, "")
        word = label(f"severity.{r.severity}", lang)
        console.print(f"  {esc(r.id):<12} [{sev}]{esc(word)}{' ' * max(0, 8 - cell_len(word))}[/{sev}] {esc(t(r.title, lang))}  "
                      f"[dim]{esc(r.slug)} → {esc(r.problem)}[/dim]")


def rules_json(rules) -> str:
    from .console import dumps_json

    return dumps_json({"rules": [r.to_dict() for r in rules]}, ensure_ascii=False, indent=2) + "\n"
