"""Wall time of `ascend-doctor check` on every bundled profile (a fresh process each run, as a user has it).

Target: under 0.5 s per profile on this machine. The npu-smi-hangs profile simulates a 10 s time-out
in the recorded durations only; its wall time is like the others'. Prints figures; asserts nothing.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "5"))
ROOT = Path(__file__).resolve().parents[1]
exe = str(Path(sys.executable).with_name("ascend-doctor"))


def median_ms(argv: list[str]) -> tuple[float, int]:
    times, rc = [], 0
    for _ in range(RUNS):
        t = time.perf_counter()
        rc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), rc


def main() -> None:
    subprocess.run([exe, "kb", "build"], stdout=subprocess.DEVNULL, check=True)   # warm cache, as a user has
    profiles = sorted(p.name for p in (ROOT / "diagnose" / "profiles").iterdir() if (p / "profile.toml").is_file())
    over = 0
    print(f"{'profile':<34} {'median':>9}  exit  (target < 500 ms, {RUNS} runs each)")
    for name in profiles:
        ms, rc = median_ms([exe, "check", "--sim", name, "--format", "json"])
        over += ms >= 500
        print(f"{name:<34} {ms:7.1f} ms  {rc:>4}{'  over target' if ms >= 500 else ''}")
    print(f"{len(profiles)} profiles, {over} over the 0.5 s target")


if __name__ == "__main__":
    main()
