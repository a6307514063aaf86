"""`ascend-doctor fleet` over 1,024 snapshots: wall time and peak memory of the comparison.

The bundled simulated fleet scale-1024 (1,024 healthy A2 nodes, every node's facts recomputed from its
own recorded answers) is written once into a temporary directory, then `ascend-doctor fleet DIR` runs in
a fresh process, as a user runs it: load every file, the per-node rules on each node, the fleet rules.
Target (issue 13): under 10 s and under 1 GB. Prints figures; asserts nothing.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLEET = os.environ.get("BENCH_FLEET", "scale-1024")
exe = str(Path(sys.executable).with_name("ascend-doctor"))


def main() -> None:
    from ascend_doctor.diagnose.services.fleet import write_sim_fleet

    subprocess.run([exe, "kb", "build"], stdout=subprocess.DEVNULL, check=True)   # warm cache, as a user has
    with tempfile.TemporaryDirectory(prefix="ad-fleet-bench-") as tmp:
        t = time.perf_counter()
        files = write_sim_fleet(FLEET, tmp)
        gen = time.perf_counter() - t
        size = sum(os.path.getsize(f) for f in files)
        print(f"generated {len(files)} snapshots of {FLEET} in {gen:.1f} s ({size / 1e6:.0f} MB on disk)")
        for extra, what in (([], "with per-node rules"), (["--no-per-node"], "fleet rules only")):
            t = time.perf_counter()
            rc = subprocess.run([exe, "fleet", tmp, "--format", "json", "-o", os.path.join(tmp, "report.json"),
                                 *extra], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
            wall = time.perf_counter() - t
            peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            print(f"fleet over {len(files)} snapshots ({what}): {wall:.2f} s wall, peak memory of the largest child "
                  f"so far {peak_mb:.0f} MB, exit {rc.returncode} (target < 10 s, < 1024 MB)")
            os.unlink(os.path.join(tmp, "report.json"))


if __name__ == "__main__":
    main()
