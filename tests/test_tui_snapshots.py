"""Snapshot tests (pytest-textual-snapshot) of each TUI screen on a fixed simulated machine at 100x30.

Deterministic: a simulated profile, a frozen part of the knowledge (tests/fixtures/kb-tui, so the
screenshots do not change whenever the knowledge grows), the check worker awaited, no clock in the
header, no timing column on simulated machines, no blinking cursor, and the Check table's selection
scrolled into view before the screenshot. Update with ``pytest tests/test_tui_snapshots.py --snapshot-update``
and look at the SVGs in tests/__snapshots__/ before committing them.
"""
from __future__ import annotations

import asyncio

import pytest

from ascend_doctor.diagnose.tui.app import AscendDoctorApp
from ascend_doctor.diagnose.services.machine import MachineSpec
from ascend_doctor.diagnose.tui.machine import Machine

SIZE = (100, 30)
PROFILE = "container-missing-device-nodes"


@pytest.fixture(scope="module")
def snap_kb(tmp_path_factory):
    from ascend_doctor.kb.query import KnowledgeBase

    from .conftest import FIXTURES

    return KnowledgeBase(tmp_path_factory.mktemp("tui-snap-kb") / "kb.sqlite", knowledge_dir=FIXTURES / "kb-tui",
                         overlays=[])


def app_for(kb, start: str = "check", lang: str = "en") -> AscendDoctorApp:
    spec = MachineSpec(sim=PROFILE)
    return AscendDoctorApp(kb, Machine(spec), lang=lang, start=start)


def _tables_settled(app) -> bool:
    """A DataTable measures new rows and column widths when it is next idle; a screenshot taken before
    shows the columns at their header widths."""
    return not any(t._require_update_dimensions or t._new_rows or t._updated_cells for t in app.query("DataTable"))


def _no_blink(app) -> None:
    """The cursor's blink phase would decide whether the screenshot shows it."""
    for w in app.query("Input, TextArea"):
        w.cursor_blink = False


async def _idle(pilot, until=lambda app: True) -> None:
    app = pilot.app
    _no_blink(app)
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if until(app) and _tables_settled(app):
            break
        await asyncio.sleep(0.01)
    await pilot.pause()
    # callbacks queued for after the next refresh (the Check table re-scrolls to its selection there)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()
    # a detail pane shows its top after every update (scroll_home); a re-flow after the theme switch can
    # leave its scrollbar's thumb drawn for an older offset, so settle both before the screenshot
    for view in app.query("MarkdownView"):
        view.scroll_home(animate=False)
    await pilot.pause()
    await _quiet(pilot)


async def _quiet(pilot, needed: int = 3) -> None:
    """Wait until the screen stops changing: the same screenshot ``needed`` times in a row, a little
    apart. Idle-time work (a DataTable measuring its columns, a scrollbar repainting its thumb after a
    re-layout) otherwise races the screenshot."""
    app = pilot.app
    same, last = 0, None
    for _ in range(200):
        await pilot.pause()
        await asyncio.sleep(0.02)
        for w in app.query("*"):
            # a scrollbar keeps the offset it was last told; after a re-layout it can trail its widget's
            if w.show_vertical_scrollbar:
                w.vertical_scrollbar.position = w.scroll_y
                w.vertical_scrollbar.refresh()
            if w.show_horizontal_scrollbar:
                w.horizontal_scrollbar.position = w.scroll_x
                w.horizontal_scrollbar.refresh()
        await pilot.pause()
        shot = app.export_screenshot()
        same = same + 1 if shot == last else 0
        last = shot
        if same >= needed:
            return


def _check_done(app) -> bool:
    return app.query_one("#check-pane").done and _selection_visible(app)


def _selection_visible(app) -> bool:
    """The selected result is inside the visible rows (after a resize or theme switch the table
    re-scrolls on a later refresh; the screenshot must wait for it)."""
    t = app.query_one("#ck-table")
    if not t.row_count:
        return True
    top = t.scroll_offset.y
    rows = t.scrollable_content_region.height - (t.header_height if t.show_header else 0)
    return top <= t.cursor_row < top + max(rows, 1)


def test_snapshot_check(snap_compare, snap_kb):
    async def run_before(pilot):
        await _idle(pilot, _check_done)

    assert snap_compare(app_for(snap_kb), terminal_size=SIZE, run_before=run_before)


def test_snapshot_check_problems_only_zh(snap_compare, snap_kb):
    async def run_before(pilot):
        await _idle(pilot, _check_done)
        await pilot.press("p")
        await _idle(pilot)

    assert snap_compare(app_for(snap_kb, lang="zh"), terminal_size=SIZE, run_before=run_before)


def test_snapshot_ask(snap_compare, snap_kb):
    async def run_before(pilot):
        await _idle(pilot, lambda app: app.query("#ask-text"))
        pilot.app.query_one("#ask-text").insert("dcmi module initialize failed. ret is -8005")
        await pilot.press("ctrl+r")
        await _idle(pilot, lambda app: not app.query_one("#ask-pane").busy)

    assert snap_compare(app_for(snap_kb, start="ask"), terminal_size=SIZE, run_before=run_before)


def test_snapshot_knowledge(snap_compare, snap_kb):
    async def run_before(pilot):
        await _idle(pilot, lambda app: app.query("#kn-query"))
        await pilot.press(*"8005")
        await _idle(pilot, lambda app: not app.query_one("#knowledge-pane").searching)

    assert snap_compare(app_for(snap_kb, start="knowledge"), terminal_size=SIZE, run_before=run_before)


def test_snapshot_environment(snap_compare, snap_kb):
    async def run_before(pilot):
        await _idle(pilot, lambda app: app.query("#env-pane") and app.query_one("#env-pane").factset is not None)
        await pilot.press(*"npu")
        await pilot.press("enter")
        await _idle(pilot)

    assert snap_compare(app_for(snap_kb, start="environment"), terminal_size=SIZE, run_before=run_before)


def test_snapshot_check_light_80x24(snap_compare, snap_kb):
    async def run_before(pilot):
        # the light theme from the start: switching it after the table has scrolled re-lays the screen
        # out, and the scrollbar's thumb then trails the table's offset by a refresh in some runs (a
        # drawing race in the toolkit that made this test fail in 2 of 4 runs); test_tui.py checks F5
        pilot.app.theme = "textual-light"
        await _idle(pilot, _check_done)

    assert snap_compare(app_for(snap_kb), terminal_size=(80, 24), run_before=run_before)
