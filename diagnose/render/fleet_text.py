"""``fleet`` as text: the fleet rules first (reference, cohorts, outliers folded into node ranges), then
a nodes x checks grid that hides clean nodes unless verbose. Everything from snapshots is escaped."""
from __future__ import annotations

from rich.cells import cell_len

from .check_common import GLYPH, STYLE
from .console import esc
from .fleet_common import LABELS, cell_glyph, column, grid, label, verdict, version_cohorts


def _center(text: str, width: int) -> str:
    """``text`` centred in ``width`` terminal cells (a Chinese character takes two)."""
    pad = max(0, width - cell_len(text))
    return " " * (pad // 2) + text + " " * (pad - pad // 2)


def _from_word(origin, lang: str) -> str:
    """Where a reference value comes from (majority, baseline) in ``lang``."""
    key = f"from.{origin}"
    return label(key, lang) if key in LABELS["en"] else str(origin)


def print_fleet(console, report, verbose: bool = False) -> None:
    from ascend_doctor.rules.nodeset import fold

    lang = report.lang
    L = lambda k: label(k, lang)  # noqa: E731
    head = (f"[bold]{esc(L('title'))}[/bold]  [dim]{esc(report.origin)} · ascend-doctor {esc(report.version)} · "
            f"{report.duration_ms / 1000:.2f} s[/dim]")
    console.print(head)
    parts = []
    if report.expected is not None:
        parts.append(f"{len(report.expected)} {L('expected')}")
    parts.append(f"{len(report.nodes)} {L('received')}")
    if report.missing:
        parts.append(f"{len(report.missing)} {L('missing')} ({fold(report.missing)})")
    if report.unreadable:
        parts.append(f"{len(report.unreadable)} {L('unreadable')} ({fold(n.name for n in report.unreadable)})")
    groups = "; ".join(f"{', '.join(f'{k}={v}' for k, v in key.items()) or '-'} ({len(names)})"
                       for key, names in report.groups)
    console.print(esc(", ".join(parts)) + (f"  [dim]{esc(L('groups'))}: {esc(groups)}[/dim]" if groups else ""))
    kind, sentence = verdict(report)
    style = {"ok": "bold green", "errors": "bold yellow", "problems": "bold red"}[kind]
    console.print(f"[{style}]{esc(sentence)}[/{style}]")
    console.print()
    console.print(f"[bold]{esc(L('fleet_rules'))}[/bold]")
    quiet = {"PASS": 0, "SKIP": 0}
    order = {"FAIL": 0, "ERROR": 1, "WARN": 2, "PASS": 3, "SKIP": 4}
    for r in sorted(report.rules, key=lambda r: order[r.status]):
        if r.status in quiet and not verbose:
            quiet[r.status] += 1
            continue
        st = STYLE[r.status]
        word = L(r.status)
        console.print(f"  [{st}]{GLYPH[r.status]} {word}{' ' * max(0, 5 - cell_len(word))}[/{st}] {esc(r.rule)}  "
                      f"{esc(r.text('title', lang))}")
        msg = r.text("message", lang)
        if msg and (r.status != "PASS" or verbose):
            console.print(f"          {esc(msg)}", style="dim" if r.status in ("PASS", "SKIP") else None)
        if r.status in ("FAIL", "WARN"):
            for s in r.scopes:
                for v in s.verdicts:
                    if v.reference and v.drift:
                        ref = v.reference
                        console.print(f"          [dim]{esc(v.subject)}: {esc(L('reference'))} {esc(ref['value'])} "
                                      f"({esc(_from_word(ref['from'], lang))}, {ref['units']})"
                                      + (f" · {esc(s.label)}" if s.key else "") + "[/dim]")
                    elif v.split:
                        console.print(f"          [dim]{esc(v.subject)}: {esc(L('split'))}"
                                      + (f" · {esc(s.label)}" if s.key else "") + "[/dim]")
            if r.outliers:
                console.print(f"          {esc(L('outliers'))}: {esc(fold(r.outliers))}")
            fix = r.text("fix", lang)
            if fix:
                console.print(f"          [cyan]→ {esc(L('fix'))}:[/cyan] {esc(fix)}")
    if quiet["PASS"] or quiet["SKIP"]:
        console.print(f"  [dim]{esc(L('more').format(n=quiet['PASS'], s=quiet['SKIP']))}[/dim]")
    console.print()
    cols, rows, hidden = grid(report, verbose)
    console.print(f"[bold]{esc(L('nodes_checks'))}[/bold]" + (f"  [dim]({esc(L('hidden').format(n=hidden))})[/dim]"
                                                              if hidden else ""))
    if rows:
        names = [fold(nodes) for nodes, _ in rows]
        width = max([len(n) for n in names] + [len(L("node"))]) + 2
        heads = [column(c, lang) for c in cols]
        widths = [max(cell_len(h), 1) + 2 for h in heads]
        header = f"  {esc(L('node'))}{' ' * max(0, width - cell_len(L('node')))}" + "".join(
            _center(esc(h), w) for h, w in zip(heads, widths))
        console.print(f"[dim]{header}[/dim]")
        for name, (_, cells) in zip(names, rows):
            line = f"  {esc(name):<{width}}"
            for c, w in zip(cells, widths):
                g = cell_glyph(c)
                pad = (w - 1) // 2
                cell = " " * pad + g + " " * (w - pad - 1)
                line += f"[{STYLE[c]}]{esc(cell)}[/{STYLE[c]}]" if c not in ("PASS", "SKIP") else f"[dim]{cell}[/dim]"
            console.print(line)
        console.print(f"  [dim]{esc(L('legend'))}[/dim]")
        for node in report.unreadable:
            console.print(f"  [magenta]{esc(node.name)}[/magenta]: {esc(node.reason)}")
        if verbose:
            shown = [n for n in report.nodes if n.readable and any(r.status in ("FAIL", "WARN", "ERROR") for r in n.results)]
            for n in shown:
                for r in n.results:
                    if r.status in ("FAIL", "WARN", "ERROR"):
                        console.print(f"  {esc(n.name)} [{STYLE[r.status]}]{GLYPH[r.status]}[/{STYLE[r.status]}] "
                                      f"{esc(r.rule)} {esc(r.text('message', lang))}")
    else:
        console.print(f"  [green]{esc(L('ok'))}[/green]")
    if verbose:
        console.print()
        console.print(f"[bold]{esc(L('versions'))}[/bold]")
        for name, _key, cohorts in version_cohorts(report):
            console.print(f"  {esc(name)}: " + esc("; ".join(L("on").format(value=v, nodes=fold(ns), n=len(ns))
                                                              for v, ns in cohorts)))
    console.print()
    s = report.summary()
    fl = s["fleet"]
    console.print(f"[bold]{esc(L('summary'))}:[/bold] " + esc(L("totals").format(
        p=fl["pass"], w=fl["warn"], f=fl["fail"], e=fl["error"], s=fl["skip"], nf=s["nodes"]["with_fail"],
        nw=s["nodes"]["with_warn"], x=report.exit_code)))
