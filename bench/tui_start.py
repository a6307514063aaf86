"""Time from launch to the first complete Check screen of `ascend-doctor tui` on a simulated profile.

Each run is a fresh Python process (imports, knowledge base open, Textual start-up, fact collection and
every rule), driven headless with Textual's ``run_test`` at 100x30 until the Check screen shows its
results. The parent measures from spawning the process to the moment the child reports the screen
complete, and prints the median with the phases of the last run. Target: under 1.5 s. Asserts nothing.

    python bench/tui_start.py [PROFILE] [RUNS]
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

PROFILE = sys.argv[1] if len(sys.argv) > 1 else "container-missing-device-nodes"
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("BENCH_RUNS", "7"))
TARGET_S = 1.5

CHILD = r"""
import asyncio, sys, time
t0 = time.perf_counter()
from ascend_doctor.diagnose.tui.app import AscendDoctorApp
from ascend_doctor.diagnose.tui.machine import Machine
from ascend_doctor.diagnose.services.machine import MachineSpec
from ascend_doctor.kb.query import KnowledgeBase
t_import = time.perf_counter()
kb = KnowledgeBase(None)
t_kb = time.perf_counter()

async def main():
    app = AscendDoctorApp(kb, Machine(MachineSpec(sim=sys.argv[1])))
    async with app.run_test(size=(100, 30)) as pilot:
        pane = app.query_one("#check-pane")
        while not pane.done:
            await asyncio.sleep(0.005)
        await pilot.pause()                       # the results are painted
        rows = app.query_one("#ck-table").row_count
        print(f"READY rows={rows} import={t_import - t0:.3f} kb={t_kb - t_import:.3f} "
              f"app={time.perf_counter() - t_kb:.3f}", flush=True)

asyncio.run(main())
"""


def one_run() -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", CHILD, PROFILE], stdout=subprocess.PIPE, text=True)
    elapsed, line = float("nan"), ""
    for line in proc.stdout:
        if line.startswith("READY"):
            elapsed = time.perf_counter() - start
            break
    proc.wait()
    if not line.startswith("READY") and proc.returncode:
        raise SystemExit(f"the TUI child failed (exit {proc.returncode}); run it alone to see why")
    return elapsed, line.strip()


def main() -> None:
    subprocess.run([sys.executable, "-m", "ascend_doctor.diagnose.cli.main", "kb", "build"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)   # warm cache, as a user has
    times, last = [], ""
    for _ in range(RUNS):
        t, last = one_run()
        times.append(t)
    med = statistics.median(times)
    print(f"tui start-up to complete Check screen ({PROFILE}, {RUNS} runs, 100x30 headless)")
    print(f"  median {med:.2f} s   min {min(times):.2f} s   max {max(times):.2f} s   target < {TARGET_S} s: "
          f"{'ok' if med < TARGET_S else 'OVER'}")
    print(f"  last run phases: {last.removeprefix('READY ')}")


if __name__ == "__main__":
    main()
