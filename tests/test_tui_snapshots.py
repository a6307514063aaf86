"""Snapshot tests (pytest-textual-snapshot) of each TUI screen on a fixed simulated machine at 100x30.

Deterministic: a simulated profile, the check worker awaited, no clock in the header and no timing
column on simulated machines. Update with ``pytest tests/test_tui_snapshots.py --snapshot-update``
and look at the SVGs in tests/__snapshots__/ before committing them.
"""
from __future__ import annotations

import argparse
import asyncio

import pytest

from ascend_doctor.diagnose.tui.app import AscendDoctorApp
from ascend_doctor.diagnose.tui.machine import Machine

SIZE = (100, 30)
PROFILE = "container-missing-device-nodes"


@pytest.fixture(scope="module")
def snap_kb(tmp_path_factory):
    from ascend_doctor.kb.query import KnowledgeBase

    return KnowledgeBase(tmp_path_factory.mktemp("tui-snap-kb") / "kb.sqlite", overlays=[])


def app_for(kb, start: str = "check", lang: str = "en") -> AscendDoctorApp:
    args = argparse.Namespace(sim=PROFILE, replay=None, python=None, timeout=10.0)
    return AscendDoctorApp(kb, Machine(args), lang=lang, start=start)


async def _idle(pilot, until=lambda app: True) -> None:
    app = pilot.app
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if until(app):
            break
        await asyncio.sleep(0.01)
    await pilot.pause()
    # callbacks queued for after the next refresh (the Check table re-scrolls to its selection there)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


def _check_done(app) -> bool:
    return app.query_one("#check-pane").done


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
        await pilot.press(*"561000")
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
        await _idle(pilot, _check_done)
        await pilot.press("f5")
        await _idle(pilot)
        await pilot.pause()          # the re-scroll after the theme's re-layout

    assert snap_compare(app_for(snap_kb), terminal_size=(80, 24), run_before=run_before)
