"""Render knowledge entries (problems, error codes) as rich text, Markdown and JSON-ready dicts.

Shared by ``explain``, ``search``, ``diagnose``, ``check -v`` and the TUI detail panes.
"""
from __future__ import annotations

from dataclasses import asdict
from typing import Any

from .console import esc, t, tl

LABELS = {
    "en": {"summary": "Summary", "root_cause": "Root cause", "fixes": "Fixes", "workaround": "Temporary fix",
           "permanent": "Permanent fix", "sources": "Sources", "codes": "Error codes", "applies": "Applies to",
           "hardware": "hardware", "versions": "versions", "symptoms": "Symptoms", "related": "Related",
           "meaning": "Meaning", "causes": "Typical causes", "action": "What to do", "problems": "Known problems",
           "level": "Action level", "range": "range", "family": "family", "severity": "severity",
           "silent": "Prints no message of its own"},
    "zh": {"summary": "概述", "root_cause": "根因", "fixes": "解决方法", "workaround": "临时方案",
           "permanent": "长期方案", "sources": "来源", "codes": "错误码", "applies": "适用范围",
           "hardware": "硬件", "versions": "版本", "symptoms": "现象", "related": "相关问题",
           "meaning": "含义", "causes": "常见原因", "action": "处理建议", "problems": "相关已知问题",
           "level": "处理级别", "range": "范围", "family": "类别", "severity": "严重级别",
           "silent": "无专属报错信息"},
}


def label(key: str, lang: str) -> str:
    return LABELS.get(lang, LABELS["en"]).get(key, key)


def silent_text(kind: str, lang: str) -> str:
    """How a problem that prints no message of its own shows itself, in ``lang``."""
    from ascend_doctor.kb.model import SILENT_KINDS

    en, zh = SILENT_KINDS.get(kind, (kind, kind))
    return zh if lang == "zh" else en


def severity(value: str, lang: str) -> str:
    """critical / error / warning / info in ``lang`` (the words of check)."""
    from .check_common import LABELS as CHECK_LABELS

    return CHECK_LABELS.get(lang, CHECK_LABELS["en"]).get(f"severity.{value}", value)


def _fix_order(fixes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(fixes, key=lambda f: 0 if f.get("kind") == "workaround" else 1)


def print_problem(console, p, lang: str, titles: dict[str, str] | None = None, brief: bool = False) -> None:
    """Rich text of a problem. ``titles`` maps related/linked ids to their titles."""
    L = lambda k: label(k, lang)  # noqa: E731
    console.print(f"[bold]{esc(t(p.title, lang))}[/bold]  [dim]{esc(p.id)} · {esc(p.family)} · "
                  f"{esc(severity(p.severity, lang))}[/dim]")
    console.print(esc(t(p.summary, lang)))
    console.print(f"[bold]{L('root_cause')}:[/bold] {esc(t(p.root_cause, lang))}")
    if getattr(p, "silent", ""):
        console.print(f"[bold]{L('silent')}:[/bold] {esc(silent_text(p.silent, lang))}")
    applies = []
    if p.hardware and p.hardware != ["any"]:
        applies.append(f"{L('hardware')} {', '.join(p.hardware)}")
    if p.versions:
        applies.append(f"{L('versions')} " + ", ".join(f"{k} {v}" for k, v in p.versions.items()))
    if applies:
        console.print(f"[bold]{L('applies')}:[/bold] {esc('; '.join(applies))}")
    if p.codes and not brief:
        console.print(f"[bold]{L('codes')}:[/bold] {esc(', '.join(p.codes))}")
    print_fixes(console, p.fixes, lang)
    if not brief:
        if p.related:
            rel = ", ".join(f"{r} ({(titles or {}).get(r, '')})" if (titles or {}).get(r) else r for r in p.related)
            console.print(f"[bold]{L('related')}:[/bold] {esc(rel)}")
        console.print(f"[bold]{L('sources')}:[/bold]")
        for s in p.sources:
            console.print(f"  [dim]{esc(s)}[/dim]", soft_wrap=True)


def print_fixes(console, fixes: list[dict[str, Any]], lang: str, indent: str = "") -> None:
    for fx in _fix_order(fixes):
        console.print(f"{indent}[bold green]{label(fx['kind'], lang)}[/bold green]: {esc(t(fx['summary'], lang))}")
        for i, st in enumerate(fx["steps"], start=1):
            console.print(f"{indent}  {i}. {esc(st.get(lang) or st['en'])}")
            if st.get("command"):
                for line in st["command"].splitlines():       # one line, ready to copy
                    console.print(f"{indent}     [cyan]{esc(line)}[/cyan]", soft_wrap=True)


def problem_markdown(p, lang: str, heading: int = 2) -> str:
    L = lambda k: label(k, lang)  # noqa: E731
    h = "#" * heading
    out = [f"{h} {t(p.title, lang)}", "", f"`{p.id}` · {p.family} · {severity(p.severity, lang)}", "", t(p.summary, lang), "",
           f"**{L('root_cause')}:** {t(p.root_cause, lang)}", ""]
    if getattr(p, "silent", ""):
        out += [f"**{L('silent')}:** {silent_text(p.silent, lang)}", ""]
    if p.versions or (p.hardware and p.hardware != ["any"]):
        parts = []
        if p.hardware and p.hardware != ["any"]:
            parts.append(f"{L('hardware')} {', '.join(p.hardware)}")
        if p.versions:
            parts.append(f"{L('versions')} " + ", ".join(f"{k} `{v}`" for k, v in p.versions.items()))
        out += [f"**{L('applies')}:** " + "; ".join(parts), ""]
    out += fixes_markdown(p.fixes, lang)
    out += [f"**{L('sources')}:**", ""] + [f"- {s}" for s in p.sources] + [""]
    return "\n".join(out)


def fixes_markdown(fixes: list[dict[str, Any]], lang: str) -> list[str]:
    out: list[str] = []
    for fx in _fix_order(fixes):
        out += [f"**{label(fx['kind'], lang)}:** {t(fx['summary'], lang)}", ""]
        for i, st in enumerate(fx["steps"], start=1):
            out.append(f"{i}. {st.get(lang) or st['en']}")
            if st.get("command"):
                out += ["", "   ```sh"] + [f"   {line}" for line in st["command"].splitlines()] + ["   ```", ""]
        out.append("")
    return out


def print_code(console, c, lang: str, titles: dict[str, str] | None = None, queried: str = "") -> None:
    L = lambda k: label(k, lang)  # noqa: E731
    head = f"[bold]{esc(c.code)}[/bold]"
    if c.name:
        head += f"  [bold cyan]{esc(c.name)}[/bold cyan]"
    head += f"  [dim]{L('family')}: {esc(c.family)}[/dim]"
    if c.is_pattern and queried:
        head += f"  [dim]({L('range')}: {esc(queried)} ∈ {esc(c.code)})[/dim]"
    console.print(head)
    console.print(f"[bold]{L('meaning')}:[/bold] {esc(t(c.meaning, lang))}")
    causes = tl(c.causes, lang)
    if causes:
        console.print(f"[bold]{L('causes')}:[/bold]")
        for cause in causes:
            console.print(f"  - {esc(cause)}")
    if c.action:
        console.print(f"[bold]{L('action')}:[/bold] {esc(t(c.action, lang))}")
    if c.level:
        console.print(f"[bold]{L('level')}:[/bold] {esc(c.level)}")
    if c.problems:
        console.print(f"[bold]{L('problems')}:[/bold]")
        for pid in c.problems:
            title = (titles or {}).get(pid, "")
            console.print(f"  - {esc(pid)}" + (f"  {esc(title)}" if title else ""))
    console.print(f"[bold]{L('sources')}:[/bold]")
    for s in c.sources:
        console.print(f"  [dim]{esc(s)}[/dim]", soft_wrap=True)


def to_jsonable(obj: Any) -> Any:
    """Dataclass (ProblemInfo, CodeInfo, ...) -> dict."""
    return asdict(obj)
