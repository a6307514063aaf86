"""The ascend-doctor TUI: Check, Ask, Knowledge and Environment screens in one app (and Fleet when a fleet
of snapshots is given).

Keyboard first (F1-F4 or the command palette switch screens; the footer shows the bindings; q quits),
mouse works. Works the same on a live machine, a simulated profile (--sim) or a snapshot (--replay);
the title bar says which machine is being looked at. Every word of its own is in English and Chinese
(words.py).
"""
from __future__ import annotations

import os

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, TabbedContent, TabPane

from .knowledge_pane import KnowledgePane
from .words import localize_bindings, machine_label, w

#: actions of the screens that the command palette offers too: (words key, screen, action)
PANE_COMMANDS = (
    ("cmd.copy_fix", "check", "copy_fix"),
    ("cmd.open_check", "check", "open_problem"),
    ("cmd.problems", "check", "toggle_problems"),
    ("cmd.diagnose", "ask", "diagnose"),
    ("cmd.facts", "ask", "toggle_facts"),
    ("cmd.open_ask", "ask", "open_problem"),
    ("cmd.view", "environment", "toggle_view"),
    ("cmd.filter", "environment", "focus_filter"),
)

SCREENS = ("check", "ask", "knowledge", "environment")


class AscendDoctorApp(App):
    TITLE = "ascend-doctor"
    CSS = """
    TabPane { padding: 0; }
    """
    BINDINGS = [
        # the tab labels carry F1-F4, so the footer keeps its room for the keys of the focused screen
        Binding("f1", "show('check')", show=False),
        Binding("f2", "show('ask')", show=False),
        Binding("f3", "show('knowledge')", show=False),
        Binding("f4", "show('environment')", show=False),
        Binding("f6", "show('fleet')", show=False),
        # q quits wherever it is not typed into a text field (those keep the letter); ctrl+q everywhere
        Binding("q", "quit", "Quit"),
        Binding("f5", "toggle_dark", "Theme"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True),
        Binding("ctrl+p", "command_palette", "Commands", show=False, priority=True),
    ]

    def __init__(self, kb, machine, lang: str = "en", start: str = "check", export_dir: str | None = None,
                 fleet=None):
        super().__init__()
        from .text import enable_cjk_wrap

        enable_cjk_wrap()               # Chinese wraps between characters, not only at spaces
        self.kb = kb
        self.machine = machine          # tui.machine.Machine: facts + label
        self.lang = lang
        self.fleet = fleet              # tui.fleet_pane.FleetSource, or None: no Fleet screen
        self.screens = SCREENS + (("fleet",) if fleet is not None else ())
        self.start = start if start in self.screens else "check"
        self.export_dir = export_dir or os.getcwd()
        self.sub_title = machine_label(machine.spec, lang)
        localize_bindings(self, lang)

    def compose(self) -> ComposeResult:
        # only the first screen is built at start-up (fast first paint); the others on first visit
        yield Header()
        with TabbedContent(initial=self.start, id="tabs"):
            for name in self.screens:
                with TabPane(w(f"tab.{name}", self.lang), id=name):
                    if name == self.start:
                        yield self._new_pane(name)
        yield Footer()

    def _new_pane(self, screen: str):
        if screen == "check":
            from .check_pane import CheckPane

            return CheckPane(self.kb, self.machine, self.lang, id="check-pane")
        if screen == "ask":
            from .ask_pane import AskPane

            return AskPane(self.kb, self.machine, self.lang, id="ask-pane")
        if screen == "knowledge":
            return KnowledgePane(self.kb, self.lang, id="knowledge-pane")
        if screen == "fleet":
            from .fleet_pane import FleetPane

            return FleetPane(self.fleet, self.lang, id="fleet-pane")
        from .env_pane import EnvironmentPane

        return EnvironmentPane(self.machine, self.lang, id="env-pane")

    def pane(self, screen: str):
        """The widget of one screen, built (mounted) on first use."""
        tab = self.query_one(f"TabPane#{screen}", TabPane)
        if tab.children:
            return tab.children[0]
        widget = self._new_pane(screen)
        tab.mount(widget)
        return widget

    def pane_ready(self, pane) -> None:
        """Called by each screen once mounted: focus it when it is the one on show."""
        if pane.parent is not None and self.query_one("#tabs", TabbedContent).active == pane.parent.id:
            pane.focus_main()

    def _focus_screen(self, screen: str) -> None:
        pane = self.pane(screen)
        if pane.is_mounted:
            pane.focus_main()
        else:
            # keep no focus on the screen left behind (its focus would pull the tabs back to it);
            # the new screen takes the focus once mounted (pane_ready)
            self.set_focus(None)

    @on(TabbedContent.TabActivated, "#tabs")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        # clicking a tab (or F1-F4) puts the keyboard where the user will type or move next
        if event.pane.id in self.screens:
            self._focus_screen(event.pane.id)

    def action_show(self, screen: str) -> None:
        if screen not in self.screens:
            self.notify(w("no_fleet", self.lang), severity="information", markup=False)
            return
        tabs = self.query_one("#tabs", TabbedContent)
        if tabs.active != screen:
            tabs.active = screen
        self._focus_screen(screen)

    def action_toggle_dark(self) -> None:
        self.theme = "textual-light" if self.theme != "textual-light" else "textual-dark"

    def open_problem(self, problem_id: str) -> None:
        """Jump to the Knowledge screen showing one problem (used by Check and Ask)."""
        self.action_show("knowledge")
        self.pane("knowledge").open_problem(problem_id)

    def action_help_quit(self) -> None:
        """ctrl+c: say how to quit (in the user's language)."""
        self.notify(w("quit_hint", self.lang), markup=False)

    def action_command_palette(self) -> None:
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(id="--command-palette", placeholder=w("palette.placeholder", self.lang)))

    def get_system_commands(self, screen):
        """The command palette: every screen, its actions and the app's own, in the user's language (in place
        of textual's English ones)."""
        from textual.app import SystemCommand

        L = self.lang
        for name in self.screens:
            word = w(f"screen.{name}", L)
            yield SystemCommand(w("cmd.show", L, screen=word), w("cmd.show.help", L, screen=word),
                                lambda n=name: self.action_show(n))
        yield SystemCommand(w("cmd.rerun", L), w("cmd.rerun.help", L), self._rerun_check)
        yield SystemCommand(w("cmd.export", L), w("cmd.export.help", L), self._export)
        for key, screen_name, action in PANE_COMMANDS:
            yield SystemCommand(w(key, L), w(f"{key}.help", L), lambda s=screen_name, a=action: self._pane_action(s, a))
        yield SystemCommand(w("cmd.theme", L), w("cmd.theme.help", L), self.action_toggle_dark)
        yield SystemCommand(w("cmd.quit", L), w("cmd.quit.help", L), self.exit)

    def _pane_action(self, screen_name: str, action: str) -> None:
        """Run a screen's own action from the command palette (the same as its key)."""
        if self.query_one("#tabs", TabbedContent).active != screen_name:
            self.action_show(screen_name)       # (showing it again would queue a focus that pulls back)
        pane = self.pane(screen_name)
        if not pane.is_mounted:
            self.notify(w("still_opening", self.lang), severity="warning", markup=False)
            return
        getattr(pane, f"action_{action}")()

    def _rerun_check(self) -> None:
        self.action_show("check")
        pane = self.pane("check")
        if pane.is_mounted:
            pane.run_check(refresh=True)

    def _export(self) -> None:
        self.action_show("environment")
        self.pane("environment").action_export()
