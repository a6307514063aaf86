"""Fleet screen: the nodes x checks grid of a fleet check as a coloured heatmap, the fleet rules beside
it; the detail pane explains the highlighted cell (a node's results in one group, or what the fleet rules
say of it) or the highlighted fleet rule (its reference, cohorts and outliers per scope)."""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label

from ..render.check_common import GLYPH, STYLE
from .text import markdown_view, md_code, md_escape, safe
from .words import localize_bindings, w

HEAT = {"PASS": "", "SKIP": "", "WARN": "black on yellow", "FAIL": "bold white on red", "ERROR": "black on magenta"}
ORDER = {"FAIL": 0, "ERROR": 1, "WARN": 2, "PASS": 3, "SKIP": 4}
#: column headers of the heatmap (the per-node rule groups, then the fleet rules' verdict on the node):
#: words ``fleet.short.<group>``
SHORT = ("driver", "cann", "python", "container", "devices", "network", "fleet")


class FleetSource:
    """Which fleet the screen compares: snapshot files / directories or a bundled simulated fleet; the
    report is computed once, in a worker thread."""

    def __init__(self, paths=(), sim: str | None = None, kb_path: str | None = None, lang: str = "en"):
        self.paths, self.sim, self.kb_path, self.lang = list(paths), sim, kb_path, lang
        self.label = w("fleet.sim", lang, name=sim) if sim else ", ".join(self.paths)
        self._report = None

    def report(self):
        if self._report is None:
            from ..services.fleet import fleet_check

            self._report = fleet_check(self.paths, sim=self.sim, kb_path=self.kb_path, lang=self.lang)
        return self._report


class FleetPane(Vertical):
    DEFAULT_CSS = """
    FleetPane #fl-status { height: 1; padding: 0 1; }
    FleetPane #fl-body { height: 1fr; }
    FleetPane #fl-left { width: 3fr; min-width: 40; height: 1fr; }
    FleetPane #fl-grid { height: 2fr; }
    FleetPane #fl-rules { height: 1fr; }
    FleetPane #fl-detail { width: 2fr; min-width: 28; height: 1fr; overflow-y: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("a", "toggle_all", "All nodes / findings"),
        Binding("tab", "switch_table", "Grid / rules", show=True),
    ]

    def __init__(self, source: FleetSource, lang: str, **kw):
        super().__init__(**kw)
        self.source = source
        self.lang = lang
        self.report = None
        self.show_all = False
        self.done = False
        self.cols: list[str] = []
        self.cells: dict[str, list[str]] = {}
        self._detail_of = None
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        yield Label("", id="fl-status")
        with Horizontal(id="fl-body"):
            with Vertical(id="fl-left"):
                yield DataTable(id="fl-grid", cursor_type="cell", zebra_stripes=False, fixed_columns=1)
                yield DataTable(id="fl-rules", cursor_type="row", zebra_stripes=True)
            yield markdown_view("fl-detail")

    def on_mount(self) -> None:
        self.query_one("#fl-status", Label).update(safe(w("fleet.comparing", self.lang, fleet=self.source.label)))
        self._worker()
        self.app.pane_ready(self)

    def focus_main(self) -> None:
        self.query_one("#fl-grid", DataTable).focus()

    @work(exclusive=True, thread=True, group="fleet")
    def _worker(self) -> None:
        try:
            report = self.source.report()
        except Exception as exc:  # noqa: BLE001 - a usage or input error is shown on the screen
            self.app.call_from_thread(self._failed, exc)
            return
        self.app.call_from_thread(self._show, report)

    def _failed(self, exc: Exception) -> None:
        self.query_one("#fl-status", Label).update(safe(w("fleet.failed", self.lang, error=exc)))
        self.done = True

    def _show(self, report) -> None:
        from ..render.fleet_common import node_cells, verdict

        self.report = report
        self.cols, rows = node_cells(report)
        self.cells = dict(rows)
        s = report.summary()
        self.query_one("#fl-status", Label).update(safe(w(
            "fleet.summary", self.lang, fleet=self.source.label, n=s["nodes"]["received"], verdict=verdict(report)[1])))
        self._fill_grid()
        self._fill_rules()
        self.done = True

    def _fill_grid(self) -> None:
        from rich.cells import cell_len
        from rich.text import Text

        table = self.query_one("#fl-grid", DataTable)
        table.clear(columns=True)
        shown = [n for n, cells in self.cells.items() if self.show_all or any(c != "PASS" for c in cells)]
        width = max([4] + [len(n) for n in shown])
        table.add_column(w("fleet.col.node", self.lang), width=min(width, 24), key="node")
        for c in self.cols:
            head = w(f"fleet.short.{c}", self.lang) if c in SHORT else c[:5]
            table.add_column(head, width=max(cell_len(head), 3), key=c)
        for name in shown:
            row = [safe(name)]
            for c in self.cells[name]:
                row.append(Text(f" {GLYPH[c] if c not in ('PASS', 'SKIP') else '·'} ".ljust(3), style=HEAT[c] or "dim"))
            table.add_row(*row, key=name)
        if not shown:
            self._set_detail("grid", w("fleet.all_agree", self.lang))
            return
        table.move_cursor(row=0, column=self._first_bad_column(shown[0]))

    def _first_bad_column(self, node: str) -> int:
        cells = self.cells.get(node, [])
        bad = [(ORDER[c], i) for i, c in enumerate(cells) if c not in ("PASS", "SKIP")]
        return (min(bad)[1] + 1) if bad else 1

    def _fill_rules(self) -> None:
        from ascend_doctor.rules.nodeset import fold

        table = self.query_one("#fl-rules", DataTable)
        table.clear(columns=True)
        room = max(20, (table.size.width or 60) - 1 - 12 - 3 * 2 - 2)
        table.add_column(" ", width=1)
        table.add_column(w("fleet.col.rule", self.lang), width=12)
        table.add_column(w("fleet.col.check", self.lang), width=room)
        for r in sorted(self.report.rules, key=lambda r: (ORDER[r.status], r.rule)):
            glyph = safe(GLYPH[r.status])
            glyph.stylize(STYLE[r.status])
            who = f" · {fold(r.outliers)}" if r.outliers else ""
            text = r.text("title", self.lang)
            cut = room - len(who)
            text = text if len(text) <= cut else text[: max(0, cut - 1)] + "…"
            table.add_row(glyph, r.rule, safe(text + who), key=r.rule)

    # -- detail ----------------------------------------------------------------------------------------
    def _set_detail(self, key, text: str) -> None:
        if key == self._detail_of:
            return
        self._detail_of = key
        self.query_one("#fl-detail").update(text)

    @on(DataTable.CellHighlighted, "#fl-grid")
    def _cell(self, event: DataTable.CellHighlighted) -> None:
        if self.report is None or event.cell_key is None or self.query_one("#fl-rules", DataTable).has_focus:
            return
        node = event.cell_key.row_key.value
        col = event.cell_key.column_key.value
        self._set_detail((node, col), self.cell_markdown(node, col))

    @on(DataTable.RowHighlighted, "#fl-rules")
    def _rule(self, event: DataTable.RowHighlighted) -> None:
        # the detail follows the table the user is in (filling the rules table highlights its first row)
        if self.report is not None and event.row_key is not None and event.data_table.has_focus:
            self._set_detail(("rule", event.row_key.value), self.rule_markdown(event.row_key.value))

    def _show_current(self) -> None:
        grid, rules = self.query_one("#fl-grid", DataTable), self.query_one("#fl-rules", DataTable)
        table = rules if rules.has_focus else grid
        if self.report is None or not table.row_count:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate)
        if table is rules:
            self._set_detail(("rule", key.row_key.value), self.rule_markdown(key.row_key.value))
        else:
            self._set_detail((key.row_key.value, key.column_key.value),
                             self.cell_markdown(key.row_key.value, key.column_key.value))

    def cell_markdown(self, node: str, col: str) -> str:
        L = self.lang
        nodes = {n.name: n for n in self.report.nodes}
        n = nodes.get(node)
        out = [f"## {md_escape(node)}", ""]
        if n is None:
            return "\n".join(out + [w("fleet.no_snapshot", L)])
        if not n.readable:
            return "\n".join(out + [w("fleet.unreadable", L, reason=md_escape(n.reason))])
        if col in ("node", "fleet"):
            said = [(r, o) for r in self.report.rules for s in r.scopes for v in s.verdicts for o in v.outliers
                    if o["node"] == node]
            lacking = [(r, m) for r in self.report.rules for s in r.scopes for m in s.missing if m["node"] == node]
            out += [f"**{w('fleet.said', L)}**", ""]
            for r, o in said:
                out.append(f"- **{w('status.' + r.status, L)}** `{r.rule}` {md_escape(r.text('title', L))}: "
                           f"{md_code(o['value'])}" + (f" ({md_escape(o['detail'])})" if o.get("detail") else ""))
            for r, m in lacking:
                out.append(f"- **{w('fleet.no_data', L)}** `{r.rule}`: {md_escape(m['reason'])}")
            if not said and not lacking:
                out.append(w("fleet.agrees", L))
            labels = ", ".join(f"{k}={v}" for k, v in n.labels.items())
            if labels:
                out += ["", f"{w('fleet.labels', L)}: {md_code(labels)}"]
            return "\n".join(out)
        results = [r for r in n.results if r.group == col]
        out += [w("fleet.checks", L, group=f"**{md_escape(col)}**"), ""]
        for r in sorted(results, key=lambda r: (ORDER.get(r.status, 9), r.rule)):
            out.append(f"- **{w('status.' + r.status, L)}** `{r.rule}` {md_escape(r.text('title', L))}")
            if r.status in ("FAIL", "WARN", "ERROR"):
                out.append(f"  - {md_escape(r.text('message', L))}")
                if r.text("fix", L):
                    out.append(f"  - {w('fleet.fix', L)}: {md_escape(r.text('fix', L))}")
        return "\n".join(out)

    def rule_markdown(self, rule_id: str) -> str:
        from ascend_doctor.rules.nodeset import fold

        from ..render.fleet_common import LABELS as FLEET_LABELS
        from ..render.fleet_common import label as fleet_label

        L = self.lang
        r = next(x for x in self.report.rules if x.rule == rule_id)
        out = [f"## {md_escape(r.text('title', L))}", "",
               f"`{r.rule}` · **{w('status.' + r.status, L)}** · {w('severity.' + r.severity, L)}", "",
               md_escape(r.text("message", L)), ""]
        if r.text("fix", L):
            out += [f"**{w('fleet.fix', L)}:** {md_escape(r.text('fix', L))}", ""]
        for s in r.scopes:
            for v in s.verdicts:
                if not (v.cohorts or v.outliers or v.missing):
                    continue
                head = md_escape(v.subject) + (f" · {md_escape(s.label)}" if s.key else "")
                out += [f"### {head}", ""]
                if v.reference:
                    origin = v.reference["from"]
                    origin = fleet_label(f"from.{origin}", L) if f"from.{origin}" in FLEET_LABELS["en"] else origin
                    out.append(w("fleet.reference", L, value=md_code(str(v.reference["value"])), origin=origin,
                                 units=v.reference["units"]))
                elif v.split:
                    out.append(w("fleet.split", L))
                for c in v.cohorts[:12]:
                    out.append("- " + w("fleet.on", L, value=md_code(str(c["value"])), nodes=md_code(fold(c["nodes"])),
                                        units=c["units"]))
                if v.outliers and not v.cohorts:
                    out += [f"- {md_code(o['node'])}: {md_code(o['value'])}" for o in v.outliers[:12]]
                if v.missing:
                    out.append(f"- {w('fleet.no_data', L)}: {md_code(fold(m['node'] for m in v.missing))}")
                out.append("")
        if r.sources:
            out += [f"**{w('fleet.sources', L)}:**", ""] + [f"- {md_escape(u)}" for u in r.sources]
        return "\n".join(out)

    # -- actions ---------------------------------------------------------------------------------------
    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        if self.report is not None:
            self._fill_grid()

    def action_switch_table(self) -> None:
        grid, rules = self.query_one("#fl-grid", DataTable), self.query_one("#fl-rules", DataTable)
        (rules if grid.has_focus else grid).focus()
        self.call_after_refresh(self._show_current)
