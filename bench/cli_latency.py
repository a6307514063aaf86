"""Median wall time of `ascend-doctor explain 561000` and `search`, beside the import floor.

The floor is `python -c "import sqlalchemy, rich.console"`: the two libraries every command needs.
Target: each command within 1.5x of the floor. Prints figures; asserts nothing.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = int(os.environ.get("BENCH_RUNS", "15"))
exe = str(Path(sys.executable).with_name("ascend-doctor"))


def median_ms(argv: list[str]) -> float:
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    subprocess.run([exe, "kb", "build"], stdout=subprocess.DEVNULL, check=True)   # warm cache, as a user has
    floor = median_ms([sys.executable, "-c", "import sqlalchemy, rich.console"])
    print(f"floor  python -c 'import sqlalchemy, rich.console'   {floor:7.1f} ms")
    for argv in (["explain", "561000"], ["search", "weight loading hang"], ["search", "权重加载 卡住"],
                 ["--help"]):
        ms = median_ms([exe, *argv])
        print(f"ascend-doctor {' '.join(argv):<36} {ms:7.1f} ms   {ms / floor:4.2f}x floor  (target <= 1.50x)")


if __name__ == "__main__":
    main()
