"""The ascend-doctor TUI: Check, Ask, Knowledge and Environment screens in one app.

Keyboard first (F1-F4 or the command palette switch screens; the footer shows the bindings),
mouse works. Works the same on a live machine, a simulated profile (--sim) or a snapshot (--replay);
the title bar says which machine is being looked at.
"""
from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, TabbedContent, TabPane

from .knowledge_pane import KnowledgePane

SCREENS = ("check", "ask", "knowledge", "environment")


class AscendDoctorApp(App):
    TITLE = "ascend-doctor"
    CSS = """
    TabPane { padding: 0; }
    """
    BINDINGS = [
        Binding("f1", "show('check')", "Check"),
        Binding("f2", "show('ask')", "Ask"),
        Binding("f3", "show('knowledge')", "Knowledge"),
        Binding("f4", "show('environment')", "Environment"),
        Binding("f5", "toggle_dark", "Theme"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, kb, machine, lang: str = "en", start: str = "check"):
        super().__init__()
        self.kb = kb
        self.machine = machine          # tui.machine.Machine: facts + label
        self.lang = lang
        self.start = start if start in SCREENS else "check"
        self.sub_title = machine.label

    def compose(self) -> ComposeResult:
        from .ask_pane import AskPane
        from .check_pane import CheckPane
        from .env_pane import EnvironmentPane

        yield Header()
        with TabbedContent(initial=self.start, id="tabs"):
            with TabPane("Check [F1]", id="check"):
                yield CheckPane(self.kb, self.machine, self.lang, id="check-pane")
            with TabPane("Ask [F2]", id="ask"):
                yield AskPane(self.kb, self.machine, self.lang, id="ask-pane")
            with TabPane("Knowledge [F3]", id="knowledge"):
                yield KnowledgePane(self.kb, self.lang, id="knowledge-pane")
            with TabPane("Environment [F4]", id="environment"):
                yield EnvironmentPane(self.machine, self.lang, id="env-pane")
        yield Footer()

    def action_show(self, screen: str) -> None:
        self.query_one("#tabs", TabbedContent).active = screen
        if screen == "knowledge":
            self.query_one(KnowledgePane).focus_query()

    def action_toggle_dark(self) -> None:
        self.theme = "textual-light" if self.theme != "textual-light" else "textual-dark"

    def open_problem(self, problem_id: str) -> None:
        """Jump to the Knowledge screen showing one problem (used by Check and Ask)."""
        self.action_show("knowledge")
        self.query_one(KnowledgePane).open_problem(problem_id)

    def get_system_commands(self, screen):
        yield from super().get_system_commands(screen)
        from textual.app import SystemCommand

        for name in SCREENS:
            yield SystemCommand(f"Show {name.title()}", f"Switch to the {name} screen", lambda n=name: self.action_show(n))
        yield SystemCommand("Run the check again", "Collect the facts and run every rule", self._rerun_check)
        yield SystemCommand("Export snapshot", "Write a private snapshot of this machine", self._export)

    def _rerun_check(self) -> None:
        from .check_pane import CheckPane

        self.action_show("check")
        self.query_one(CheckPane).run_check()

    def _export(self) -> None:
        from .env_pane import EnvironmentPane

        self.action_show("environment")
        self.query_one(EnvironmentPane).action_export()
