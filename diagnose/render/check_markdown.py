"""``check`` as Markdown to paste into a vLLM-Ascend or MindIE issue: environment plus findings."""
from __future__ import annotations

from .check_common import EMOJI, CheckReport, group_fixes, label, summary_line, verdict
from .console import visible


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell or list item (no pipes, no line breaks, no HTML)."""
    return (visible(text).replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
            .replace("\r", " ").replace("\n", " "))


def check_markdown(report: CheckReport) -> str:
    lang = report.lang
    L = lambda k: label(k, lang)  # noqa: E731
    out = [f"### {L('title')}", "", f"**{_cell(verdict(report)[1])}**", ""]
    for heading, text, command, source in group_fixes(report):
        out += [f"{_cell(heading)}: {_cell(text)}", "", "```", command, "```", f"<sub>{_cell(source)}</sub>", ""]
    env = report.environment()
    if env:
        out += [f"**{L('environment')}**", "", "| | |", "|---|---|"]
        out += [f"| {_cell(k)} | `{_cell(v)}` |" for k, v in env]
        out.append("")
    findings = [r for r in report.results if r.status in ("FAIL", "WARN", "ERROR")]
    out += [f"**{L('findings')}** ({_cell(summary_line(report))})", ""]
    if not findings:
        out += [L("no_findings"), ""]
    order = {"FAIL": 0, "ERROR": 1, "WARN": 2}
    for r in sorted(findings, key=lambda r: order[r.status]):
        out.append(f"- {EMOJI[r.status]} **{_cell(r.text('title', lang))}** (`{r.rule}`): {_cell(r.text('message', lang))}")
        if r.text("fix", lang):
            out.append(f"  - {L('fix')}: {_cell(r.text('fix', lang))}")
        if r.status != "ERROR":
            out.append(f"  - {L('problem')}: `{r.problem}`")
    out += ["", "<details><summary>" + L("all_checks") + "</summary>", "",
            f"| {L('rule')} | {L('check')} | {L('status')} |", "|---|---|---|"]
    for r in report.results:
        out.append(f"| `{r.rule}` | {_cell(r.text('title', lang))} | {EMOJI[r.status]} {r.status} |")
    origin = f" · {_cell(report.origin)}" if report.origin else ""
    out += ["", "</details>", "", f"<sub>ascend-doctor {_cell(report.version)} check{origin}</sub>", ""]
    return "\n".join(out)
