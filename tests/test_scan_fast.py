"""The scan's fast paths (line memos, plog blocks read in bulk, progress bars) give exactly what reading
every line holding a trigger on its own gives (``scan.FAST = False``, the plain path): the same Evidence
and the same findings, on every test case, every fixture and generated logs made to trip them."""
from __future__ import annotations

import json
import random

import pytest

from ascend_doctor.diagnose.evidence import SignaturePattern, bulk, read_evidence
from ascend_doctor.diagnose.evidence import parallel
from ascend_doctor.diagnose.evidence import reader as reader_mod
from ascend_doctor.diagnose.evidence import scan as scan_mod

from .conftest import FIXTURES, ROOT
from .evidence_dump import dump

CASES = sorted((ROOT / "tests" / "diagnosis_cases" / "dev").glob("*.toml"))
FIXTURE_FILES = sorted(p for p in FIXTURES.rglob("*") if p.is_file() and p.suffix not in (".toml", ".sqlite"))


def findings(d) -> str:
    def line(ln):
        return ln and [ln.source, ln.line, ln.text, ln.order, ln.time, ln.count]
    return json.dumps({
        "findings": [[f.id, f.score, [(s.kind, s.source, s.line, s.text, s.count, s.ranks, s.time, s.order)
                                      for s in f.evidence], f.parts] for f in d.findings],
        "codes": [[c.code, c.family, c.count, c.line, c.text] for c in d.codes], "decisive": line(d.decisive),
        "first": [line(ln) for ln in d.first_errors], "causes": [line(ln) for ln in d.causes],
        "stalls": [vars(s) for s in d.stalls], "read": [d.bytes_read, d.lines_read]}, default=str)


def both(monkeypatch, run):
    """``run()`` on the plain path, then on the fast one."""
    monkeypatch.setattr(scan_mod, "FAST", False)
    plain = run()
    monkeypatch.setattr(scan_mod, "FAST", True)
    return plain, run()


@pytest.fixture(scope="module")
def kb():
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as k:
        yield k


def test_every_case_and_fixture_gives_the_plain_findings(kb, monkeypatch):
    from ascend_doctor.diagnose import evidence, matcher
    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.toml import tomllib

    shared = matcher.Matcher(kb)       # built once (its indexes take a second): both paths use the same one
    monkeypatch.setattr(matcher, "Matcher", lambda _kb: shared)
    seen = []
    real = evidence.read_evidence
    monkeypatch.setattr(evidence, "read_evidence", lambda *a, **k: seen.append(real(*a, **k)) or seen[-1])

    def run(**kw):
        d = diagnose(kb, **kw)
        return findings(d), dump(seen[-1])

    assert len(CASES) >= 100 and len(FIXTURE_FILES) >= 50
    for case in CASES:
        text = tomllib.loads(case.read_text(encoding="utf-8"))["input"]
        plain, fast = both(monkeypatch, lambda: run(text=text))
        assert fast == plain, case.name
    for path in FIXTURE_FILES:
        plain, fast = both(monkeypatch, lambda: run(paths=[str(path)]))
        assert fast == plain, path


# -- generated logs made to trip the fast paths -------------------------------------------------------------
#: signatures as the KB writes them (the first five), and some that look where a memo must not assume nothing
#: looks: the plog header's pid and time (by regex, and by a literal that holds digits of a header)
SIGS = [
    SignaturePattern("hccl#1", "wait socket establish timeout", r"\[Wait\]\[LinkEstablish\]wait socket establish timeout"),
    SignaturePattern("bus#1", "Bus error", r"\bBus error(?: \(core dumped\))?\s*$"),
    SignaturePattern("health#1", "Health Status", r"^\s*Health Status\s*:\s*(?:Warning|Alarm|Critical)\b"),
    SignaturePattern("oom#1", "NPU out of memory", r"NPU out of memory\. Tried to allocate [0-9.]+ [KMGT]?i?B\b"),
    SignaturePattern("code#1", "error code is 507033", r"error code is 507033\b"),
    SignaturePattern("hdr#1", "socket close", r"HCCL\(1\d+,python3\):2025-08-20-10:0"),
    SignaturePattern("hdr#2", "not supported", r"python3?\):\d{4}-0[1-6]-[0-2]"),
    SignaturePattern("hdr#3", "query failed", r"(?<=:0\d\.\d{3}\.\d{3} )\[device"),
    SignaturePattern("lit#1", "1,python3):2025", None),
    SignaturePattern("lit#2", "-10:0", None),
    SignaturePattern("lit#3", "3):20", None),
    SignaturePattern("rank#1", "rank 3 failed", r"rank 3 failed"),
]
KB_LIKE = SIGS[:5] + SIGS[-1:]
LEVELS = ["ERROR", "ERROR", "ERROR", "INFO", "WARNING", "EVENT", "DEBUG"]
MODS = ["HCCL", "RUNTIME", "GE", "TDT", "DRV", "ASCENDCL"]
PNAMES = ["python3", "python3", "python", "hccl_test 2", "", "(x", "rank=3"]
BODIES = [
    "socket close, fd[{n}], error code is 0",
    "socket close, fd[{n}], error code is {n}",
    "TsdCapabilityGet: capability {d} not supported on this chip",
    "GetDeviceCapability: feature {d} query failed, use default",
    "Bus error handler registered for channel {d}",
    "Bus error",
    "wait socket establish timeout is set to 120 s",
    "[Wait][LinkEstablish]wait socket establish timeout, role[1] rank[{d}] timeout[120]",
    "Health Status : OK, device {d}",
    "aclnnMatmul failed, error code is 561003",
    "HcclAllReduce is failed. ret[{d}]",
    "EZ9999: Inner Error! rank 3 failed",
    "ERR00100x not a code, ERR02200 DIST call hccl api failed",
    "error code is 507033 on rank {d}",
    "NPU out of memory. Tried to allocate 3.47 GiB",
    "stream_id={n}, priority=0 ok",
    "tuple (1234, {d}) and ({pid},python3):2025-08-20-10:00:00.000.000 inside",
    "Possible Cause: the last training process is running",
    "0 errors, {n} warnings",
    "ret is -8005 dcmi",
    "fault event 0x80E01801 alarm",
    "进程 失败 错误码: 507033",
    "Loading safetensors checkpoint shards: {p}% Completed | {d}/9 [00:01<?, ?it/s]",
    "a\rb error\rc",
    "\x1b[31mred error\x1b[0m",
    "rank={d} failed here",
    "long " + "x" * 1990 + " error code is 561000",
]
OTHER = [
    "(VllmWorker rank={d} pid={pid}) INFO 08-20 10:{m:02d}:{s:02d} [worker.py:233] Defaulting to out of memory guard of {n} MiB",
    "(APIServer pid=1) INFO 08-20 10:{m:02d}:{s:02d} [utils.py:326] non-default args: {{'model': 'x', 'n': {n}}}",
    "[rank{d}]: RuntimeError: call aclnnMoeDistributeDispatchV4 failed, error code is 56100{d}",
    "Capturing CUDA graphs (decode, FULL): {p}%|#####     | {d}/9 [00:0{d}<00:00, 1.{n}it/s]",
    "Capturing CUDA graphs (decode, FULL): 10%|#     | 1/9 [00:01<00:09, 1.0it/s]\rCapturing CUDA graphs (decode, FULL): {p}%|#####     | {d}/9 [00:0{d}<00:00, 1.{n}it/s]",
    "\rLoading safetensors checkpoint shards: {p}% Completed | {d}/9 [00:01<?, ?it/s]\rLoading safetensors checkpoint "
    "shards: 100% Completed | 9/9 [00:02<00:00, 1.{n}it/s]\r",
    "Capturing CUDA graphs (decode, FULL): {p}%|#####     | {d}/9 [00:0{d}<00:00, 1.{n}it/s]\rRuntimeError: error code "
    "is 50703{d}",
    "[rank{d}]: Processing prompts: {p}%|###| {d}/{n}9 [00:0{d}<00:00]\r[rank{n}]: Processing prompts: {p}%|###| {d}/9 [00:0{d}<00:00]",
    "Traceback (most recent call last):",
    "INFO all good {n}",
    "WARNING 0 errors",
    "",
    "{{'loss': 1.{n}, 'grad_norm': 0.{n}}}",
]


def _ts(rnd: random.Random, t: int) -> str:
    mo, d, h = "08", "20", "10"
    x = rnd.random()
    if x < 0.02:
        mo = "13"
    elif x < 0.04:
        h = "25"
    elif x < 0.05:
        return f"1999-{mo}-{d}-{h}:00:00.000.000"
    elif x < 0.06:
        return f"2025-{mo}-{d}-{h}:00:00.0001.000"
    elif x < 0.07:
        return f"2025-{mo}-{d}-{h}:00:00.00.000"
    elif x < 0.08:
        mo = "01"        # another year's January: sorts before August without the year
    return f"2025-{mo}-{d}-{h}:{t // 60 % 60:02d}:{t % 60:02d}.{rnd.randrange(1000):03d}.{rnd.randrange(1000):03d}"


def plog(rnd: random.Random, lines: int, pids: list[int], ordered: bool, other: float) -> str:
    out = []
    t = rnd.randrange(3600)
    for _ in range(lines):
        t = t + rnd.randrange(3) if ordered else rnd.randrange(3600)
        args = dict(n=rnd.randrange(5), d=rnd.randrange(4), p=rnd.choice([0, 50, 100]), pid=rnd.choice(pids),
                    m=rnd.randrange(60), s=rnd.randrange(60))
        if rnd.random() < other:
            out.append(rnd.choice(OTHER).format(**args))
            continue
        body = rnd.choice(BODIES).format(**args)
        tid = rnd.choice(["[7]", "[123]", "12", "[tid:9]", ""])
        out.append(f"[{rnd.choice(LEVELS)}] {rnd.choice(MODS)}({rnd.choice(pids)},{rnd.choice(PNAMES)}):{_ts(rnd, t)} "
                   f"[x.cc:{rnd.randrange(3)}]{tid} {body}")
    return "\n".join(out) + ("\n" if rnd.random() < 0.8 else "")


def _evidence(paths, jobs=1, sigs=SIGS):
    return read_evidence(paths, signatures=sigs, jobs=jobs)


@pytest.mark.parametrize("seed", range(16))
def test_generated_logs_give_the_plain_evidence(tmp_path, monkeypatch, seed):
    rnd = random.Random(seed)
    monkeypatch.setattr(reader_mod, "BLOCK", rnd.choice([97, 1000, 4096, 1 << 16]))
    monkeypatch.setattr(bulk, "BY_SHAPE_MIN", rnd.choice([0, bulk.BY_SHAPE_MIN]))
    # the generated lines have many shapes: most seeds learn them all, some search parts with the automaton
    monkeypatch.setattr(bulk, "MAX_NEW", 10 if seed % 4 == 3 else 10 ** 9)
    if seed % 3 == 1:
        monkeypatch.setattr(scan_mod, "MAX_GENERIC_HITS", rnd.randrange(20, 400))
    if seed % 4 == 2:
        monkeypatch.setattr(scan_mod, "MAX_DISTINCT", rnd.randrange(5, 60))
    one = [rnd.randrange(100, 99999)]
    many = one + [rnd.randrange(10, 999999) for _ in range(3)]
    paths = []
    for i in range(3):
        p = tmp_path / f"plog-{i}.log"
        p.write_text(plog(rnd, rnd.randrange(200, 2500), one if i != 1 else many, ordered=seed % 2 == 0,
                          other=rnd.choice([0.0, 0.05, 0.3])), encoding="utf-8")
        paths.append(str(p))
    sigs = SIGS if seed % 2 else KB_LIKE
    plain, fast = both(monkeypatch, lambda: _evidence(paths, sigs=sigs))
    assert dump(fast) == dump(plain)


@pytest.mark.parametrize("seed", range(4))
def test_generated_folders_give_the_plain_evidence(tmp_path, monkeypatch, seed):
    rnd = random.Random(100 + seed)
    monkeypatch.setattr(bulk, "MAX_NEW", 10 if seed == 3 else 10 ** 9)
    monkeypatch.setattr(parallel, "MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "MIN_FILE_BYTES", 0)
    if seed == 1:
        monkeypatch.setattr(scan_mod, "MAX_GENERIC_HITS", 300)
    for i in range(rnd.randrange(20, 60)):
        sub = tmp_path / "plog" / ("plog" if i % 2 else f"device-{i % 3}")
        sub.mkdir(parents=True, exist_ok=True)
        pid = rnd.randrange(10, 99999)
        (sub / f"plog-{pid}_{i}.log").write_text(plog(rnd, rnd.randrange(0, 120), [pid], True, 0.05), encoding="utf-8")
    for jobs in (1, 2):
        plain, fast = both(monkeypatch, lambda: _evidence([str(tmp_path / "plog")], jobs=jobs,
                                                          sigs=KB_LIKE if seed % 2 else SIGS))
        assert dump(fast) == dump(plain), jobs


def test_the_generated_logs_reach_every_fast_path(tmp_path, monkeypatch):
    """With signatures as the KB writes them, the generated logs reach every kind of shape, plog lines are
    counted from a line entry or a template learnt from another line, many of them in bulk (else the tests
    above would prove little); with a literal that holds a header's digits, no plog line is."""
    from ascend_doctor.diagnose.evidence import memo as memo_mod
    from ascend_doctor.diagnose.evidence.sources import file_source

    monkeypatch.setattr(bulk, "MAX_NEW", 10 ** 9)
    in_bulk = []
    real = scan_mod._State.settle
    monkeypatch.setattr(scan_mod._State, "settle",
                        lambda st: in_bulk.append(sum(acc[0] for acc in st.pending.values())) or real(st))

    path = tmp_path / "g.log"
    path.write_text(plog(random.Random(3), 4000, [1234, 56789], ordered=True, other=0.05), encoding="utf-8")
    for sigs, sure in ((KB_LIKE, True), (SIGS, False)):
        in_bulk.clear()
        sc = scan_mod.Scanner(sigs, fast=True)
        sc.scan([file_source(str(path), "g")])
        (memo,) = sc._memos.values()
        shapes = list(memo._shapes.values())
        entries = [le for e in shapes for le in e.lines.values()]
        plog_entries = [le for le in entries if le is not memo_mod.UNSURE and le.clock is not None]
        templates = [e for e in shapes if e.tpl is not None]
        assert {e.kind for e in shapes} == {memo_mod.NOTHING, memo_mod.PROGRESS_ONLY, memo_mod.EXACT}
        assert (len(plog_entries) > 100) is sure and any(le is memo_mod.UNSURE for le in entries)
        assert (len(templates) > 100) is sure
        assert (sum(in_bulk) > 500) is sure
        assert not any("stopped reading" in n.message for n in sc.scan([file_source(str(path), "g")]).notes)


def test_lines_of_one_dedupe_key_with_other_codes_count_them_as_the_plain_path(tmp_path, monkeypatch):
    """HCCL's ret[5] and ret[9] share a dedupe key ("ret[#]") but not their code: a line counted in bulk
    counts only its own codes, and only those already found on a kept line."""
    line = "[ERROR] HCCL({p},python3):2025-08-20-10:00:0{s}.000.000 [hccl.cc:12][7] HcclAllReduce is failed. ret[{k}]"
    rows = [(1, 0, 9), (2, 1, 5), (3, 2, 9), (1, 3, 7), (4, 4, 9), (4, 5, 5)]
    (tmp_path / "h.log").write_text("\n".join(line.format(p=p, s=s, k=k) for p, s, k in rows) + "\n")
    plain, fast = both(monkeypatch, lambda: _evidence([str(tmp_path / "h.log")], sigs=KB_LIKE))
    assert dump(fast) == dump(plain)
    assert [(c.code, c.count) for c in fast.codes] == [("9", 3)]


def test_lines_counted_in_bulk_before_a_code_is_first_kept_do_not_count_for_it(tmp_path, monkeypatch):
    """Lines counted in bulk are added to their kept lines later (``_State.settle``), across files; a code first
    kept in a later file (a new CodeHit) counts only its own line and those after it, as the plain path does."""
    line = "[ERROR] HCCL({p},python3):2025-08-20-10:00:{s:02d}.000.000 [hccl.cc:12][7] {op} is failed. ret[{k}]"
    first = [(1, 0, 9)] + [(2, s, 5) for s in range(1, 40)]
    (tmp_path / "a.log").write_text("\n".join(line.format(p=p, s=s, k=k, op="HcclAllReduce") for p, s, k in first) + "\n")
    (tmp_path / "b.log").write_text(line.format(p=3, s=50, k=5, op="HcclBroadcast") + "\n"
                                    + line.format(p=2, s=51, k=5, op="HcclAllReduce") + "\n")
    paths = [str(tmp_path / "a.log"), str(tmp_path / "b.log")]
    plain, fast = both(monkeypatch, lambda: _evidence(paths, sigs=KB_LIKE))
    assert dump(fast) == dump(plain)
    assert sorted((c.code, c.count) for c in fast.codes) == [("5", 2), ("9", 1)]


def test_long_lines_give_the_plain_evidence(tmp_path, monkeypatch):
    """Parts of a few long lines are read line by line; a line longer than MAX_KEEP is read on its own."""
    rnd = random.Random(11)
    words = ["INFO step ok", "RuntimeError: call aclnnMatmul failed, error code is 561003", "Bus error",
             "wait socket establish timeout", "Loading safetensors checkpoint shards: 50% Completed | 1/2 [00:01<00:01]"]
    lines = []
    for i in range(40):
        n = rnd.choice([10, 3000, 70000, 300000])
        lines.append(" ".join(rnd.choice(words) for _ in range(n // 12 + 1)))
        if i % 5 == 0:
            lines.append(f"[rank{i % 3}]: RuntimeError: short line {i}")
    (tmp_path / "long.log").write_text("\n".join(lines) + "\n")
    plain, fast = both(monkeypatch, lambda: _evidence([str(tmp_path / "long.log")], sigs=KB_LIKE))
    assert dump(fast) == dump(plain)


def test_lines_that_never_repeat_are_read_one_by_one_with_the_plain_evidence(tmp_path, monkeypatch):
    """A kept line whose digits never repeat (an iteration number, a step): after LEARN_TRIAL line entries of
    its shape found no use, its lines are read one by one (learning each costs more than reading it); a log
    whose lines all have shapes of their own is searched by the automaton."""
    from ascend_doctor.diagnose.evidence import memo as memo_mod
    from ascend_doctor.diagnose.evidence.sources import file_source

    rnd = random.Random(4)
    lines = []
    for _ in range(1500):
        lines.append(f"[ERROR] RUNTIME({rnd.randrange(1000, 9999)},python3):2025-08-20-10:{rnd.randrange(10, 60)}:"
                     f"{rnd.randrange(10, 60)}.{rnd.randrange(100, 999)}.{rnd.randrange(100, 999)} [x.cc:12][77] "
                     f"aclrtSetDevice failed, error code is 507033 at step {rnd.randrange(10 ** 6)}")
        lines.append(f"RuntimeError: batch {rnd.randrange(10 ** 7)} failed with loss nan at iteration {rnd.randrange(10 ** 5)}")
        lines.append(" ".join(f"k{j}={rnd.randrange(10 ** rnd.randrange(1, 7))}" for j in range(6)))
    (tmp_path / "u.log").write_text("\n".join(lines) + "\n")
    plain, fast = both(monkeypatch, lambda: _evidence([str(tmp_path / "u.log")]))
    assert dump(fast) == dump(plain)
    monkeypatch.setattr(bulk, "MAX_NEW", 10 ** 9)      # the shapes learnt, whatever their number
    plain, fast = both(monkeypatch, lambda: _evidence([str(tmp_path / "u.log")]))
    assert dump(fast) == dump(plain)
    sc = scan_mod.Scanner(SIGS, fast=True)
    sc.scan([file_source(str(tmp_path / "u.log"), "u")])
    (memo,) = sc._memos.values()
    assert any(e.kind is memo_mod.ONEBYONE and e.made >= memo_mod.LEARN_TRIAL for e in memo._shapes.values())


@pytest.mark.parametrize("cap", [10 ** 6, 40])
def test_plog_parts_counted_shape_by_shape_give_the_plain_evidence(tmp_path, monkeypatch, cap):
    """Parts whose kept lines are all plog lines are counted shape by shape (bulk._by_shape), new keys kept as
    their first lines come and, past MAX_DISTINCT, left out; a part with a line that must be read on its own
    (an invalid time) goes back to the line-by-line reading. Both give what reading every line gives."""
    monkeypatch.setattr(scan_mod, "MAX_DISTINCT", cap)
    monkeypatch.setattr(reader_mod, "BLOCK", 4096)
    monkeypatch.setattr(bulk, "BY_SHAPE_MIN", 0)
    done = []
    real = bulk.ShapeReader._by_shape
    monkeypatch.setattr(bulk.ShapeReader, "_by_shape", lambda self, *a: done.append(real(self, *a)) or done[-1])
    benign = ["[ERROR] DRV({pid},python3):{ts} [ascend_hal.c:609]{tid} halGetDeviceInfo: module {d} info type 9 is invalid",
              "[ERROR] PROFILING({pid},python3):{ts} [prof_acl_mgr.cpp:1177]{tid} ProfAclMgr: profiling switch is off",
              "[ERROR] HCCL({pid},python3):{ts} [hccl_socket.cc:312][{tid}] socket close, fd[{n}], error code is 0",
              "[ERROR] GE({pid},python3):{ts} [op_desc.cc:914]{tid} GetAttr: attribute of op Add_{n} is empty",
              "[INFO] RUNTIME({pid},python3):{ts} [stream.cc:1061]{tid} Create: stream_id={n}, priority=0"]
    rnd = random.Random(7)
    paths = []
    for i in range(4):
        lines = []
        for j in range(1500):
            t = j if i % 2 == 0 else rnd.randrange(3600)
            lines.append(rnd.choice(benign).format(pid=1234 + i, tid=rnd.choice([77, 1234 + i, 98765]), d=rnd.randrange(4),
                                                   n=rnd.randrange(30), ts=_ts(rnd, t)))
        p = tmp_path / f"plog-{i}.log"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(p))
    plain, fast = both(monkeypatch, lambda: _evidence(paths, sigs=KB_LIKE))
    assert dump(fast) == dump(plain)
    counted = [n for n in done if n is not None]
    assert len(counted) > 20 and None in done


@pytest.mark.parametrize("segments, one", [
    # one bar, its text without digits: decided from the shapes and a count of "/total "
    (["Capturing CUDA graphs (decode, FULL): {p}%|###| {d}/64 [00:0{d}<00:00, 1.{d}it/s]"] * 6, True),
    # one bar whose text holds digits (a rank): the text is counted too
    (["[rank3]: Processing prompts: {p}%|###| {d}/64 [00:0{d}<00:00]"] * 5, True),
    # two ranks, one shape: not one bar
    (["[rank3]: Processing prompts: {p}%|###| {d}/64 [00:0{d}<00:00]",
      "[rank5]: Processing prompts: {p}%|###| {d}/64 [00:0{d}<00:00]"] * 3, False),
    # two totals of one width, one shape: not one bar
    (["Loading: {p}%|##| {d}/64 [00:01<00:01]", "Loading: {p}%|##| {d}/32 [00:01<00:01]"] * 3, False),
    # the bar's text holds "/total " itself: the count cannot tell, one_bar decides
    (["Files /64 : {p}%|##| {d}/64 [00:01<00:01]"] * 4, True),
    # an empty segment between two updates
    (["Loading: {p}%|##| {d}/64 [00:01<00:01]", "", "Loading: {p}%|##| {d}/64 [00:01<00:01]"], False),
])
def test_one_bar_told_from_shapes_agrees_with_the_tracker(segments, one):
    """Captures whose segments all update one bar are noted by their last one. Told from the segments' shapes and
    a few counts, the answer is never 'one bar' where StallTracker.one_bar says otherwise (then it asks it), and it
    is 'one bar' without a regex for the usual capture of a single bar."""
    from ascend_doctor.diagnose.evidence.memo import one_bar_by_shapes
    from ascend_doctor.diagnose.evidence.stalls import StallTracker
    from ascend_doctor.diagnose.evidence.uniform import TO_ZERO

    rnd = random.Random(7)
    segs = [s.format(p=rnd.randrange(101), d=rnd.randrange(1, 10)).encode() for s in segments]
    body = b"\r".join(segs)
    shapes = {s.translate(TO_ZERO) for s in segs if s}
    fast = one_bar_by_shapes(body, shapes)
    assert StallTracker().one_bar(body) is one
    assert not fast or one                                  # never 'one bar' where the tracker says otherwise
    if segments[0].startswith(("Capturing", "[rank3]")) and one:
        assert fast                                         # the usual capture needs no regex
