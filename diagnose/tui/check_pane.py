"""Check screen: runs the environment check live and explains each result."""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label, LoadingIndicator, Markdown

from .text import md_escape, safe

GLYPHS = {"PASS": "✓", "WARN": "!", "FAIL": "✗", "SKIP": "-", "ERROR": "?"}
STYLES = {"PASS": "green", "WARN": "yellow", "FAIL": "bold red", "SKIP": "dim", "ERROR": "magenta"}


class CheckPane(Vertical):
    DEFAULT_CSS = """
    CheckPane #ck-status { height: 1; padding: 0 1; }
    CheckPane #ck-table { width: 1fr; min-width: 36; }
    CheckPane #ck-detail { width: 1fr; overflow-y: auto; padding: 0 1; }
    CheckPane LoadingIndicator { height: 3; }
    """
    BINDINGS = [
        Binding("c", "copy_fix", "Copy fix"),
        Binding("o", "open_problem", "Open problem"),
        Binding("r", "rerun", "Re-run"),
    ]

    def __init__(self, kb, machine, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.machine = machine
        self.lang = lang
        self.results: dict[str, object] = {}

    def compose(self) -> ComposeResult:
        yield Label("", id="ck-status")
        yield LoadingIndicator(id="ck-loading")
        with Horizontal():
            yield DataTable(id="ck-table", cursor_type="row", zebra_stripes=True)
            yield Markdown("", id="ck-detail")

    def on_mount(self) -> None:
        table = self.query_one("#ck-table", DataTable)
        table.add_columns(" ", "Group", "Check")
        self.run_check()

    def run_check(self) -> None:
        self.query_one("#ck-table", DataTable).clear()
        self.results.clear()
        self.query_one("#ck-loading").display = True
        self.query_one("#ck-status", Label).update(safe(f"collecting facts from {self.machine.label} …"))
        self._worker()

    @work(exclusive=True, thread=True, group="check")
    def _worker(self) -> None:
        from . import backend

        def progress(done: int, total: int, name: str) -> None:
            self.app.call_from_thread(self._progress, done, total, name)

        facts = self.machine.facts(progress)
        results = backend.run_check(self.kb, facts)
        self.app.call_from_thread(self._show, results)

    def _progress(self, done: int, total: int, name: str) -> None:
        self.query_one("#ck-status", Label).update(safe(f"probing {self.machine.label}: {done}/{total} {name}"))

    def _show(self, results) -> None:
        self.query_one("#ck-loading").display = False
        table = self.query_one("#ck-table", DataTable)
        order = {"FAIL": 0, "ERROR": 1, "WARN": 2, "PASS": 3, "SKIP": 4}
        for r in sorted(results, key=lambda r: (r.group, order.get(r.status, 9), r.rule_id)):
            self.results[r.rule_id] = r
            glyph = safe(GLYPHS.get(r.status, "?"))
            glyph.stylize(STYLES.get(r.status, ""))
            table.add_row(glyph, safe(r.group), safe(r.title(self.lang)), key=r.rule_id)
        counts = {s: sum(1 for r in results if r.status == s) for s in GLYPHS}
        summary = "  ".join(f"{GLYPHS[s]} {n} {s}" for s, n in counts.items() if n)
        self.query_one("#ck-status", Label).update(safe(f"{self.machine.label}: {summary}"))
        if results:
            first_bad = next((i for i, r in enumerate(sorted(results, key=lambda r: (r.group, order.get(r.status, 9), r.rule_id)))
                              if r.status in ("FAIL", "ERROR", "WARN")), 0)
            table.move_cursor(row=first_bad)
            table.focus()

    @on(DataTable.RowHighlighted, "#ck-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        r = self.results.get(event.row_key.value) if event.row_key else None
        if r is not None:
            self.query_one("#ck-detail", Markdown).update(self._detail(r))

    def _current(self):
        table = self.query_one("#ck-table", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return self.results.get(key.value)

    def _detail(self, r) -> str:
        from ..render.console import t
        from ..render.knowledge import fixes_markdown, label

        out = [f"## {md_escape(r.title(self.lang))}", "", f"`{r.rule_id}` · **{r.status}** · {r.severity}", "",
               md_escape(r.message(self.lang)), ""]
        if r.evidence:
            out += ["**Evidence:**", ""] + [f"- `{k}` = `{md_escape(v)}`" for k, v in r.evidence] + [""]
        if r.fix(self.lang):
            out += [f"**Fix:** {md_escape(r.fix(self.lang))}", ""]
        p = self.kb.problem(r.problem) if r.problem else None
        if p is not None:
            out += [f"### {md_escape(t(p.title, self.lang))}", "", f"**{label('root_cause', self.lang)}:** {t(p.root_cause, self.lang)}", ""]
            out += fixes_markdown(p.fixes, self.lang)
            out += [f"*o: open `{p.id}` in Knowledge · c: copy the first fix command*"]
        return "\n".join(out)

    def _first_command(self, r) -> str:
        p = self.kb.problem(r.problem) if r.problem else None
        for fx in sorted(p.fixes if p else [], key=lambda f: f["kind"] != "workaround"):
            for st in fx["steps"]:
                if st.get("command"):
                    return st["command"]
        return ""

    def action_copy_fix(self) -> None:
        r = self._current()
        cmd = self._first_command(r) if r else ""
        if not cmd:
            self.app.notify("no fix command for this result", severity="warning")
            return
        self.app.copy_to_clipboard(cmd)
        self.app.notify(f"copied: {cmd}", markup=False)

    def action_open_problem(self) -> None:
        r = self._current()
        if r is not None and r.problem:
            self.app.open_problem(r.problem)

    def action_rerun(self) -> None:
        self.run_check()
