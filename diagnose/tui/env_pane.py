"""Environment screen: an overview first (a summary card and an ``npu-smi info``-like device table), every
fact with its source and probe status one key away (ctrl+t, filterable); ctrl+x saves a private snapshot
where the user says."""
from __future__ import annotations

import json

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import ContentSwitcher, DataTable, Input, Label, Static

from .text import safe
from .words import localize_bindings, w

STATUS_STYLE = {"ok": "green", "missing": "yellow", "denied": "magenta", "timeout": "bold red", "error": "red",
                "unparsed": "cyan", "unset": "dim"}
HEALTH_STYLE = {"OK": "green", "Warning": "yellow", "Alarm": "bold red", "Critical": "bold red"}


def _text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _short(value, width: int = 60) -> str:
    text = " ".join(_text(value).splitlines())
    return text if len(text) <= width else text[: width - 1] + "…"


def shown_status(fact) -> str:
    """A fact's status as the table shows it: an environment variable nobody set is ``unset``, not missing."""
    if fact.status == "missing" and fact.key.startswith("env."):
        return "unset"
    return fact.status


class EnvironmentPane(Vertical):
    DEFAULT_CSS = """
    EnvironmentPane #env-views { height: 1fr; }
    EnvironmentPane #env-overview { height: 1fr; }
    EnvironmentPane #env-card { height: auto; padding: 0 1; background: $boost; }
    EnvironmentPane #env-devices { height: auto; max-height: 1fr; }
    EnvironmentPane #env-procs { width: 1fr; height: auto; padding: 0 1; }
    EnvironmentPane #env-overview-keys { width: 1fr; height: auto; padding: 0 1; color: $text-muted; }
    EnvironmentPane #env-facts { height: 1fr; }
    EnvironmentPane #env-filter { height: 3; }
    EnvironmentPane #env-status { height: 1; padding: 0 1; }
    EnvironmentPane #env-table { height: 1fr; }
    EnvironmentPane #env-value { height: auto; max-height: 5; padding: 0 1; background: $boost; }
    """
    BINDINGS = [
        Binding("ctrl+x", "export", "Export snapshot", priority=True),
        Binding("ctrl+t", "toggle_view", "Facts / overview", priority=True),
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
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        L = self.lang
        with ContentSwitcher(initial="env-overview", id="env-views"):
            with VerticalScroll(id="env-overview", can_focus=True):
                yield Static(w("env.collecting", L), id="env-card", markup=False)
                yield DataTable(id="env-devices", cursor_type="row", zebra_stripes=True)
                yield Label("", id="env-procs")
                yield Label("", id="env-overview-keys")
            with Vertical(id="env-facts"):
                yield Input(placeholder=w("env.filter.placeholder", L), id="env-filter")
                yield Label(w("env.collecting", L), id="env-status")
                yield DataTable(id="env-table", cursor_type="row", zebra_stripes=True)
                yield Label("", id="env-value")

    def on_mount(self) -> None:
        L = self.lang
        cols = [w("env.col.fact", L), w("env.col.status", L), w("env.col.value", L), w("env.col.source", L)]
        self.query_one("#env-table", DataTable).add_columns(*cols + ([w("env.col.ms", L)] if self.show_ms else []))
        self._load()
        self.app.pane_ready(self)

    @property
    def view(self) -> str:
        return self.query_one("#env-views", ContentSwitcher).current or "env-overview"

    def focus_main(self) -> None:
        if self.view == "env-facts":
            self.query_one("#env-filter", Input).focus()
        elif self.query_one("#env-devices", DataTable).display:
            self.query_one("#env-devices", DataTable).focus()
        else:
            self.query_one("#env-overview").focus()         # no device: the keys still reach the screen

    def action_toggle_view(self) -> None:
        switcher = self.query_one("#env-views", ContentSwitcher)
        switcher.current = "env-facts" if self.view == "env-overview" else "env-overview"
        self.focus_main()

    def action_focus_filter(self) -> None:
        self.query_one("#env-views", ContentSwitcher).current = "env-facts"
        self.query_one("#env-filter", Input).focus()

    @work(thread=True, exclusive=True, group="env")
    def _load(self) -> None:
        try:
            fs = self.machine.facts()
        except Exception as exc:  # noqa: BLE001 - shown on the screen, the app keeps running
            note = safe(w("env.failed", self.lang, error=exc))
            self.app.call_from_thread(self.query_one("#env-status", Label).update, note)
            self.app.call_from_thread(self.query_one("#env-card", Static).update, note)
            return
        self.app.call_from_thread(self._loaded, fs)

    def _loaded(self, fs) -> None:
        self.factset = fs
        self._fill_overview()
        self._fill(self.query_one("#env-filter", Input).value)
        if self._pending_export:
            self._pending_export = False
            self.action_export()

    # -- overview --------------------------------------------------------------------------------------
    def _fill_overview(self) -> None:
        from rich.table import Table

        from .env_summary import card, device_table, processes

        L = self.lang
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column(ratio=1)                       # a long stack wraps under itself
        for k, v in card(self.factset, L):
            grid.add_row(k, safe(v))                   # values come from the machine: never markup or controls
        self.query_one("#env-card", Static).update(grid)
        heads, rows, why = device_table(self.factset, L)
        table = self.query_one("#env-devices", DataTable)
        table.clear(columns=True)
        if rows:
            table.display = True
            table.add_columns(*heads)
            health = heads.index(w("env.dev.health", L)) if w("env.dev.health", L) in heads else -1
            for row in rows:
                cells = [safe(c) for c in row]
                if health >= 0:
                    cells[health].stylize(HEALTH_STYLE.get(row[health], ""))
                table.add_row(*cells)
            # its height from its rows now (header + one line a device), not measured when the table is next
            # idle: under load that measurement could come after the overview's last layout and leave the
            # table drawn zero lines high
            table.styles.height = len(rows) + 1
        else:
            table.display = False
        if self.app.focused is table and not table.display or self.app.focused is None and self.view == "env-overview":
            self.focus_main()
        self.query_one("#env-procs", Label).update(safe(why or processes(self.factset, L)))
        bad = sum(1 for f in self.factset if shown_status(f) not in ("ok", "unset"))
        self.query_one("#env-overview-keys", Label).update(
            safe(w("env.overview.keys", L, n=len(list(self.factset)), bad=bad)))

    # -- every fact ------------------------------------------------------------------------------------
    @on(Input.Changed, "#env-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._fill(event.value)

    @on(Input.Submitted, "#env-filter")
    def _to_table(self) -> None:
        self.query_one("#env-table", DataTable).focus()

    def _fill(self, flt: str) -> None:
        L = self.lang
        table = self.query_one("#env-table", DataTable)
        table.clear()
        if self.factset is None:
            return
        flt = flt.strip().lower()
        want_status = flt[7:].strip() if flt.startswith("status:") else ""
        facts = list(self.factset)
        shown = 0
        for f in facts:
            status = shown_status(f)
            word = w(f"fact.{status}", L) if status != "unset" else w("env.unset", L)
            if want_status and want_status not in (f.status, status, word.lower()):
                continue
            if flt and not want_status and flt not in f.key.lower() and flt not in _text(f.value).lower():
                continue
            cell = safe(word)
            cell.stylize(STATUS_STYLE.get(status, ""))
            value = f.value if f.ok else (f.detail or "")
            row = [safe(f.key), cell, safe(_short(value, 40)), safe(_short(f.source, 30))]
            if self.show_ms:
                row.append(safe(f"{f.duration_ms:.0f}"))
            table.add_row(*row, key=f.key)
            shown += 1
        note = w("env.count_of", L, shown=shown, n=len(facts)) if flt else w("env.count", L, n=len(facts))
        self.query_one("#env-status", Label).update(safe(note + " · " + w("env.keys", L)))
        if not shown:
            self.query_one("#env-value", Label).update(safe(w("env.no_match" if flt else "env.no_facts", L)))

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
        status = shown_status(f)
        word = w(f"fact.{status}", self.lang) if status != "unset" else w("env.unset", self.lang)
        # the full value of the highlighted fact (the table cuts long ones), never as markup
        self.query_one("#env-value", Label).update(safe(f"{f.key} = {value}   [{word}, {f.source}]"))

    # -- export ----------------------------------------------------------------------------------------
    def action_export(self) -> None:
        """Ask where to save a private snapshot; write it only when the user confirms."""
        from .save_dialog import SaveSnapshotDialog

        if self.factset is None:
            self._pending_export = True      # the dialog opens as soon as the facts are in
            self.app.notify(w("env.export.waiting", self.lang), severity="information", markup=False)
            return
        suggested = self.machine.suggested_snapshot(self.app.export_dir)
        self.app.push_screen(SaveSnapshotDialog(suggested, self.lang), self._save)

    def _save(self, path) -> None:
        if path is None:
            self.app.notify(w("env.export.cancelled", self.lang), severity="information", markup=False)
            return
        try:
            written = self.machine.export_snapshot(path)
        except Exception as exc:  # noqa: BLE001 - OSError or a probe failure: one line, the app keeps running
            self.app.notify(w("env.export.failed", self.lang, error=exc), severity="error", markup=False)
            return
        self.last_export = written
        self.app.notify(w("env.export.done", self.lang, path=written), markup=False)

