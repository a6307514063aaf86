"""``fleet`` as Markdown for an issue: the verdict, the fleet rules that fail, a version matrix by cohort,
the nodes with findings, and every rule in a folded section."""
from __future__ import annotations

from .check_common import EMOJI
from .check_markdown import _cell
from .fleet_common import cell_glyph, column, grid, label, verdict, version_cohorts


def fleet_markdown(report) -> str:
    from ascend_doctor.rules.nodeset import fold

    lang = report.lang
    L = lambda k: label(k, lang)  # noqa: E731
    s = report.summary()
    out = [f"### {L('title')}", "", f"**{_cell(verdict(report)[1])}**", ""]
    counts = [f"{s['nodes']['received']} {L('received')}"]
    if report.expected is not None:
        counts.insert(0, f"{len(report.expected)} {L('expected')}")
    if report.missing:
        counts.append(f"{len(report.missing)} {L('missing')}: `{_cell(fold(report.missing))}`")
    if report.unreadable:
        counts.append(f"{len(report.unreadable)} {L('unreadable')}: `{_cell(fold(n.name for n in report.unreadable))}`")
    out += [", ".join(counts), ""]
    findings = [r for r in report.rules if r.status in ("FAIL", "WARN", "ERROR")]
    if findings:
        out += [f"**{L('fleet_rules')}**", "", f"| | {L('rule')} | {L('check')} | {L('outliers')} |", "|---|---|---|---|"]
        order = {"FAIL": 0, "ERROR": 1, "WARN": 2}
        for r in sorted(findings, key=lambda r: order[r.status]):
            who = fold(r.outliers) if r.outliers else (fold(r.missing) if r.status == "ERROR" else L("split"))
            out.append(f"| {EMOJI[r.status]} | `{r.rule}` | {_cell(r.text('title', lang))} | `{_cell(who)}` |")
        out.append("")
        for r in sorted(findings, key=lambda r: order[r.status]):
            out.append(f"- **`{r.rule}`** {_cell(r.text('message', lang))}")
            if r.text("fix", lang):
                out.append(f"  - {L('fix')}: {_cell(r.text('fix', lang))}")
        out.append("")
    matrix = version_cohorts(report)
    if matrix:
        out += [f"**{L('versions')}**", "", f"| | {L('value')} | {L('nodes')} |", "|---|---|---|"]
        for name, _key, cohorts in matrix:
            for i, (value, nodes) in enumerate(cohorts):
                flag = " ⚠️" if len(cohorts) > 1 and i > 0 else ""
                out.append(f"| {_cell(name) if i == 0 else ''} | `{_cell(value)}`{flag} | `{_cell(fold(nodes))}` ({len(nodes)}) |")
        out.append("")
    cols, rows, hidden = grid(report)
    if rows:
        out += [f"**{L('nodes_checks')}** ({_cell(L('hidden').format(n=hidden))})", "",
                f"| {L('node')} | " + " | ".join(column(c, report.lang) for c in cols) + " |", "|---|" + "---|" * len(cols)]
        for nodes, cells in rows:
            out.append(f"| `{_cell(fold(nodes))}` | " + " | ".join(cell_glyph(c) for c in cells) + " |")
        out.append("")
    out += ["<details><summary>" + _cell(L("fleet_rules")) + "</summary>", "",
            f"| {L('rule')} | {L('check')} | {L('status')} |", "|---|---|---|"]
    out += [f"| `{r.rule}` | {_cell(r.text('title', lang))} | {EMOJI[r.status]} {r.status} |" for r in report.rules]
    out += ["", "</details>", "", f"<sub>ascend-doctor {_cell(report.version)} fleet · {_cell(report.origin)}</sub>", ""]
    return "\n".join(out)
