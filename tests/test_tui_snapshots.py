"""Snapshot tests (pytest-textual-snapshot) of each TUI screen at 80x24 and 120x35, in English and Chinese.

Deterministic: simulated profiles, a frozen part of the knowledge (tests/fixtures/kb-tui, so the
screenshots do not change whenever the knowledge grows), no clock in the header, no timing column on
simulated machines, no blinking cursor, a fixed file name in the save dialog. Nothing waits a fixed time:
each test waits (with Pilot's pauses) for the workers, for the state it needs and for the screen to stop
changing. Update with ``pytest tests/test_tui_snapshots.py --snapshot-update`` and look at the SVGs in
tests/__snapshots__/ before committing them.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from ascend_doctor.diagnose.services.machine import MachineSpec
from ascend_doctor.diagnose.tui.app import AscendDoctorApp
from ascend_doctor.diagnose.tui.machine import Machine

SIZES = {"80x24": (80, 24), "120x35": (120, 35)}
LANGS = ("en", "zh")
#: the machine each screen is shown on: the Environment screen on one whose npu-smi answers
PROFILE = {"check": "container-missing-device-nodes", "ask": "container-missing-device-nodes",
           "knowledge": "container-missing-device-nodes", "environment": "healthy-a2-host"}
DEADLINE = 120.0                 # seconds: only a machine far too loaded to test on gets this far


class FrozenMachine(Machine):
    """A Machine whose suggested snapshot name does not depend on the clock or the working directory."""

    def suggested_snapshot(self, directory) -> Path:
        return Path("/home/user/ascend-doctor-snapshot-20250101-120000.json")


@pytest.fixture(scope="module")
def snap_kb(tmp_path_factory):
    from ascend_doctor.kb.query import KnowledgeBase

    from .conftest import FIXTURES

    return KnowledgeBase(tmp_path_factory.mktemp("tui-snap-kb") / "kb.sqlite", knowledge_dir=FIXTURES / "kb-tui",
                         overlays=[])


def app_for(kb, start: str = "check", lang: str = "en", profile: str | None = None) -> AscendDoctorApp:
    spec = MachineSpec(sim=profile or PROFILE[start])
    return AscendDoctorApp(kb, FrozenMachine(spec), lang=lang, start=start)


def _tables_settled(app) -> bool:
    """A DataTable measures new rows and column widths when it is next idle; a screenshot taken before
    shows the columns at their header widths."""
    return not any(t._require_update_dimensions or t._new_rows or t._updated_cells for t in app.query("DataTable"))


def _no_blink(app) -> None:
    """The cursor's blink phase would decide whether the screenshot shows it."""
    for w in app.screen.query("Input, TextArea"):
        w.cursor_blink = False


async def _idle(pilot, until=lambda app: True) -> None:
    """Wait (Pilot pauses, no fixed sleeps) for the workers and ``until``, then for a still screen."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    end = loop.time() + DEADLINE
    while True:
        _no_blink(app)
        await app.workers.wait_for_complete()
        await pilot.pause()
        if until(app) and _tables_settled(app):
            break
        assert loop.time() < end, "the TUI did not reach the expected state"
    # callbacks queued for after the next refresh (the Check table re-scrolls to its selection there)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    # a detail pane shows its top after every update (scroll_home); a re-flow can leave its scrollbar's
    # thumb drawn for an older offset, so settle both before the screenshot
    for view in app.query("MarkdownView"):
        view.scroll_home(animate=False)
    await _quiet(pilot)


async def _quiet(pilot, needed: int = 3) -> None:
    """Wait until the screen stops changing: the same screenshot ``needed`` times in a row, with the app
    idle in between. Idle-time work (a DataTable measuring its columns, a scrollbar repainting its thumb
    after a re-layout) otherwise races the screenshot."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    end = loop.time() + DEADLINE
    same, last = 0, None
    while same < needed:
        await pilot.pause()
        for w in app.screen.query("*"):
            # a scrollbar keeps the offset it was last told; after a re-layout it can trail its widget's
            if w.show_vertical_scrollbar:
                w.vertical_scrollbar.position = w.scroll_y
                w.vertical_scrollbar.refresh()
            if w.show_horizontal_scrollbar:
                w.horizontal_scrollbar.position = w.scroll_x
                w.horizontal_scrollbar.refresh()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        shot = _screen(app)
        same = same + 1 if shot == last else 0
        last = shot
        assert loop.time() < end, "the screen did not stop changing"


def _screen(app) -> tuple:
    """What the terminal shows, text and styles (much cheaper to take than an SVG screenshot)."""
    return tuple(tuple(strip) for strip in app.screen._compositor.render_strips())


def _check_done(app) -> bool:
    return bool(app.query("#check-pane")) and app.query_one("#check-pane").done and _selection_visible(app)


def _selection_visible(app) -> bool:
    """The selected result is inside the visible rows (after a resize or theme switch the table
    re-scrolls on a later refresh; the screenshot must wait for it)."""
    t = app.query_one("#ck-table")
    if not t.row_count:
        return True
    row = t._get_row_region(t.cursor_row)           # in lines: a long title's row is two or three lines high
    top = t.scroll_offset.y
    header = t.header_height if t.show_header else 0
    return row.y - top >= header and row.bottom - top <= t.scrollable_content_region.height


async def _show_check(pilot) -> None:
    await _idle(pilot, _check_done)


async def _show_ask(pilot) -> None:
    await _idle(pilot, lambda app: app.query("#ask-text"))
    pilot.app.query_one("#ask-text").insert("dcmi module initialize failed. ret is -8005")
    await pilot.press("ctrl+r")
    await _idle(pilot, lambda app: not app.query_one("#ask-pane").busy and app.query_one("#ask-pane").findings)


async def _show_knowledge(pilot) -> None:
    await _idle(pilot, lambda app: app.query("#kn-query"))
    await pilot.press(*"8005")
    await _idle(pilot, lambda app: not app.query_one("#knowledge-pane").searching
                and app.query_one("#kn-results").option_count)


async def _show_environment(pilot) -> None:
    await _idle(pilot, lambda app: app.query("#env-pane") and app.query_one("#env-pane").factset is not None)


SHOW = {"check": _show_check, "ask": _show_ask, "knowledge": _show_knowledge, "environment": _show_environment}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SHOW)
def test_snapshot(snap_compare, snap_kb, screen, size, lang):
    assert snap_compare(app_for(snap_kb, screen, lang), terminal_size=SIZES[size], run_before=SHOW[screen])


@pytest.mark.parametrize("lang", LANGS)
def test_snapshot_check_opens_the_problem_80x24(snap_compare, snap_kb, lang):
    """o on a result: the Knowledge screen with that problem alone, not a search for its id."""
    async def run_before(pilot):
        await _show_check(pilot)
        await pilot.press("o")
        await _idle(pilot, lambda app: app.query("#knowledge-pane") and app.query_one("#knowledge-pane").opened)

    assert snap_compare(app_for(snap_kb, "check", lang), terminal_size=SIZES["80x24"], run_before=run_before)


@pytest.mark.parametrize("lang", LANGS)
def test_snapshot_environment_facts_and_save_dialog_80x24(snap_compare, snap_kb, lang):
    """ctrl+t shows every fact; ctrl+x asks where to save the snapshot."""
    async def run_before(pilot):
        await _show_environment(pilot)
        await pilot.press("ctrl+t")
        await _idle(pilot)
        await pilot.press("ctrl+x")
        await _idle(pilot, lambda app: app.screen.query("#save-path"))

    assert snap_compare(app_for(snap_kb, "environment", lang), terminal_size=SIZES["80x24"], run_before=run_before)


def test_snapshot_check_problems_only_zh(snap_compare, snap_kb):
    async def run_before(pilot):
        await _show_check(pilot)
        await pilot.press("p")
        await _idle(pilot, _check_done)

    assert snap_compare(app_for(snap_kb, lang="zh"), terminal_size=SIZES["120x35"], run_before=run_before)


def test_snapshot_check_light_80x24(snap_compare, snap_kb):
    async def run_before(pilot):
        # the light theme from the start: switching it after the table has scrolled re-lays the screen
        # out, and the scrollbar's thumb then trails the table's offset by a refresh in some runs (a
        # drawing race in the toolkit); test_tui.py checks F5
        pilot.app.theme = "textual-light"
        await _show_check(pilot)

    assert snap_compare(app_for(snap_kb), terminal_size=SIZES["80x24"], run_before=run_before)
