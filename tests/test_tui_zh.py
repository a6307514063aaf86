"""With --lang zh no English chrome is left on any TUI screen: every screen (and the dialog, the command
palette and the notifications) is rendered in Chinese on frozen data, and no word that the translations
replace may remain outside data (ids, commands, paths, quoted log text; see tests/i18n.py)."""
from __future__ import annotations

import asyncio

import pytest

from ascend_doctor.diagnose.services.machine import MachineSpec
from ascend_doctor.diagnose.tui.app import AscendDoctorApp

from .i18n import english_chrome
from .test_tui_snapshots import FrozenMachine

#: English that is data on these screens: words of the simulated machines' own messages (npu-smi's
#: "dcmi module initialize failed", a fact's "no such file" detail) and of knowledge text that has no
#: Chinese in the frozen knowledge
DATA_WORDS = {"module", "initialize", "failed", "device", "used", "because", "error", "found", "version",
              "soc", "init", "get", "type", "the", "not", "set", "file", "such", "does", "exist", "for", "from",
              "installed", "and", "info", "board", "none", "true", "false", "null", "ret", "dcmi",
              # commands in fixes, fact keys and sources (lower case: the same word capitalised is chrome)
              "run", "export", "root", "arch", "cann", "drv", "environment", "Ascend"}


@pytest.fixture(scope="module")
def zh_kb(tmp_path_factory):
    from ascend_doctor.kb.query import KnowledgeBase

    from .conftest import FIXTURES

    return KnowledgeBase(tmp_path_factory.mktemp("tui-zh-kb") / "kb.sqlite", knowledge_dir=FIXTURES / "kb-tui",
                         overlays=[])


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def until(app, pilot, condition, timeout: float = 120.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        await app.workers.wait_for_complete()
        await pilot.pause()
        if condition():
            return
        assert loop.time() < end, "the TUI did not reach the expected state"


def run_screens(kb, profile: str, steps) -> list[tuple[str, str]]:
    """(step name, screen text) after each step of ``steps``: (name, async fn(app, pilot))."""
    shots = []

    async def go():
        app = AscendDoctorApp(kb, FrozenMachine(MachineSpec(sim=profile)), lang="zh", start="check")
        async with app.run_test(size=(120, 35)) as pilot:
            await until(app, pilot, lambda: app.query_one("#check-pane").done)
            for name, step in steps:
                await step(app, pilot)
                await pilot.pause()
                shots.append((name, screen_text(app)))
                notes = " ".join(str(n.message) for n in app._notifications)
                if notes:
                    shots.append((f"{name} (notifications)", notes))
                app.clear_notifications()
    asyncio.run(go())
    return shots


async def _nothing(app, pilot):
    pass


async def _problems_only(app, pilot):
    await pilot.press("p")


async def _copy_on_a_pass(app, pilot):
    await pilot.press("p")                          # all results again
    await pilot.press("home")
    await pilot.press("c")                          # a PASS: nothing to copy, a notification says so


async def _open(app, pilot):
    await pilot.press("end")
    await pilot.press("o")
    await until(app, pilot, lambda: app.query("#knowledge-pane") and app.query_one("#knowledge-pane").opened)


async def _ask(app, pilot):
    await pilot.press("f2")
    await until(app, pilot, lambda: app.query("#ask-text"))
    app.query_one("#ask-text").insert("dcmi module initialize failed. ret is -8005")
    await pilot.press("ctrl+r")
    await until(app, pilot, lambda: not app.query_one("#ask-pane").busy)


async def _ask_path(app, pilot):
    app.query_one("#ask-path").focus()
    app.query_one("#ask-path").value = "/nonexistent/plog"
    await pilot.press("enter")
    await until(app, pilot, lambda: not app.query_one("#ask-pane").busy)


async def _search(app, pilot):
    await pilot.press("f3")
    await until(app, pilot, lambda: app.query("#kn-query"))
    app.query_one("#kn-query").focus()
    await pilot.press(*"8005")
    await until(app, pilot, lambda: not app.query_one("#knowledge-pane").searching)


async def _nothing_found(app, pilot):
    app.query_one("#kn-query").value = "zzqqxx"
    await until(app, pilot, lambda: not app.query_one("#knowledge-pane").searching)


async def _environment(app, pilot):
    await pilot.press("f4")
    await until(app, pilot, lambda: app.query("#env-pane") and app.query_one("#env-pane").factset is not None)


async def _facts(app, pilot):
    await pilot.press("ctrl+t")


async def _save_dialog(app, pilot):
    await pilot.press("ctrl+x")
    await until(app, pilot, lambda: app.screen.query("#save-path"))
    app.screen.query_one("#save-path").value = "/nonexistent-folder/x.json"
    await pilot.press("enter")                       # an error inside the dialog


async def _cancel(app, pilot):
    await pilot.press("escape")


async def _palette(app, pilot):
    await pilot.press("ctrl+p")
    await until(app, pilot, lambda: app.screen.query("CommandInput"))


async def _help_quit(app, pilot):
    await pilot.press("escape")
    await pilot.press("ctrl+c")


STEPS = [("check", _nothing), ("problems only", _problems_only), ("copy on a pass", _copy_on_a_pass),
         ("open the problem", _open), ("ask", _ask), ("ask a missing path", _ask_path), ("search", _search),
         ("nothing found", _nothing_found), ("environment", _environment), ("every fact", _facts),
         ("save dialog", _save_dialog), ("cancelled", _cancel), ("palette", _palette), ("ctrl+c", _help_quit)]


@pytest.mark.parametrize("profile", ["container-missing-device-nodes", "healthy-a2-host"])
def test_no_english_chrome_on_any_screen(zh_kb, profile):
    left = []
    for name, text in run_screens(zh_kb, profile, STEPS):
        left += [f"[{name}] {line}" for line in english_chrome(text, allowed=DATA_WORDS)]
    assert not left, "English chrome on the Chinese screens:\n" + "\n".join(left)


def test_the_detector_sees_english_chrome():
    """The check above would fail on an untranslated word (here the English footer and headers)."""
    assert english_chrome("c Copy fix  o Open  q Quit")
    assert english_chrome("Group   Check")
    assert not english_chrome("c 复制修复命令  `docker run --device /dev/davinci0`  AD-CONT-001")
