"""The ascend-doctor TUI: Check, Ask, Knowledge and Environment screens in one app.

Keyboard first (F1-F4 or the command palette switch screens; the footer shows the bindings),
mouse works. Works the same on a live machine, a simulated profile (--sim) or a snapshot (--replay);
the title bar says which machine is being looked at.
"""
from __future__ import annotations

import os

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, TabbedContent, TabPane

from .knowledge_pane import KnowledgePane

SCREENS = ("check", "ask", "knowledge", "environment")
TAB_LABELS = {"check": "F1 Check", "ask": "F2 Ask", "knowledge": "F3 Knowledge", "environment": "F4 Environment"}


class AscendDoctorApp(App):
    TITLE = "ascend-doctor"
    CSS = """
    TabPane { padding: 0; }
    """
    BINDINGS = [
        # the tab labels carry F1-F4, so the footer keeps its room for the keys of the focused screen
        Binding("f1", "show('check')", "Check", show=False),
        Binding("f2", "show('ask')", "Ask", show=False),
        Binding("f3", "show('knowledge')", "Knowledge", show=False),
        Binding("f4", "show('environment')", "Environment", show=False),
        Binding("f5", "toggle_dark", "Theme"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    def __init__(self, kb, machine, lang: str = "en", start: str = "check", export_dir: str | None = None):
        super().__init__()
        self.kb = kb
        self.machine = machine          # tui.machine.Machine: facts + label
        self.lang = lang
        self.start = start if start in SCREENS else "check"
        self.export_dir = export_dir or os.getcwd()
        self.sub_title = machine.label

    def compose(self) -> ComposeResult:
        from .ask_pane import AskPane
        from .check_pane import CheckPane
        from .env_pane import EnvironmentPane

        yield Header()
        with TabbedContent(initial=self.start, id="tabs"):
            with TabPane(TAB_LABELS["check"], id="check"):
                yield CheckPane(self.kb, self.machine, self.lang, id="check-pane")
            with TabPane(TAB_LABELS["ask"], id="ask"):
                yield AskPane(self.kb, self.machine, self.lang, id="ask-pane")
            with TabPane(TAB_LABELS["knowledge"], id="knowledge"):
                yield KnowledgePane(self.kb, self.lang, id="knowledge-pane")
            with TabPane(TAB_LABELS["environment"], id="environment"):
                yield EnvironmentPane(self.machine, self.lang, id="env-pane")
        yield Footer()

    def on_mount(self) -> None:
        self.call_after_refresh(self._focus_screen, self.start)

    def _pane(self, screen: str):
        return self.query_one({"check": "#check-pane", "ask": "#ask-pane", "knowledge": "#knowledge-pane",
                               "environment": "#env-pane"}[screen])

    def _focus_screen(self, screen: str) -> None:
        self._pane(screen).focus_main()

    @on(TabbedContent.TabActivated, "#tabs")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        # clicking a tab (or F1-F4) puts the keyboard where the user will type or move next
        if event.pane.id in SCREENS:
            self._focus_screen(event.pane.id)

    def action_show(self, screen: str) -> None:
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.active != screen:
            tabs.active = screen
        self._focus_screen(screen)

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
        self.query_one(CheckPane).run_check(refresh=True)

    def _export(self) -> None:
        from .env_pane import EnvironmentPane

        self.action_show("environment")
        self.query_one(EnvironmentPane).action_export()
