"""Environment screen: every fact with its source and probe status, filterable; snapshot export."""
from __future__ import annotations

import json

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Label

from .text import safe

STATUS_STYLE = {"ok": "green", "missing": "yellow", "denied": "magenta", "timeout": "bold red", "error": "red",
                "unparsed": "cyan"}


def _text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _short(value, width: int = 60) -> str:
    text = " ".join(_text(value).splitlines())
    return text if len(text) <= width else text[: width - 1] + "…"


class EnvironmentPane(Vertical):
    DEFAULT_CSS = """
    EnvironmentPane #env-filter { height: 3; }
    EnvironmentPane #env-status { height: 1; padding: 0 1; }
    EnvironmentPane #env-table { height: 1fr; }
    EnvironmentPane #env-value { height: auto; max-height: 5; padding: 0 1; background: $boost; }
    """
    BINDINGS = [
        Binding("ctrl+x", "export", "Export snapshot", priority=True),
        Binding("ctrl+f", "focus_filter", "Filter", show=False),
    ]

    def __init__(self, machine, lang: str, **kw):
        super().__init__(**kw)
        self.machine = machine
        self.lang = lang
        self.factset = None
        self.last_export = None
        self._pending_export = False
        # simulated probes take no real time: leave the column out there (and keep screenshots stable)
        self.show_ms = not machine.spec.sim

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter facts: npu, env., status:missing … (ctrl+x: export a private snapshot)",
                    id="env-filter")
        yield Label("collecting facts …", id="env-status")
        yield DataTable(id="env-table", cursor_type="row", zebra_stripes=True)
        yield Label("", id="env-value")

    def on_mount(self) -> None:
        cols = ["Fact", "Status", "Value", "Source"] + (["ms"] if self.show_ms else [])
        self.query_one("#env-table", DataTable).add_columns(*cols)
        self._load()
        self.app.pane_ready(self)

    def focus_main(self) -> None:
        self.query_one("#env-filter", Input).focus()

    def action_focus_filter(self) -> None:
        self.focus_main()

    @work(thread=True, exclusive=True, group="env")
    def _load(self) -> None:
        try:
            fs = self.machine.facts()
        except Exception as exc:  # noqa: BLE001 - shown on the screen, the app keeps running
            self.app.call_from_thread(self.query_one("#env-status", Label).update, safe(f"facts not collected: {exc}"))
            return
        self.app.call_from_thread(self._loaded, fs)

    def _loaded(self, fs) -> None:
        self.factset = fs
        self._fill(self.query_one("#env-filter", Input).value)
        if self._pending_export:
            self._pending_export = False
            self.action_export()

    @on(Input.Changed, "#env-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#env-filter")
    def _to_table(self) -> None:
        self.query_one("#env-table", DataTable).focus()

    def _fill(self, flt: str) -> None:
        table = self.query_one("#env-table", DataTable)
        table.clear()
        if self.factset is None:
            return
        flt = flt.strip().lower()
        want_status = flt[7:].strip() if flt.startswith("status:") else ""
        facts = list(self.factset)
        shown = 0
        for f in facts:
            if want_status and f.status != want_status:
                continue
            if flt and not want_status and flt not in f.key.lower() and flt not in _text(f.value).lower():
                continue
            status = safe(f.status)
            status.stylize(STATUS_STYLE.get(f.status, ""))
            value = f.value if f.ok else (f.detail or "")
            row = [safe(f.key), status, safe(_short(value, 40)), safe(_short(f.source, 30))]
            if self.show_ms:
                row.append(safe(f"{f.duration_ms:.0f}"))
            table.add_row(*row, key=f.key)
            shown += 1
        note = f"{shown} of {len(facts)} facts" if flt else f"{len(facts)} facts"
        self.query_one("#env-status", Label).update(safe(note + " · Enter: to the table · ctrl+x: export snapshot"))
        if not shown:
            self.query_one("#env-value", Label).update(safe("no fact matches the filter" if flt else "no facts"))

    @on(DataTable.RowHighlighted, "#env-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        if self.factset is None or event.row_key is None:
            return
        f = self.factset.get(event.row_key.value) if hasattr(self.factset, "get") else None
        if f is None:
            f = next((x for x in self.factset if x.key == event.row_key.value), None)
        if f is None:
            return
        value = _text(f.value) if f.ok else (f.detail or "")
        # the full value of the highlighted fact (the table cuts long ones), never as markup
        self.query_one("#env-value", Label).update(safe(f"{f.key} = {value}   [{f.status}, {f.source}]"))

    def action_export(self) -> None:
        if self.factset is None:
            self._pending_export = True      # written as soon as the facts are in
            self.app.notify("facts are still being collected; the snapshot follows", severity="information")
            return
        try:
            path = self.machine.export_snapshot(self.app.export_dir)
        except Exception as exc:  # noqa: BLE001 - OSError or a probe failure: one line, the app keeps running
            self.app.notify(f"snapshot not written: {exc}", severity="error", markup=False)
            return
        self.last_export = path
        self.app.notify(f"snapshot written (private, mode 0600): {path}", markup=False)
