"""Check screen: runs the environment check live and explains each result."""
from __future__ import annotations

import re

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from rich.text import Text
from textual.widgets import DataTable, Label

from .text import markdown_view, md_code, md_escape, safe
from .words import localize_bindings, machine_label, w

from ..render.check_common import GLYPH as GLYPHS, STYLE as STYLES   # the same glyphs as the CLI
ORDER = {"FAIL": 0, "ERROR": 1, "WARN": 2, "PASS": 3, "SKIP": 4}
#: the order of the counts in the status line: what needs a look first, so a narrow screen cuts the least
SUMMARY_ORDER = ("FAIL", "ERROR", "WARN", "PASS", "SKIP")
#: commands that only look (the diagnostic first steps of many fixes), never what "copy fix" copies
LOOK_ONLY = re.compile(r"^(?:sudo\s+)?(?:ls|cat|grep|head|tail|echo|env|which|command -v|uname|dmesg|id|stat|"
                       r"npu-smi info|pip (?:list|show)|python3? -c|docker (?:ps|inspect)|kubectl (?:get|describe))\b")
PROBLEMS = ("FAIL", "ERROR", "WARN")


class ResultsTable(DataTable):
    """The results table; it keeps the selected result in view when its size changes (terminal resize,
    theme switch, the detail pane re-flowing), where a plain DataTable keeps its old scroll offset."""

    def on_resize(self, event) -> None:
        pane = self.parent.parent if self.parent is not None else None
        if isinstance(pane, CheckPane) and pane.widths_changed(event.size.width):
            pane.refill()                  # the title column follows the table's width, rows re-wrap
        elif self.row_count:
            self.call_after_refresh(self.move_cursor, row=self.cursor_row)


class CheckPane(Vertical):
    DEFAULT_CSS = """
    CheckPane #ck-status { height: 1; padding: 0 1; }
    CheckPane #ck-body { height: 1fr; }
    CheckPane #ck-table { width: 3fr; min-width: 30; height: 1fr; }
    CheckPane #ck-detail { width: 2fr; min-width: 28; height: 1fr; overflow-y: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("c", "copy_fix", "Copy fix"),
        Binding("o", "open_problem", "Open"),
        Binding("p", "toggle_problems", "Problems only"),
        Binding("r", "rerun", "Re-run"),
    ]

    def __init__(self, kb, machine, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.machine = machine
        self.lang = lang
        self.results: dict[str, object] = {}
        self.rows: list = []
        self.only_problems = False
        self.done = False                  # True once the results of the current run are on screen
        self._detail_of = None             # rule shown in the detail pane (Markdown updates are not free)
        self._filled_width = 0             # the table width the rows were laid out for
        self.label = machine_label(machine.spec, lang)
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        yield Label("", id="ck-status")
        with Horizontal(id="ck-body"):
            yield ResultsTable(id="ck-table", cursor_type="row", zebra_stripes=True)
            yield markdown_view("ck-detail")

    def on_mount(self) -> None:
        self.run_check()
        self.app.pane_ready(self)

    def focus_main(self) -> None:
        self.query_one("#ck-table", DataTable).focus()

    def run_check(self, refresh: bool = False) -> None:
        self.done = False
        self.query_one("#ck-table", DataTable).clear()
        self.results.clear()
        self.rows = []
        self._set_detail(None, "")
        self.query_one("#ck-status", Label).update(safe(w("check.collecting", self.lang, machine=self.label)))
        self._worker(refresh)

    @work(exclusive=True, thread=True, group="check")
    def _worker(self, refresh: bool) -> None:
        from . import backend

        def progress(done: int, total: int, name: str) -> None:
            self.app.call_from_thread(self._progress, done, total, name)

        try:
            facts = self.machine.facts(progress, refresh=refresh)
            results = backend.run_check(self.kb, facts)
        except Exception as exc:  # noqa: BLE001 - shown on the screen, the app keeps running
            self.app.call_from_thread(self._failed, exc)
            return
        self.app.call_from_thread(self._show, results)

    def _progress(self, done: int, total: int, name: str) -> None:
        self.query_one("#ck-status", Label).update(
            safe(w("check.probing", self.lang, machine=self.label, done=done, total=total, name=name)))

    def _failed(self, exc: Exception) -> None:
        self.query_one("#ck-status", Label).update(safe(w("check.failed", self.lang, error=exc)))
        self.done = True

    def _show(self, results) -> None:
        self.rows = sorted(results, key=lambda r: (r.order, ORDER.get(r.status, 9), r.rule_id))
        self.results = {r.rule_id: r for r in self.rows}
        self.query_one("#ck-status", Label).update(self.summary(results))
        self._fill()
        self.done = True

    def summary(self, results) -> Text:
        """``✗ 3 FAIL  ? 5 ERROR  ✓ 19 PASS …``: worst first, each count in its colour (the machine is in the
        title bar, so the counts keep the whole line even at 80 columns)."""
        counts = {s: sum(1 for r in results if r.status == s) for s in SUMMARY_ORDER}
        line = Text()
        for s, n in counts.items():
            if n:
                line.append(f"{GLYPHS[s]} {n} {w('status.' + s, self.lang)}", style=STYLES.get(s, ""))
                line.append("  ")
        return line if line.plain else safe(w("check.no_rule", self.lang))

    def widths_changed(self, width: int) -> bool:
        return bool(self.rows) and width != self._filled_width

    def refill(self) -> None:
        """Lay the rows out again for the table's new width, keeping the selected result."""
        current = self.current()
        self._fill(keep=current.rule_id if current is not None else None)

    def _fill(self, keep: str | None = None) -> None:
        from rich.cells import cell_len

        table = self.query_one("#ck-table", DataTable)
        shown = [r for r in self.rows if not self.only_problems or r.status in PROBLEMS]
        # columns as wide as their widest cell, set here rather than measured by the table when it is
        # next idle (a screen drawn before that showed every column at its header's width)
        table.clear(columns=True)
        self._filled_width = table.size.width
        group_w = max([5] + [cell_len(r.group_title(self.lang)) for r in shown])
        check_w = max([5] + [cell_len(r.title(self.lang)) for r in shown])
        if table.size.width:
            # never wider than the table (1 + 2 padding per column, 2 for the scrollbar): a sideways
            # scrollbar would take a row and make the table re-scroll its selection back and forth; the
            # group gets at most a third, and a title that does not fit wraps onto a second line (never cut:
            # two cut titles can read the same)
            room = table.size.width - 1 - 3 * 2 - 2
            group_w = max(5, min(group_w, room // 3))
            check_w = max(10, min(check_w, room - group_w))
        table.add_column(" ", width=1)
        table.add_column(w("check.col.group", self.lang), width=group_w)
        table.add_column(w("check.col.check", self.lang), width=check_w)
        last_group = None
        for r in shown:
            glyph = safe(GLYPHS.get(r.status, "?"))
            glyph.stylize(STYLES.get(r.status, ""))
            group = r.group_title(self.lang) if r.group != last_group else ""   # once, as the CLI prints it
            last_group = r.group
            title = r.title(self.lang)
            lines = max(_lines(title, check_w), _lines(group, group_w))
            table.add_row(glyph, safe(group), safe(title), key=r.rule_id, height=lines)
        if not shown:
            self._set_detail(None, w("check.all_pass", self.lang) if self.rows else w("check.none_ran", self.lang))
            return
        # the worst result first: a FAIL before an ERROR before a WARN, wherever its group stands
        bad = [(ORDER.get(r.status, 9), i) for i, r in enumerate(shown) if r.status in PROBLEMS]
        first_bad = min(bad)[1] if bad else 0
        if keep is not None:
            first_bad = next((i for i, r in enumerate(shown) if r.rule_id == keep), first_bad)
        table.move_cursor(row=first_bad)
        # scroll again once the table has its final size, so the selected row is always in view
        self.call_after_refresh(table.move_cursor, row=first_bad)
        self._set_detail(shown[first_bad])

    def _set_detail(self, r, text: str | None = None) -> None:
        key = r.rule_id if r is not None else text
        if key == self._detail_of:
            return
        self._detail_of = key
        self.query_one("#ck-detail").update(self._detail(r) if r is not None else text)

    @on(DataTable.RowHighlighted, "#ck-table")
    def _row(self, event: DataTable.RowHighlighted) -> None:
        r = self.results.get(event.row_key.value) if event.row_key else None
        if r is not None:
            self._set_detail(r)

    @on(DataTable.RowSelected, "#ck-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_problem()

    def current(self):
        table = self.query_one("#ck-table", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return self.results.get(key.value)

    def _detail(self, r) -> str:
        from ..render.console import t
        from ..render.knowledge import fixes_markdown, label

        L = self.lang
        colon, gap = ("：", "") if L == "zh" else (":", " ")
        out = [f"## {md_escape(r.title(L))}", "",
               f"`{r.rule_id}` · **{w('status.' + r.status, L)}** · {w('severity.' + r.severity, L)}", "",
               md_escape(r.message(L)), ""]
        if r.evidence:
            out += [f"**{w('check.evidence', L)}{colon}**", ""]
            out += [f"- {md_code(k)} = {md_code(v)}" if v else f"- {md_code(k)}" for k, v in r.evidence] + [""]
        if r.fix(L):
            out += [f"**{w('check.fix', L)}{colon}**{gap}{md_escape(r.fix(L))}", ""]
        p = self.kb.problem(r.problem) if r.problem else None
        if p is not None:
            out += [f"### {md_escape(t(p.title, self.lang))}", "",
                    f"**{label('root_cause', self.lang)}{colon}**{gap}{t(p.root_cause, self.lang)}", ""]
            out += fixes_markdown(p.fixes, self.lang)
            keys = w("check.keys", L)
            if self.fix_command(r):
                keys += " · " + w("check.keys_copy", L)
            out += ["", f"*{keys}*"]
        return "\n".join(out)

    def fix_command(self, r) -> str:
        """The command that fixes a failing or warning result: its group's one command where the group has
        one (a container started without its devices: the whole docker run line), else the first step
        of its problem's fixes that changes something (not a look such as ls, cat or npu-smi info).
        Nothing for a result that passed, was skipped or could not be checked."""
        if r is None or r.status not in ("FAIL", "WARN"):
            return ""
        if r.group_command:
            return r.group_command
        p = self.kb.problem(r.problem) if r.problem else None
        for fx in sorted(p.fixes if p else [], key=lambda f: f["kind"] != "workaround"):
            for st in fx["steps"]:
                cmd = (st.get("command") or "").strip()
                if cmd and not LOOK_ONLY.match(cmd):
                    return cmd
        return ""

    def action_copy_fix(self) -> None:
        r = self.current()
        cmd = self.fix_command(r)
        if not cmd:
            passed = r is not None and r.status in ("PASS", "SKIP")
            why = w("check.nothing_to_fix" if passed else "check.no_command", self.lang)
            self.app.notify(why, severity="information" if passed else "warning", markup=False)
            return
        # OSC 52 reaches the clipboard only where the terminal allows it; the command is shown in full
        # either way, ready to select
        self.app.copy_to_clipboard(cmd)
        self.app.notify(w("check.copied", self.lang, command=cmd), markup=False, timeout=15)

    def action_open_problem(self) -> None:
        r = self.current()
        if r is not None and r.problem:
            self.app.open_problem(r.problem)
        elif r is not None:
            self.app.notify(w("check.no_problem", self.lang), severity="information", markup=False)

    def action_toggle_problems(self) -> None:
        self.only_problems = not self.only_problems
        self._fill()

    def action_rerun(self) -> None:
        self.run_check(refresh=True)


def _lines(text: str, width: int) -> int:
    """Rows a cell of ``text`` needs at ``width`` (wrapped as the table wraps it; at most 3)."""
    from rich.cells import cell_len

    if not text or cell_len(text) <= width:
        return 1
    return min(3, len(Text(text).wrap(_console(), width)))


def _console():
    from rich.console import Console

    global _CONSOLE
    if _CONSOLE is None:
        _CONSOLE = Console(width=200, file=None, color_system=None, legacy_windows=False)
    return _CONSOLE


_CONSOLE = None
