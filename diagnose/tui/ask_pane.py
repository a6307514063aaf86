"""Ask screen: type a symptom (English or Chinese), paste a log, or open a file or folder; get ranked causes."""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Markdown, OptionList, TextArea
from textual.widgets.option_list import Option

from ..render.console import t
from .text import md_escape, safe


class AskPane(Vertical):
    DEFAULT_CSS = """
    AskPane #ask-text { height: 8; }
    AskPane #ask-bar { height: 3; }
    AskPane #ask-path { width: 1fr; }
    AskPane #ask-status { height: 1; padding: 0 1; }
    AskPane #ask-results { width: 2fr; min-width: 30; }
    AskPane #ask-detail { width: 3fr; overflow-y: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("ctrl+r", "diagnose", "Diagnose", priority=True),
        Binding("ctrl+o", "open_problem", "Open problem"),
    ]

    def __init__(self, kb, machine, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.machine = machine
        self.lang = lang
        self.findings = []

    def compose(self) -> ComposeResult:
        yield TextArea("", id="ask-text", placeholder="describe the problem or paste a log: 权重加载一直卡住 / HCCL timeout when starting 2 nodes")
        with Horizontal(id="ask-bar"):
            yield Input(placeholder="or a log file / folder path (plog directory, .gz)", id="ask-path")
            yield Button("Diagnose (ctrl+r)", id="ask-go", variant="primary")
        yield Label("", id="ask-status")
        with Horizontal():
            yield OptionList(id="ask-results")
            yield Markdown("", id="ask-detail")

    @on(Button.Pressed, "#ask-go")
    @on(Input.Submitted, "#ask-path")
    def action_diagnose(self) -> None:
        text = self.query_one("#ask-text", TextArea).text
        path = self.query_one("#ask-path", Input).value.strip()
        if not text.strip() and not path:
            self.query_one("#ask-status", Label).update("type a symptom, paste a log or give a path first")
            return
        self.query_one("#ask-status", Label).update("diagnosing …")
        self._worker(text, path)

    @work(exclusive=True, thread=True, group="ask")
    def _worker(self, text: str, path: str) -> None:
        from . import backend

        try:
            facts = self.machine.facts()
            findings, note = backend.diagnose(self.kb, text, path, facts, self.lang)
        except backend.InputProblem as exc:
            self.app.call_from_thread(self.query_one("#ask-status", Label).update, safe(str(exc)))
            return
        self.app.call_from_thread(self._show, findings, note)

    def _show(self, findings, note: str) -> None:
        self.findings = findings
        ol = self.query_one("#ask-results", OptionList)
        ol.clear_options()
        for i, f in enumerate(findings):
            ol.add_option(Option(safe(f"{f.score:.2f}  {t(f.title, self.lang)}"), id=str(i)))
        self.query_one("#ask-status", Label).update(safe(note))
        if findings:
            ol.highlighted = 0
            ol.focus()
        else:
            self.query_one("#ask-detail", Markdown).update("")

    @on(OptionList.OptionHighlighted, "#ask-results")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        f = self.findings[int(event.option.id)]
        self.query_one("#ask-detail", Markdown).update(self._detail(f))

    def _detail(self, f) -> str:
        from ..render.knowledge import fixes_markdown, label

        out = [f"## {md_escape(t(f.title, self.lang))}", "", f"`{f.problem_id}` · score **{f.score:.2f}**", ""]
        if f.evidence:
            out += ["**Why:**", ""]
            for ev in f.evidence[:8]:
                where = f"{ev.source}:{ev.line}" if ev.line else ev.source
                out.append(f"- `{md_escape(where)}` **{md_escape(ev.text[:200])}**")
            out.append("")
        p = self.kb.problem(f.problem_id)
        if p is not None:
            out += [f"**{label('root_cause', self.lang)}:** {t(p.root_cause, self.lang)}", ""]
            out += fixes_markdown(p.fixes, self.lang)
        return "\n".join(out)

    def action_open_problem(self) -> None:
        ol = self.query_one("#ask-results", OptionList)
        if ol.highlighted is not None and self.findings:
            self.app.open_problem(self.findings[ol.highlighted].problem_id)
