"""Throughput of ``diagnose`` on a large log beside ``grep -c -E -f`` of the same signature regexes.

Generates a log of realistic noise (vLLM-Ascend serving lines from eight ranks, plog INFO lines,
tqdm progress, training metrics) with a few real error lines spread through it, in a temporary
directory (default 1 GiB; --size-mb to change). Then, on the same file, one run each of:

- ``grep -c -E -f patterns`` where patterns are the KB signature regexes that grep -E can read;
- the diagnose scan + match (no environment), timed, with the peak resident memory of a child
  process (ru_maxrss) so the figure is not polluted by this script.

Prints MB/s of both, the ratio and the peak memory; nothing is asserted (see docs/development.md).

    .venv/bin/python bench/scan.py [--size-mb 1024] [--kb PATH] [--keep DIR]
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NOISE = [
    "(VllmWorker rank={r} pid={p}) INFO {md} {t} [model_runner_v1.py:2213] Loading model weights took 15.44 GB",
    "(APIServer pid=1) INFO {md} {t} [loggers.py:123] Engine 000: Avg prompt throughput: {f} tokens/s, Avg generation "
    "throughput: {f} tokens/s, Running: {n} reqs, Waiting: 0 reqs, GPU KV cache usage: {f}%, Prefix cache hit rate: {f}%",
    "(APIServer pid=1) INFO:     10.0.{n}.{n}:{p} - \"POST /v1/chat/completions HTTP/1.1\" 200 OK",
    "[INFO] RUNTIME({p},python3):2025-08-20-{t}.{ms}.{ms} [stream.cc:{n}] {p} Create: stream_id={n}, priority=0",
    "[INFO] HCCL({p},python3):2025-08-20-{t}.{ms}.{ms} [hccl_communicator.cc:{n}] [{p}]Entry-HcclAllReduce: tag[AllReduce_{n}], count[{n}]",
    "Loading safetensors checkpoint shards:  {n}% Completed | {n}/163 [00:{n}<01:{n},  1.2{n}s/it]",
    "{{'loss': 1.{n}, 'grad_norm': 0.{n}, 'learning_rate': 4.{n}e-05, 'epoch': 0.{n}}}",
    "(EngineCore_DP0 pid={p}) DEBUG {md} {t} [core.py:{n}] EngineCore loop active, scheduled {n} requests, {n} tokens",
    "[2025-08-20 {t}] INFO [ray_worker.py:{n}] heartbeat from node 10.0.0.{n} ok, {n} actors alive",
]
ERRORS = [
    "[rank3]: RuntimeError: call aclnnMoeDistributeDispatchV4 failed, error code is 561000",
    "EJ0001: 2024-05-21-11:57:54.167.645 Failed to initialize the HCCP process. Reason: Maybe the last training process is running.",
    "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3) dcmi module initialize failed. ret is -8005",
    "RuntimeError: NPU out of memory. Tried to allocate 3.47 GiB (NPU 0; 60.97 GiB total capacity; 58.92 GiB already allocated)",
    "[ERROR] HCCL(2717288,python3):2025-07-23-03:49:57.177.194 [hccl_socket_manager.cc:778] [2734049][Wait][LinkEstablish]wait socket establish timeout, role[1] rank[12] timeout[120]",
]


def generate(path: Path, size: int, seed: int = 1) -> int:
    rnd = random.Random(seed)
    written = 0
    errors_at = sorted(rnd.randrange(size) for _ in ERRORS)
    with open(path, "w", encoding="utf-8") as fh:
        buf: list[str] = []
        ei = 0
        while written < size:
            line = rnd.choice(NOISE).format(r=rnd.randrange(8), p=rnd.randrange(1000, 99999), n=rnd.randrange(100),
                                            f=f"{rnd.uniform(0, 999):.1f}", md="08-20",
                                            t=f"10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}",
                                            ms=f"{rnd.randrange(1000):03d}")
            if ei < len(errors_at) and written >= errors_at[ei]:
                line = ERRORS[ei]
                ei += 1
            buf.append(line)
            written += len(line) + 1
            if len(buf) >= 5000:
                fh.write("\n".join(buf) + "\n")
                buf = []
        if buf:
            fh.write("\n".join(buf) + "\n")
    return path.stat().st_size


def grep_patterns(signatures) -> list[str]:
    """The signature regexes grep -E understands (Python-only syntax is skipped and counted)."""
    out = []
    for s in signatures:
        rx = s.regex or re.escape(s.literal)
        if re.search(r"\(\?|\\[dDwWsSbB]|\*\?|\+\?", rx):
            # translate the common classes; skip look-arounds and lazy quantifiers
            if re.search(r"\(\?|\*\?|\+\?|\\[bB]", rx):
                continue
            rx = (rx.replace(r"\d", "[0-9]").replace(r"\D", "[^0-9]").replace(r"\s", "[[:space:]]")
                  .replace(r"\S", "[^[:space:]]").replace(r"\w", "[[:alnum:]_]").replace(r"\W", "[^[:alnum:]_]"))
        out.append(rx)
    return out


CHILD = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from ascend_doctor.kb.query import KnowledgeBase
from ascend_doctor.diagnose.services.diagnosis import diagnose
with KnowledgeBase({kb!r}) as kb:
    t = time.perf_counter()
    d = diagnose(kb, [{log!r}])
    dt = time.perf_counter() - t
print(json.dumps({{"seconds": dt, "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "findings": [(f.id, f.score) for f in d.findings[:5]], "codes": [c.code for c in d.codes]}}))
"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=1024)
    ap.add_argument("--kb", default=None)
    ap.add_argument("--keep", default=None, help="write the log into this directory and keep it")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    import json

    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase(args.kb) as kb:
        sigs = kb.signatures()
        kb_path = str(kb.path)
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ad-scan-"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        log = tmp / "big.log"
        t = time.perf_counter()
        size = generate(log, args.size_mb << 20)
        print(f"generated {size / 1e6:.0f} MB in {time.perf_counter() - t:.1f} s: {log}")
        pats = grep_patterns(sigs)
        pfile = tmp / "patterns.txt"
        pfile.write_text("\n".join(pats) + "\n")
        grep = shutil.which("grep")
        g_mbps = None
        if grep:
            subprocess.run([grep, "-c", "x", str(log)], capture_output=True)  # warm the page cache
            t = time.perf_counter()
            p = subprocess.run([grep, "-c", "-E", "-f", str(pfile), str(log)], capture_output=True, text=True,
                               env={**os.environ, "LC_ALL": "C"})
            g_dt = time.perf_counter() - t
            g_mbps = size / 1e6 / g_dt
            print(f"grep -c -E -f ({len(pats)} of {len(sigs)} signature regexes, LC_ALL=C): {g_mbps:.0f} MB/s, "
                  f"{p.stdout.strip()} matching lines, {g_dt:.1f} s")
        child = CHILD.format(root=str(ROOT), kb=kb_path, log=str(log))
        t = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True)
        if p.returncode:
            print(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "diagnose child failed")
            return 1
        res = json.loads(p.stdout.strip().splitlines()[-1])
        d_mbps = size / 1e6 / res["seconds"]
        print(f"diagnose: {d_mbps:.0f} MB/s ({res['seconds']:.1f} s), peak RSS {res['rss_kb'] / 1024:.0f} MiB, "
              f"findings {res['findings']}, codes {res['codes']}")
        if g_mbps:
            print(f"ratio diagnose/grep: {d_mbps / g_mbps:.2f} (target >= 0.5)")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
