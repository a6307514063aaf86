"""The TUI Fleet screen: Pilot tests of the heatmap, the drill-down into a node's checks and a fleet rule's
cohorts, and a snapshot at 100x30 of a simulated fleet. Without a fleet the screen is not there."""
from __future__ import annotations

import asyncio

import pytest
from textual.widgets import DataTable

from ascend_doctor.diagnose.services.machine import MachineSpec
from ascend_doctor.diagnose.tui.app import AscendDoctorApp
from ascend_doctor.diagnose.tui.fleet_pane import FleetSource
from ascend_doctor.diagnose.tui.machine import Machine

from .test_tui_snapshots import _idle, snap_kb  # noqa: F401  (the frozen knowledge of the TUI snapshots)

FLEET = "rolling-upgrade-64"


@pytest.fixture(scope="module")
def source():
    s = FleetSource(sim=FLEET)
    s.report()              # computed once for the module
    return s


def app_with(kb, source, start="fleet"):
    return AscendDoctorApp(kb, Machine(MachineSpec(sim="healthy-a2-host")), start=start, fleet=source)


def done(app) -> bool:
    return bool(app.query("#fleet-pane")) and app.query_one("#fleet-pane").done


def test_heatmap_drill_down_and_rule_cohorts(snap_kb, source):  # noqa: F811
    async def go():
        app = app_with(snap_kb, source)
        async with app.run_test(size=(120, 36)) as pilot:
            await _idle(pilot, done)
            pane = app.query_one("#fleet-pane")
            grid = app.query_one("#fl-grid", DataTable)
            # clean nodes hidden: node005, node023, node040 and the upgraded rack
            assert grid.row_count == 11
            assert [str(k.value) for k in grid.rows][:3] == ["node005", "node023", "node040"]
            # the cursor starts on the first finding: node005's fleet column
            assert "AD-FLEET-020" in app.query_one("#fl-detail").source
            # down to node057, left to its python column: its own checks
            for _ in range(3):
                await pilot.press("down")
            grid.move_cursor(column=pane.cols.index("python") + 1)
            await pilot.pause()
            detail = app.query_one("#fl-detail").source
            assert "node057" in detail and "AD-PY-010" in detail and "FAIL" in detail
            # every node
            await pilot.press("a")
            await _idle(pilot)
            assert grid.row_count == 64
            # the rules table: the CANN rule's cohorts
            await pilot.press("tab")
            rules = app.query_one("#fl-rules", DataTable)
            assert rules.has_focus
            rules.move_cursor(row=[str(k.value) for k in rules.rows].index("AD-FLEET-004"))
            await pilot.pause()
            detail = app.query_one("#fl-detail").source
            assert "8.3.RC1" in detail and "node[057-064]" in detail and "majority" in detail
    asyncio.run(go())


def test_no_fleet_no_screen(snap_kb):  # noqa: F811
    async def go():
        app = AscendDoctorApp(snap_kb, Machine(MachineSpec(sim="healthy-a2-host")), start="fleet")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.start == "check" and not app.query("TabPane#fleet")
            await pilot.press("f6")
            await pilot.pause()
            assert not app.query("#fleet-pane")
    asyncio.run(go())


def test_snapshot_fleet(snap_compare, snap_kb, source):  # noqa: F811
    async def run_before(pilot):
        await _idle(pilot, done)

    assert snap_compare(app_with(snap_kb, source), terminal_size=(100, 30), run_before=run_before)
