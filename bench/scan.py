"""Throughput of ``diagnose`` on large logs of several kinds, beside ``grep -c -E -f`` of the same
signature regexes on the same files.

Log kinds (generated in a temporary directory, --size-mb each; --kinds to choose):

- ``noise``: vLLM-Ascend serving lines from eight ranks, plog INFO lines, tqdm progress, training
  metrics, with a few real error lines spread through it;
- ``serve``: the healthy vLLM-Ascend start-up and serving log of tests/fixtures, one restart after
  another with its times, pids and request figures varied;
- ``bars``: progress-bar heavy: tqdm bars of several ranks (one update per line and ``\\r``-separated
  captures) and weight-loading lines that only look like bars (``[model_runner.py:N] ... 45% Completed
  | 73/163``);
- ``long``: lines of about 1 MB, every fourth with an error sentence in its middle;
- ``benign``: a CANN plog full of harmless ``[ERROR]`` lines and lines that hold a signature's literal
  but not its regex;
- ``plog-dir``: a plog folder of --files files (default 1,000) of INFO, EVENT and benign ``[ERROR]``
  lines, as ``~/ascend/log/debug/plog`` holds them; files per second are printed too.

For each kind, after a warm-up that puts the files in the page cache: ``LC_ALL=C grep -c -E -f
PATTERNS`` (``-r`` for the folder) and one child process running ``diagnose()`` (no environment),
alternated --pairs times. The ratio is grep's time divided by diagnose's (1.0: as fast as grep),
median of the pairs, for wall time and CPU time (CPU is less disturbed by other tenants of a
shared machine); ``scan`` is the reading of the inputs alone, ``diagnose`` the whole call (KB
signatures, scan, matching). The child also reports its peak resident memory. Nothing is asserted
(see docs/development.md).

    .venv/bin/python bench/scan.py [--size-mb 100] [--kinds noise,serve,...] [--files 1000]
                                   [--pairs 1] [--jobs N] [--kb PATH] [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVE_FIXTURE = ROOT / "tests" / "fixtures" / "clean-logs" / "vllm-ascend-startup-serving.log"

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
#: plog lines of a healthy run (one process per file, a few threads, fixed call sites): the [ERROR] ones are
#: what CANN logs while probing and cleaning up
PLOG_INFO = [
    "[INFO] RUNTIME({pid},python3):{ts} [stream.cc:1061]{tid} Create: stream_id={n}, priority=0",
    "[INFO] HCCL({pid},python3):{ts} [hccl_communicator.cc:2317][{tid}]Entry-HcclAllReduce: tag[AllReduce_{n}], count[{n}]",
    "[EVENT] PROFILING({pid},python3):{ts} [msprof_callback_impl.cpp:87] >>> (tid:{tid}) MsprofCtrlCallback called, type: 255",
    "[INFO] GE({pid},python3):{ts} [graph_manager.cc:1203]{tid} RunGraph: graph_id={n}, session_id=0",
    "[WARNING] ASCENDCL({pid},python3):{ts} [acl.cpp:212]{tid} aclInit: repeated init, count={n}",
]
PLOG_BENIGN = [
    "[ERROR] TDT({pid},python3):{ts} [tsd_client.cpp:481][{tid}] TsdCapabilityGet: capability {d} not supported on this chip",
    "[ERROR] PROFILING({pid},python3):{ts} [prof_acl_mgr.cpp:1177]{tid} ProfAclMgr: profiling switch is off, skip report",
    "[ERROR] DRV({pid},python3):{ts} [ascend_hal.c:609]{tid} halGetDeviceInfo: module {d} info type 9 is invalid",
    "[ERROR] RUNTIME({pid},python3):{ts} [device.cc:334]{tid} GetDeviceCapability: feature {d} query failed, use default",
    "[ERROR] GE({pid},python3):{ts} [op_desc.cc:914]{tid} GetAttr: attribute _datadump_original_op_names of op Add_{n} is empty",
    "[ERROR] AICPU({pid},python3):{ts} [aicpu_sd.cc:145][tid:{tid}] Bus error handler registered for channel {d}",
    "[ERROR] HCCL({pid},python3):{ts} [hccl_socket.cc:312][{tid}] socket close, fd[{n}], error code is 0",
]
#: lines holding a signature's literal where its regex does not match
LITERAL_ONLY = [
    "[INFO] HCCL({pid},python3):{ts} [topoinfo.cc:96][{tid}] wait socket establish timeout is set to 120 s",
    "[INFO] DRV({pid},python3):{ts} [dsmi.c:1530]{tid} Health Status : OK, device {d}",
    "(VllmWorker rank={d} pid={pid}) INFO {md} {t} [worker.py:233] Defaulting to out of memory guard of {n} MiB",
]
BARS = [
    # not a bar (no [elapsed<remaining]): a logger line quoting a percentage, as in the issue's own log
    "(VllmWorker rank={r} pid={pid}) INFO {md} {t} [model_runner.py:{n}] Loading safetensors checkpoint shards: {pct}% Completed | {d}/64",
    "(VllmWorker rank={r} pid={pid}) Loading safetensors checkpoint shards:  {pct}% Completed | {d}/64 [00:{s:02d}<00:{s:02d},  1.{n}s/it]",
    "[rank{r}]:Processing prompts: {pct}%|{bar}| {d}/64 [00:{s:02d}<00:{s:02d}, {n}.{n}it/s]",
    "Capturing CUDA graphs (decode, FULL): {pct}%|{bar}| {d}/64 [00:{s:02d}<00:00, {n}.{n}it/s]",
]
LONG_ERROR = "RuntimeError: call aclnnMatmul failed, error code is 561003"


def _fill(fmt: str, rnd: random.Random, **kw) -> str:
    t = f"10:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}"
    ts = f"2025-08-20-{t}.{rnd.randrange(1000):03d}.{rnd.randrange(1000):03d}"
    args = dict(r=rnd.randrange(8), p=rnd.randrange(1000, 99999), n=rnd.randrange(100), f=f"{rnd.uniform(0, 999):.1f}",
                md="08-20", t=t, ts=ts, ms=f"{rnd.randrange(1000):03d}")
    args.update(kw)
    return fmt.format(**args)


def _write_lines(path: Path, size: int, line) -> int:
    """Write ``line()`` results to ``path`` until ``size`` bytes."""
    written = 0
    with open(path, "w", encoding="utf-8") as fh:
        buf: list[str] = []
        while written < size:
            s = line()
            buf.append(s)
            written += len(s.encode()) + 1
            if len(buf) >= 5000:
                fh.write("\n".join(buf) + "\n")
                buf = []
        if buf:
            fh.write("\n".join(buf) + "\n")
    return path.stat().st_size


def gen_noise(path: Path, size: int, rnd: random.Random) -> None:
    errors_at = sorted(rnd.randrange(size) for _ in ERRORS)
    state = {"written": 0, "ei": 0}

    def line() -> str:
        s = _fill(rnd.choice(NOISE), rnd)
        if state["ei"] < len(errors_at) and state["written"] >= errors_at[state["ei"]]:
            s = ERRORS[state["ei"]]
            state["ei"] += 1
        state["written"] += len(s) + 1
        return s
    _write_lines(path, size, line)


def gen_serve(path: Path, size: int, rnd: random.Random) -> None:
    lines = SERVE_FIXTURE.read_text(encoding="utf-8").splitlines()
    stamp = re.compile(r"\d\d:\d\d:\d\d")
    pid = re.compile(r"pid=(\d+)")
    num = re.compile(r"(?<=[ :])\d+\.\d+(?= )")
    state = {"i": 0}

    def line() -> str:
        s = lines[state["i"] % len(lines)]
        state["i"] += 1
        t = f"{rnd.randrange(24):02d}:{rnd.randrange(60):02d}:{rnd.randrange(60):02d}"
        s = stamp.sub(t, s, count=1)
        s = pid.sub(lambda m: f"pid={int(m.group(1)) + state['i'] // len(lines) % 1000}", s)
        return num.sub(lambda m: f"{rnd.uniform(0, 999):.1f}", s)
    _write_lines(path, size, line)


def _bar(pct: int) -> str:
    k = pct // 10
    return "█" * k + " " * (10 - k)


def gen_bars(path: Path, size: int, rnd: random.Random) -> None:
    state = {"d": 0}

    def update(fmt: str) -> str:
        state["d"] = (state["d"] + 1) % 65
        d = state["d"]
        pct = d * 100 // 64
        r = rnd.randrange(8)      # eight ranks, each one process
        return _fill(fmt, rnd, pct=pct, d=d, s=d % 60, bar=_bar(pct), r=r, pid=3500 + r)

    def line() -> str:
        x = rnd.random()
        if x < 0.1:           # a capture of tqdm: updates separated by carriage returns
            return "\r".join(update(BARS[3]) for _ in range(8))
        if x < 0.15:
            return _fill(NOISE[0], rnd)
        return update(BARS[int(x * 10) % 3])
    _write_lines(path, size, line)


def gen_long(path: Path, size: int, rnd: random.Random) -> None:
    state = {"i": 0}
    words = [_fill(NOISE[i], rnd) for i in (0, 2, 7)]

    def line() -> str:
        state["i"] += 1
        half = " ".join(words[j % 3] for j in range(3500))
        mid = f" {LONG_ERROR} " if state["i"] % 4 == 0 else " "
        return half + mid + half
    _write_lines(path, size, line)


def _plog_line(rnd: random.Random, pid: int, tids: list[int], templates: list[str]) -> str:
    return _fill(rnd.choice(templates), rnd, pid=pid, tid=rnd.choice(tids), d=rnd.randrange(8))


def gen_benign(path: Path, size: int, rnd: random.Random) -> None:
    pid, tids = rnd.randrange(1000, 99999), [rnd.randrange(1000, 99999) for _ in range(4)]
    _write_lines(path, size, lambda: _plog_line(rnd, pid, tids, PLOG_BENIGN + LITERAL_ONLY))


def gen_plog_dir(root: Path, size: int, rnd: random.Random, files: int) -> None:
    per = max(1, size // files)
    for i in range(files):
        sub = root / ("plog" if i % 2 == 0 else f"device-{i % 8}")
        sub.mkdir(parents=True, exist_ok=True)
        pid, tids = rnd.randrange(1000, 99999), [rnd.randrange(1000, 99999) for _ in range(3)]
        _write_lines(sub / f"plog-{pid}_20250820100000{i:03d}.log", per,
                     lambda: _plog_line(rnd, pid, tids, PLOG_BENIGN if rnd.random() < 0.4 else PLOG_INFO))


KINDS = ("noise", "serve", "bars", "long", "benign", "plog-dir")


def generate(kind: str, where: Path, size: int, files: int) -> Path:
    rnd = random.Random(1)
    if kind == "plog-dir":
        path = where / "plog-dir"
        gen_plog_dir(path, size, rnd, files)
    else:
        path = where / f"{kind}.log"
        {"noise": gen_noise, "serve": gen_serve, "bars": gen_bars, "long": gen_long, "benign": gen_benign}[kind](
            path, size, rnd)
    return path


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
import json, os, re, resource, sys, time
sys.path.insert(0, {root!r})
from ascend_doctor.kb.query import KnowledgeBase
from ascend_doctor.diagnose import evidence
from ascend_doctor.diagnose.services.diagnosis import diagnose
kw = {kw!r}
scan = {{}}
real = evidence.read_evidence
def timed(*a, **k):
    k.update(kw)
    w, c, cc = time.perf_counter(), time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
    ev = real(*a, **k)
    cc2 = resource.getrusage(resource.RUSAGE_CHILDREN)
    scan.update(wall=time.perf_counter() - w, cpu=time.process_time() - c
                + cc2.ru_utime + cc2.ru_stime - cc.ru_utime - cc.ru_stime)
    return ev
evidence.read_evidence = timed
with KnowledgeBase({kb!r}) as kb:
    w, c = time.perf_counter(), time.process_time()
    d = diagnose(kb, [{log!r}])
    wall, cpu = time.perf_counter() - w, time.process_time() - c
cc = resource.getrusage(resource.RUSAGE_CHILDREN)
# the peak of this process's own memory (ru_maxrss would include the parent's at the fork)
hwm = int(re.search(r"VmHWM:\\s*(\\d+)", open("/proc/self/status").read()).group(1))
print(json.dumps({{"wall": wall, "cpu": cpu + cc.ru_utime + cc.ru_stime, "scan": scan,
                  "rss_kb": hwm, "workers_rss_kb": cc.ru_maxrss,
                  "findings": [(f.id, f.score) for f in d.findings[:3]], "codes": [c.code for c in d.codes][:5],
                  "lines": d.lines_read}}))
"""


def _grep(grep: str, pfile: Path, path: Path) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    args = [grep, "-c", "-E", "-f", str(pfile)] + (["-r", str(path)] if path.is_dir() else [str(path)])
    p = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"})
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    counts = p.stdout.split()
    matched = sum(int(c.rsplit(":", 1)[-1]) for c in counts if c.rsplit(":", 1)[-1].isdigit())
    return wall, cpu, str(matched)


def _diagnose(child: str) -> dict:
    # as installed: with the modules' bytecode (an environment that forbids writing it would time compiling)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    p = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, env=env)
    if p.returncode:
        raise RuntimeError(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "diagnose child failed")
    return json.loads(p.stdout.strip().splitlines()[-1])


def measure(kind: str, path: Path, kb_path: str, grep: str | None, pfile: Path, pairs: int, jobs: int | None) -> dict:
    files = sum(1 for _ in path.rglob("*") if _.is_file()) if path.is_dir() else 1
    size = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.is_dir() else path.stat().st_size
    kw = {} if jobs is None else {"jobs": jobs}
    child = CHILD.format(root=str(ROOT), kb=kb_path, log=str(path), kw=kw)
    if grep:   # warm-up: the files in the page cache
        _grep(grep, pfile, path)
    rows = []
    for _ in range(pairs):
        g = _grep(grep, pfile, path) if grep else None
        d = _diagnose(child)
        rows.append((g, d))
    d = rows[-1][1]
    out = {"kind": kind, "mb": size / 1e6, "files": files, "rss_mib": d["rss_kb"] / 1024,
           "findings": d["findings"], "codes": d["codes"], "scan_wall": statistics.median(r[1]["scan"]["wall"] for r in rows),
           "diag_wall": statistics.median(r[1]["wall"] for r in rows)}
    if grep:
        out["grep_wall"] = statistics.median(g[0] for g, _ in rows)
        out["grep_lines"] = rows[-1][0][2]
        for what, key in (("scan", None), ("diag", "wall")):
            for clock in ("wall", "cpu"):
                vals = []
                for g, dd in rows:
                    mine = dd["scan"][clock] if what == "scan" else dd[clock]
                    theirs = g[0] if clock == "wall" else g[1]
                    vals.append(theirs / mine if mine > 0 else float("inf"))
                out[f"{what}_{clock}_ratio"] = statistics.median(vals)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size-mb", type=int, default=100, help="size of each log (the folder: in all)")
    ap.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    ap.add_argument("--files", type=int, default=1000, help="files of the plog folder")
    ap.add_argument("--pairs", type=int, default=1, help="grep / diagnose runs alternated per kind (median)")
    ap.add_argument("--jobs", type=int, default=None, help="processes for a folder (default: the scanner's choice)")
    ap.add_argument("--kb", default=None)
    ap.add_argument("--keep", default=None, help="write the logs into this directory and keep them (reused)")
    args = ap.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        ap.error(f"unknown kind(s): {', '.join(bad)}")
    sys.path.insert(0, str(ROOT))
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase(args.kb) as kb:
        sigs = kb.signatures()
        kb_path = str(kb.path)
    tmp = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ad-scan-"))
    tmp.mkdir(parents=True, exist_ok=True)
    grep = shutil.which("grep")
    pats = grep_patterns(sigs)
    pfile = tmp / "patterns.txt"
    pfile.write_text("\n".join(pats) + "\n")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; grep -E -f: {len(pats)} of {len(sigs)} "
          f"signature regexes, LC_ALL=C; ratio = grep time / diagnose time (median of {args.pairs})")
    print(f"{'kind':9} {'MB':>6} {'files':>6} {'grep s':>7} {'scan s':>7} {'scan/grep wall':>14} {'cpu':>5} "
          f"{'diagnose/grep wall':>18} {'cpu':>5} {'files/s':>8} {'RSS MiB':>8}")
    try:
        for kind in kinds:
            path = tmp / ("plog-dir" if kind == "plog-dir" else f"{kind}.log")
            tag = tmp / f".{kind}.{args.size_mb}.{args.files if kind == 'plog-dir' else 0}"
            if not tag.exists():
                if path.is_dir():
                    shutil.rmtree(path)
                generate(kind, tmp, args.size_mb << 20, args.files)
                tag.touch()
            r = measure(kind, path, kb_path, grep, pfile, args.pairs, args.jobs)
            fps = f"{r['files'] / r['scan_wall']:8.0f}" if kind == "plog-dir" else f"{'':8}"
            if grep:
                print(f"{kind:9} {r['mb']:6.0f} {r['files']:6d} {r['grep_wall']:7.2f} {r['scan_wall']:7.2f} "
                      f"{r['scan_wall_ratio']:14.2f} {r['scan_cpu_ratio']:5.2f} {r['diag_wall_ratio']:18.2f} "
                      f"{r['diag_cpu_ratio']:5.2f} {fps} {r['rss_mib']:8.0f}")
            else:
                print(f"{kind:9} {r['mb']:6.0f} {r['files']:6d} {'-':>7} {r['scan_wall']:7.2f} {fps} {r['rss_mib']:8.0f}")
            print(f"          findings {r['findings']}, codes {r['codes']}")
            sys.stdout.flush()
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
