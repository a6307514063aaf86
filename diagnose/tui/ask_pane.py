"""Ask screen: type a symptom (English or Chinese), paste a log, or open a file or folder; get ranked causes."""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, TextArea
from textual.widgets.option_list import Option

from ..render.console import t
from .text import markdown_view, md_code, md_escape, safe


class AskPane(Vertical):
    DEFAULT_CSS = """
    AskPane #ask-text { height: 6; }
    AskPane #ask-bar { height: 3; }
    AskPane #ask-path { width: 1fr; }
    AskPane #ask-status { height: 1; padding: 0 1; }
    AskPane #ask-body { height: 1fr; }
    AskPane #ask-results { width: 2fr; min-width: 24; height: 1fr; }
    AskPane #ask-detail { width: 3fr; height: 1fr; overflow-y: auto; padding: 0 1; }
    """
    BINDINGS = [
        Binding("ctrl+r", "diagnose", "Diagnose", priority=True),
        Binding("ctrl+o", "open_problem", "Open in Knowledge"),
        Binding("ctrl+e", "toggle_facts", "Machine facts on/off", priority=True),
    ]

    def __init__(self, kb, machine, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.machine = machine
        self.lang = lang
        self.findings = []
        self.use_facts = True           # narrow the causes by the facts of this machine
        self.busy = False

    def compose(self) -> ComposeResult:
        yield TextArea("", id="ask-text", soft_wrap=True,
                       placeholder="describe the problem or paste a log: 权重加载一直卡住 / HCCL timeout when starting 2 nodes")
        with Horizontal(id="ask-bar"):
            yield Input(placeholder="or a log file / folder path (plog directory, .gz), Enter to diagnose", id="ask-path")
            yield Button("Diagnose ^r", id="ask-go", variant="primary")
        yield Label(self._idle_note(), id="ask-status")
        with Horizontal(id="ask-body"):
            yield OptionList(id="ask-results")
            yield markdown_view("ask-detail")

    def _idle_note(self) -> str:
        facts = f"narrowed by the facts of {self.machine.label}" if self.use_facts else "machine facts ignored"
        return f"ctrl+r: diagnose · {facts} (ctrl+e)"

    def on_mount(self) -> None:
        self.app.pane_ready(self)

    def focus_main(self) -> None:
        self.query_one("#ask-text", TextArea).focus()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        """Pasted text with control characters (ESC sequences from a coloured log) is shown with them made
        visible (\x1b), never handed to the terminal; diagnosing it is unaffected (logs are cleaned)."""
        from ..render.console import visible

        area = event.text_area
        text = area.text
        if any(ord(c) < 32 and c not in "\n\t" or 0x7f <= ord(c) < 0xa0 for c in text):
            area.load_text(visible(text))

    def set_status(self, text: str) -> None:
        self.query_one("#ask-status", Label).update(safe(text))

    @on(Button.Pressed, "#ask-go")
    @on(Input.Submitted, "#ask-path")
    def action_diagnose(self) -> None:
        text = self.query_one("#ask-text", TextArea).text
        path = self.query_one("#ask-path", Input).value.strip()
        if not text.strip() and not path:
            self.set_status("type a symptom, paste a log or give a path first")
            self.focus_main()
            return
        self.busy = True
        self.set_status("diagnosing …")
        self._worker(text, path, self.use_facts)

    def action_toggle_facts(self) -> None:
        self.use_facts = not self.use_facts
        self.set_status(self._idle_note())
        if self.query_one("#ask-text", TextArea).text.strip() or self.query_one("#ask-path", Input).value.strip():
            self.action_diagnose()

    @work(exclusive=True, thread=True, group="ask")
    def _worker(self, text: str, path: str, use_facts: bool) -> None:
        from . import backend

        try:
            facts = self.machine.facts() if use_facts else None
            findings, note = backend.diagnose(self.kb, text, path, facts, self.lang)
        except backend.InputProblem as exc:
            self.app.call_from_thread(self._show, [], str(exc))
            return
        except Exception as exc:  # noqa: BLE001 - shown on the screen, the app keeps running
            self.app.call_from_thread(self._show, [], f"could not diagnose: {exc}")
            return
        if not use_facts:
            note += " (machine facts ignored)"
        self.app.call_from_thread(self._show, findings, note)

    def _show(self, findings, note: str) -> None:
        self.findings = findings
        ol = self.query_one("#ask-results", OptionList)
        ol.clear_options()
        for i, f in enumerate(findings):
            ol.add_option(Option(safe(f"{f.score:.2f}  {t(f.title, self.lang)}"), id=str(i)))
        self.set_status(note)
        if findings:
            ol.highlighted = 0
            ol.focus()
        else:
            hint = ["No known cause matched.", ""]
            if self.use_facts:
                hint.append("Causes that the facts of this machine rule out are not listed: "
                            "press **ctrl+e** to ignore the machine facts.")
            hint.append("Try other words, paste the full log, or search on the Knowledge screen (F3).")
            self.query_one("#ask-detail").update("\n\n".join(hint))
        self.busy = False

    @on(OptionList.OptionHighlighted, "#ask-results")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        f = self.findings[int(event.option.id)]
        self.query_one("#ask-detail").update(self._detail(f))

    @on(OptionList.OptionSelected, "#ask-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.app.open_problem(self.findings[int(event.option.id)].problem_id)

    def _detail(self, f) -> str:
        from ..render.knowledge import fixes_markdown, label

        out = [f"## {md_escape(t(f.title, self.lang))}", "", f"`{f.problem_id}` · score **{f.score:.2f}**", ""]
        if f.evidence:
            out += ["**Why:**", ""]
            for ev in f.evidence[:8]:
                where = f"{ev.source}:{ev.line}" if ev.line else ev.source
                out.append(f"- {md_code(where)} **{md_escape(ev.text[:200])}**")
            out.append("")
        if f.confirmed_by:
            out += ["**Confirmed by this machine:**", ""] + [f"- {md_code(n)}" for n in f.confirmed_by] + [""]
        if f.ruled_out_by:
            out += ["**Made unlikely by this machine:**", ""] + [f"- {md_code(n)}" for n in f.ruled_out_by] + [""]
        p = self.kb.problem(f.problem_id)
        if p is not None:
            out += [f"**{label('root_cause', self.lang)}:** {t(p.root_cause, self.lang)}", ""]
            out += fixes_markdown(p.fixes, self.lang)
        out += ["", "*Enter / ctrl+o: open in Knowledge*"]
        return "\n".join(out)

    def action_open_problem(self) -> None:
        ol = self.query_one("#ask-results", OptionList)
        if ol.highlighted is not None and self.findings:
            self.app.open_problem(self.findings[ol.highlighted].problem_id)
