"""Many files read by several processes give exactly the Evidence of one process reading them in order."""
from __future__ import annotations

import gzip
import random

import pytest

from ascend_doctor.diagnose.evidence import SignaturePattern, read_evidence
from ascend_doctor.diagnose.evidence import parallel
from ascend_doctor.diagnose.evidence import scan as scan_mod

from .evidence_dump import dump as _dump

SIGS = [SignaturePattern("hccl-timeout#1", "wait socket establish timeout",
                         r"\[Wait\]\[LinkEstablish\]wait socket establish timeout"),
        SignaturePattern("dcmi#1", "dcmi module initialize failed", r"dcmi module initialize failed\. ret is -80\d\d")]

LINES = [
    "[ERROR] HCCL({pid},python3):2025-08-20-10:00:{s:02d}.000.000 [hccl_socket_manager.cc:778] [{tid}][Wait][LinkEstablish]"
    "wait socket establish timeout, role[1] rank[{r}] timeout[120]",
    "[ERROR] HCCL({pid},python3):2025-08-20-10:00:{s:02d}.000.000 [hccl.cc:12][{tid}] HcclAllReduce is failed. ret[{k}]",
    "[ERROR] RUNTIME({pid},python3):2025-08-20-10:01:{s:02d}.123.456 [device.cc:334]{tid} feature {k} query failed, use default",
    "[rank{r}]: RuntimeError: call aclnnMatmul failed, error code is 56100{k}",
    "EZ9999: Inner Error! dcmi module initialize failed. ret is -8005",
    "[INFO] GE({pid},python3):2025-08-20-10:00:{s:02d}.000.000 [graph_manager.cc:1203]{tid} RunGraph ok",
    "RuntimeError: boom without a time {k}",
    "Loading safetensors checkpoint shards: {p:3d}% Completed | {k}/9 [00:01<?, ?it/s]",
    "Possible Cause: the last training process is running",
    "INFO all good {k}",
]


def _folder(root, seed: int, lines=LINES) -> None:
    rnd = random.Random(seed)
    for i in range(rnd.randrange(3, 9)):
        sub = root / ("plog" if i % 2 else f"device-{i % 3}")
        sub.mkdir(parents=True, exist_ok=True)
        pid, tids = rnd.randrange(100, 999), [rnd.randrange(100, 999) for _ in range(2)]
        lines = [rnd.choice(lines).format(pid=pid, tid=rnd.choice(tids), s=rnd.randrange(60), r=rnd.randrange(4),
                                          k=rnd.randrange(10), p=rnd.randrange(0, 101))
                 for _ in range(rnd.randrange(0, 60))]
        data = ("\n".join(lines) + ("\n" if rnd.random() < 0.8 else "")).encode()
        if rnd.random() < 0.15:
            (sub / f"plog-{i}.log.gz").write_bytes(gzip.compress(data))
        else:
            (sub / f"plog-{i}.log").write_bytes(data)
    (root / "core.bin").write_bytes(b"\x00\x01binary")


@pytest.fixture
def merges(monkeypatch):
    """Use the processes for any folder, and count the files whose result was merged."""
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    done = []
    real = parallel.merge

    def merge(*a):
        ok = real(*a)
        done.append(ok)
        return ok
    monkeypatch.setattr(parallel, "merge", merge)
    return done


#: every file a unit of its own; or small files sent together, a few at a time
UNITS = [{"MIN_FILE_BYTES": 0}, {"UNIT_BYTES": 900, "UNIT_FILES": 3}]


@pytest.mark.parametrize("units", UNITS)
@pytest.mark.parametrize("limits", [{}, {"MAX_DISTINCT": 12}, {"MAX_DISTINCT": 40}, {"MAX_GENERIC_HITS": 40},
                                    {"HEAD_TOTAL": 700, "HEAD_BYTES": 300}])
@pytest.mark.parametrize("seed", range(4))
def test_processes_give_the_serial_evidence(tmp_path, monkeypatch, merges, seed, limits, units):
    for name, value in limits.items():
        monkeypatch.setattr(scan_mod, name, value)
    for name, value in units.items():
        monkeypatch.setattr(parallel, name, value)
    _folder(tmp_path / "logs", seed)
    (tmp_path / "one.log").write_text(LINES[3].format(r=1, k=3) + "\n")
    paths = [str(tmp_path / "logs"), str(tmp_path / "one.log"), str(tmp_path / "logs" / "plog")]   # a file read twice
    serial = read_evidence(paths, text="EJ0001 pasted: Failed to initialize the HCCP process", signatures=SIGS, jobs=1)
    several = read_evidence(paths, text="EJ0001 pasted: Failed to initialize the HCCP process", signatures=SIGS, jobs=3)
    assert _dump(several) == _dump(serial)
    assert merges                     # the processes were used, not bypassed


def test_a_code_first_found_on_a_line_kept_from_an_earlier_file_is_read_here(tmp_path, monkeypatch, merges):
    monkeypatch.setattr(parallel, "MIN_FILE_BYTES", 0)
    # same dedupe key ("ret[#]"), different HCCL codes: the serial scan does not count ret[5] on the
    # second file's line (the line is a repeat and the code was never found on a new line)
    line = "[ERROR] HCCL(1,python3):2025-08-20-10:00:00.000.000 [hccl.cc:12][7] HcclAllReduce is failed. ret[{}]"
    (tmp_path / "a.log").write_text(line.format(9) + "\n")
    (tmp_path / "b.log").write_text(line.format(5) + "\n" + line.format(9) + "\n")
    serial = read_evidence([str(tmp_path)], signatures=SIGS, jobs=1)
    assert _dump(read_evidence([str(tmp_path)], signatures=SIGS, jobs=2)) == _dump(serial)
    assert merges == [False]            # a.log is read here (the first unit is this process's), b.log by a worker, refused
    assert [(c.code, c.count) for c in serial.codes] == [("9", 2)]


def test_few_small_files_stay_in_this_process(tmp_path, monkeypatch):
    (tmp_path / "a.log").write_text("RuntimeError: x\n")
    (tmp_path / "b.log").write_text("RuntimeError: y\n")
    monkeypatch.setattr(parallel, "scan", lambda *a: pytest.fail("no processes for 32 bytes"))
    assert len(read_evidence([str(tmp_path)], jobs=4).lines) == 2


@pytest.mark.parametrize("generic_hits", [None, 60])
def test_a_plog_folder_of_small_files_is_read_by_the_processes_in_units(tmp_path, monkeypatch, merges, generic_hits):
    # thousands of files of a few KB: sent a run at a time, and past the distinct-line cap the merge still
    # keeps exactly what the serial scan keeps (only signature and code lines); once the error words are
    # switched off, the units are read by the processes without them
    monkeypatch.setattr(scan_mod, "MAX_DISTINCT", 30)
    if generic_hits:
        monkeypatch.setattr(scan_mod, "MAX_GENERIC_HITS", generic_hits)
    monkeypatch.setattr(parallel, "UNIT_BYTES", 2000)
    # (HCCL's "ret[N]" lines, one dedupe key with several codes, are left out: their unit is read here, above)
    for seed in range(6):
        _folder(tmp_path / "plog" / f"rank-{seed}", seed, [ln for ln in LINES if "ret[" not in ln])
    serial = read_evidence([str(tmp_path / "plog")], signatures=SIGS, jobs=1)
    assert generic_hits or len(serial.lines) > 30        # the cap was passed (signature and code lines)
    assert _dump(read_evidence([str(tmp_path / "plog")], signatures=SIGS, jobs=2)) == _dump(serial)
    if generic_hits:
        assert serial_off(tmp_path)                      # the switch happened within the folder
        assert merges.count(False) <= 1 and merges[-1]   # only the unit in which it happened was read again here
    else:
        assert merges and all(merges)                    # every unit merged, none read again here
    units = parallel.units([([], s) for s in _sources(tmp_path / "plog")])
    assert len(units) < sum(1 for _ in (tmp_path / "plog").rglob("*.log*"))


def serial_off(tmp_path) -> bool:
    sc = scan_mod.Scanner(SIGS)
    st = scan_mod._State(scan_mod.Evidence())
    with scan_mod.Reader() as rd:
        for src in _sources(tmp_path / "plog"):
            sc._scan_source(src, st, rd)
    return st.generic_off


def _sources(root):
    from ascend_doctor.diagnose.evidence.sources import file_source
    return [file_source(str(p), str(p)) for p in sorted(root.rglob("*")) if p.is_file()]


def test_workers_only_where_they_pay(monkeypatch):
    """On two CPUs one worker beside the main process was slower than the main process alone (bench/NOTES.md):
    a folder is read by this process; from three CPUs on, one process per CPU, at most 16."""
    from ascend_doctor.diagnose.evidence import parallel

    for cpus, jobs in ((1, 1), (2, 1), (3, 3), (8, 8), (64, 16)):
        monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda _pid, n=cpus: set(range(n)), raising=False)
        assert parallel.default_jobs() == jobs
