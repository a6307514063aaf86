"""The dialog ctrl+x opens on the Environment screen: where to save the private snapshot. Nothing is
written until the user confirms a path; a folder takes the suggested file name inside it."""
from __future__ import annotations

import os
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from .text import safe
from .words import w


def resolve(given: str, suggested_name: str) -> tuple[Path | None, str]:
    """(the file to write, "") or (None, the words key of why not) for what the user typed."""
    text = given.strip()
    if not text:
        return None, "save.empty"
    path = Path(os.path.expanduser(text))
    if path.is_dir():
        path = path / suggested_name
    if not path.parent.is_dir():
        return None, "save.no_dir"
    if path.exists():
        return None, "save.exists"
    return path, ""


class SaveSnapshotDialog(ModalScreen):
    """Asks for the snapshot's file; dismisses with the Path to write, or None when cancelled."""

    DEFAULT_CSS = """
    SaveSnapshotDialog { align: center middle; }
    SaveSnapshotDialog > Vertical { width: 76; max-width: 100%; height: auto; padding: 1 2; border: thick $accent;
                                    background: $surface; }
    SaveSnapshotDialog Label { width: 1fr; }
    SaveSnapshotDialog #save-title { text-style: bold; }
    SaveSnapshotDialog #save-error { color: $error; height: auto; }
    SaveSnapshotDialog Horizontal { height: auto; align-horizontal: right; }
    SaveSnapshotDialog Button { margin-left: 2; }
    """
    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self, suggested: Path, lang: str):
        super().__init__()
        self.suggested = suggested
        self.lang = lang

    def compose(self) -> ComposeResult:
        L = self.lang
        with Vertical():
            yield Label(w("save.title", L), id="save-title")
            yield Label(w("save.body", L), id="save-body")
            yield Label(w("save.label", L))
            yield Input(str(self.suggested), id="save-path")
            yield Label("", id="save-error")
            with Horizontal():
                yield Label(w("save.keys", L), id="save-keys")
                yield Button(w("save.save", L), variant="primary", id="save-ok")
                yield Button(w("save.cancel", L), id="save-cancel")

    def on_mount(self) -> None:
        self.query_one("#save-path", Input).focus()

    @on(Input.Submitted, "#save-path")
    @on(Button.Pressed, "#save-ok")
    def _save(self) -> None:
        path, why = resolve(self.query_one("#save-path", Input).value, self.suggested.name)
        if path is None:
            given = self.query_one("#save-path", Input).value.strip()
            self.query_one("#save-error", Label).update(safe(w(why, self.lang, path=given)))
            return
        self.dismiss(path)

    @on(Button.Pressed, "#save-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
