"""Ask screen: type a symptom (English or Chinese), paste a log, or open a file or folder; get ranked causes.

The text box and the path field are two separate questions: ctrl+r (or the button) diagnoses the one
the user used last, Enter in the path field diagnoses the path; never both merged.
"""
from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, OptionList, TextArea
from textual.widgets.option_list import Option

from ..render.console import t
from .text import markdown_view, md_code, md_escape, safe
from .words import localize_bindings, w

TEXT, PATH = "text", "path"


class AskPane(Vertical):
    DEFAULT_CSS = """
    AskPane #ask-text { height: 6; }
    AskPane #ask-bar { height: 3; }
    AskPane #ask-path { width: 1fr; }
    AskPane #ask-status { height: 1; padding: 0 1; }
    AskPane #ask-body { height: 1fr; }
    AskPane #ask-results { width: 2fr; min-width: 24; height: 1fr; }
    AskPane #ask-detail { width: 3fr; height: 1fr; overflow-y: auto; padding: 0 1; }
    AskPane .-chosen { border: tall $accent; }
    """
    BINDINGS = [
        Binding("ctrl+r", "diagnose", "Diagnose", priority=True),
        Binding("ctrl+o", "open_problem", "Open"),
        Binding("ctrl+e", "toggle_facts", "Facts on/off", priority=True),
    ]

    def __init__(self, kb, machine, lang: str, **kw):
        super().__init__(**kw)
        self.kb = kb
        self.machine = machine
        self.lang = lang
        self.findings = []
        self.use_facts = True           # narrow the causes by the facts of this machine
        self.busy = False
        self.source = TEXT              # what ctrl+r diagnoses: the text box or the path field (the last used)
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        L = self.lang
        area = TextArea("", id="ask-text", soft_wrap=True, placeholder=w("ask.text.placeholder", L))
        area.border_title = w("ask.text.title", L)
        yield area
        with Horizontal(id="ask-bar"):
            path = Input(placeholder=w("ask.path.placeholder", L), id="ask-path")
            path.border_title = w("ask.path.title", L)
            yield path
            yield Button(w("ask.button", L), id="ask-go", variant="primary")
        yield Label(self._idle_note(), id="ask-status")
        with Horizontal(id="ask-body"):
            yield OptionList(id="ask-results")
            yield markdown_view("ask-detail")

    def _idle_note(self) -> str:
        L = self.lang
        facts = w("ask.facts_on", L) if self.use_facts else w("ask.facts_off", L)
        return f"{w('ask.idle.path' if self.source == PATH else 'ask.idle.text', L)} · {facts}"

    def on_mount(self) -> None:
        self._mark_source()
        self.app.pane_ready(self)

    def focus_main(self) -> None:
        self.query_one("#ask-text", TextArea).focus()

    # -- which of the two the user means -------------------------------------------------------------
    def choose(self, source: str) -> None:
        if source != self.source:
            self.source = source
            self._mark_source()
            if not self.busy:
                self.set_status(self._idle_note())

    def _mark_source(self) -> None:
        self.query_one("#ask-text", TextArea).set_class(self.source == TEXT, "-chosen")
        self.query_one("#ask-path", Input).set_class(self.source == PATH, "-chosen")

    def on_descendant_focus(self, event) -> None:
        if event.widget.id == "ask-text":
            self.choose(TEXT)
        elif event.widget.id == "ask-path":
            self.choose(PATH)

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

    # -- diagnosing ----------------------------------------------------------------------------------
    @on(Input.Submitted, "#ask-path")
    def _path_submitted(self) -> None:
        self.choose(PATH)
        self.action_diagnose()

    @on(Button.Pressed, "#ask-go")
    def _button(self) -> None:
        self.action_diagnose()

    def action_diagnose(self) -> None:
        """Diagnose the text box or the path field, whichever the user chose (used last)."""
        L = self.lang
        text = self.query_one("#ask-text", TextArea).text
        path = self.query_one("#ask-path", Input).value.strip()
        if not text.strip() and not path:
            self.set_status(w("ask.empty", L))
            self.focus_main()
            return
        if self.source == PATH and not path:
            self.set_status(w("ask.empty_path", L))
            return
        if self.source == TEXT and not text.strip():
            self.set_status(w("ask.empty_text", L))
            return
        self.busy = True
        if self.source == PATH:
            self.set_status(w("ask.busy.path", L, path=path))
            self._worker("", path, self.use_facts)
        else:
            self.set_status(w("ask.busy.text", L))
            self._worker(text, "", self.use_facts)

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
            self.app.call_from_thread(self._show, [], w("ask.failed", self.lang, error=exc))
            return
        if not use_facts:
            note += " " + w("ask.ignored", self.lang)
        self.app.call_from_thread(self._show, findings, note)

    def _show(self, findings, note: str) -> None:
        L = self.lang
        self.findings = findings
        ol = self.query_one("#ask-results", OptionList)
        ol.clear_options()
        for i, f in enumerate(findings):
            ol.add_option(Option(safe(f"{f.score:.2f}  {t(f.title, L)}"), id=str(i)))
        self.set_status(note)
        if findings:
            ol.highlighted = 0
            ol.focus()
        else:
            hint = [w("ask.hint.none", L), ""]
            if self.use_facts:
                hint.append(w("ask.hint.facts", L))
            hint.append(w("ask.hint.try", L))
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

        L = self.lang
        colon, gap = ("：", "") if L == "zh" else (":", " ")
        out = [f"## {md_escape(t(f.title, L))}", "", f"`{f.problem_id}` · {w('ask.score', L)} **{f.score:.2f}**", ""]
        if f.evidence:
            out += [f"**{w('ask.why', L)}{colon}**", ""]
            for ev in f.evidence[:8]:
                where = f"{ev.source}:{ev.line}" if ev.line else ev.source
                out.append(f"- {md_code(where)} **{md_escape(ev.text[:200])}**")
            out.append("")
        if f.confirmed_by:
            out += [f"**{w('ask.confirmed', L)}{colon}**", ""] + [f"- {md_code(n)}" for n in f.confirmed_by] + [""]
        if f.ruled_out_by:
            out += [f"**{w('ask.ruled_out', L)}{colon}**", ""] + [f"- {md_code(n)}" for n in f.ruled_out_by] + [""]
        p = self.kb.problem(f.problem_id)
        if p is not None:
            out += [f"**{label('root_cause', L)}{colon}**{gap}{t(p.root_cause, L)}", ""]
            out += fixes_markdown(p.fixes, L)
        out += ["", f"*{w('ask.keys', L)}*"]
        return "\n".join(out)

    def action_open_problem(self) -> None:
        ol = self.query_one("#ask-results", OptionList)
        if ol.highlighted is not None and self.findings:
            self.app.open_problem(self.findings[ol.highlighted].problem_id)
