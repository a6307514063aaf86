"""Environment screen: every fact with its source and probe status, filterable; snapshot export."""
from __future__ import annotations

import json

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Input

from .text import safe

STATUS_STYLE = {"ok": "green", "missing": "yellow", "denied": "magenta", "timeout": "bold red", "error": "red",
                "unparsed": "cyan"}


def _short(value, width: int = 60) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[: width - 1] + "…"


class EnvironmentPane(Vertical):
    DEFAULT_CSS = """
    EnvironmentPane #env-filter { height: 3; }
    """
    BINDINGS = [Binding("x", "export", "Export snapshot")]

    def __init__(self, machine, lang: str, **kw):
        super().__init__(**kw)
        self.machine = machine
        self.lang = lang
        self.factset = None

    def compose(self) -> ComposeResult:
        yield Input(placeholder="filter facts: npu, env., status:timeout …", id="env-filter")
        yield DataTable(id="env-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.query_one("#env-table", DataTable).add_columns("Fact", "Value", "Status", "Source", "ms")
        self._load()

    @work(thread=True, exclusive=True, group="env")
    def _load(self) -> None:
        fs = self.machine.facts()
        self.app.call_from_thread(self._loaded, fs)

    def _loaded(self, fs) -> None:
        self.factset = fs
        self._fill(self.query_one("#env-filter", Input).value)

    @on(Input.Changed, "#env-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    def _fill(self, flt: str) -> None:
        table = self.query_one("#env-table", DataTable)
        table.clear()
        if self.factset is None:
            return
        flt = flt.strip().lower()
        want_status = flt[7:] if flt.startswith("status:") else ""
        for f in self.factset:
            if want_status and f.status != want_status:
                continue
            if flt and not want_status and flt not in f.key.lower() and flt not in _short(f.value, 400).lower():
                continue
            status = safe(f.status)
            status.stylize(STATUS_STYLE.get(f.status, ""))
            value = f.value if f.ok else (f.detail or "")
            table.add_row(safe(f.key), safe(_short(value)), status, safe(_short(f.source, 40)),
                          safe(f"{f.duration_ms:.0f}"), key=f.key)

    def action_export(self) -> None:
        if self.factset is None:
            self.app.notify("facts are still being collected", severity="warning")
            return
        try:
            path = self.machine.export_snapshot(self.app.export_dir)
        except OSError as exc:
            self.app.notify(f"snapshot not written: {exc}", severity="error", markup=False)
            return
        self.app.notify(f"snapshot written (private, mode 0600): {path}", markup=False)
