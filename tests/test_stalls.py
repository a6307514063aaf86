"""Stalled progress bars: tracked per input, matched against the KB's ``stalls`` phrases."""
from __future__ import annotations

import json
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_doctor.diagnose.evidence import read_evidence
from ascend_doctor.diagnose.evidence import reader as reader_mod
from ascend_doctor.diagnose.evidence import scan as scan_mod
from ascend_doctor.diagnose.evidence.stalls import StallTracker, parse_updates

from .conftest import FIXTURES

CLEAN = FIXTURES / "clean-logs"
WEIGHTS = "Loading safetensors checkpoint shards"
START = "(VllmWorker rank=0 pid=350) INFO 08-20 10:00:33 [model_runner_v1.py:2110] Starting to load model /models/Qwen3-32B...\n"


def stalls_of(tmp_path, text: str, name: str = "vllm.log"):
    p = tmp_path / name
    p.write_bytes(text.encode())
    return read_evidence([str(p)]).stalls


def bar(pct: int, done: int, total: int, desc: str = WEIGHTS) -> str:
    return f"{desc}: {pct:3d}% Completed | {done}/{total} [00:{done:02d}<?, ?it/s]"


def test_log_ending_at_zero_is_a_stall(tmp_path):
    st = stalls_of(tmp_path, START + bar(0, 0, 163) + "\n")
    assert len(st) == 1
    s = st[0]
    assert (s.description, s.percent, s.done, s.total, s.line) == (WEIGHTS, 0, 0, 163, 2)
    assert s.last_in_input
    assert s.text.startswith(WEIGHTS) and "0/163" in s.text


def test_bar_reaching_100_is_not_a_stall(tmp_path):
    lines = [bar(round(100 * i / 17), i, 17) for i in range(18)]
    assert not stalls_of(tmp_path, START + "\n".join(lines) + "\nINFO 08-20 10:00:56 [default_loader.py:262] Loading weights took 22.41 seconds\n")


def test_stuck_bar_followed_by_traceback_is_a_stall(tmp_path):
    text = (START + bar(0, 0, 99) + "\n" + bar(37, 37, 99) + "\n"
            "(VllmWorker rank=3 pid=12) ERROR 08-20 10:30:00 [multiproc_executor.py:1] WorkerProc hit an exception.\n"
            "Traceback (most recent call last):\n"
            '  File "/vllm/v1/executor/multiproc_executor.py", line 526, in worker_busy_loop\n'
            "RuntimeError: something else went wrong\n")
    st = stalls_of(tmp_path, text)
    assert [(s.percent, s.done, s.total, s.line) for s in st] == [(37, 37, 99, 3)]
    assert not st[0].last_in_input            # lines follow it: the log does not end at the bar


def test_two_bars_one_done_one_stuck(tmp_path):
    graphs = "Capturing CUDA graphs (mixed prefill-decode, PIECEWISE)"
    text = "\n".join([
        f"{graphs}:   0%|          | 0/67 [00:00<?, ?it/s]",
        bar(0, 0, 40),
        f"{graphs}: 100%|██████████| 67/67 [00:31<00:00,  2.12it/s]",
        bar(5, 2, 40),
    ]) + "\n"
    st = stalls_of(tmp_path, text)
    assert [(s.description, s.percent, s.done) for s in st] == [(WEIGHTS, 5, 2)]
    # the same, other way round: the graphs bar stuck after the weights completed
    text = "\n".join([bar(0, 0, 40), bar(100, 40, 40), f"{graphs}:  12%|█         | 8/67 [00:04<00:31,  2.12it/s]"]) + "\n"
    st = stalls_of(tmp_path, text)
    assert [(s.description, s.percent, s.done, s.total) for s in st] == [(graphs, 12, 8, 67)]


def test_carriage_return_updates(tmp_path):
    # a terminal capture: every update of the bar on one physical line, separated by CR
    stuck = "\r".join(bar(p, d, 10) for p, d in ((0, 0), (10, 1), (20, 2))) + "\n"
    st = stalls_of(tmp_path, "\x1b[32m" + stuck)
    assert [(s.percent, s.done, s.total) for s in st] == [(20, 2, 10)]
    done = "\r".join(bar(p * 10, p, 10) for p in range(11)) + "\n"
    assert not stalls_of(tmp_path, done, "done.log")
    # tqdm's default format, with a rank prefix
    upd = ["(Worker_TP0 pid=7) Processing:  50%|█████     | 5/10 [00:05<00:05,  1.00it/s]",
           "(Worker_TP0 pid=7) Processing: 100%|██████████| 10/10 [00:10<00:00,  1.00it/s]"]
    assert not stalls_of(tmp_path, "\r".join(upd) + "\n", "tqdm.log")
    assert [s.description for s in stalls_of(tmp_path, upd[0] + "\n", "tqdm2.log")] == ["Processing"]


def test_stalls_are_per_input(tmp_path):
    a = tmp_path / "a.log"
    b = tmp_path / "b.log"
    a.write_text(bar(0, 0, 17) + "\n")
    b.write_text(bar(100, 17, 17) + "\n")     # another input completing does not finish a's bar
    st = read_evidence([str(a), str(b)]).stalls
    assert [(s.source, s.percent) for s in st] == [(str(a), 0)]


def test_parse_updates_ignores_lookalikes():
    assert parse_updates("GPU KV cache usage: 3.1%, Prefix cache hit rate: 41.7%") == []
    assert parse_updates("| 3 | 50%| foo |") == []
    t = StallTracker()
    t.feed(bar(0, 0, 0), 1)                 # a bar with no total is not tracked
    assert t.finish("x", 1) == []


# -- matching ------------------------------------------------------------------------------------
def _json(cli, *args):
    r = cli("diagnose", "--format", "json", *args)
    assert r.code in (0, 1), r.err
    return r, json.loads(r.out)


def test_stall_on_affected_machine_ranks_the_weight_hang_first(cli, tmp_path):
    p = tmp_path / "vllm.log"
    p.write_text(START + bar(0, 0, 163) + "\n")
    r, d = _json(cli, "--sim", "kernel-6-hdk-25.5-weight-hang", str(p))
    top = d["findings"][0]
    assert top["id"] == "weight-load-hang-kernel-hdk"
    assert top["score"] > 0.5 and r.code == 1
    assert top["confirmed_by"]
    ev = [e for e in top["evidence"] if e["kind"] == "stall"]
    assert ev and ev[0]["line"] == 2 and "0/163" in ev[0]["text"]
    assert "the log ends here" in ev[0]["detail"] and "0%" in ev[0]["detail"]
    assert d["decisive"]["line"] == 2
    assert d["stalls"][0]["description"] == WEIGHTS and d["stalls"][0]["log_ends_here"] is True


def test_stall_outside_the_reported_combination_is_not_confirmed(cli, tmp_path):
    """On a machine without the kernel / HDK combination the reports share, the stall is evidence, not
    a confirmed cause (no public source names a fixed HDK, so nothing rules it out)."""
    p = tmp_path / "vllm.log"
    p.write_text(START + bar(0, 0, 163) + "\n")
    _r, d = _json(cli, "--sim", "healthy-a2-vllm-container", str(p))
    _r, affected = _json(cli, "--sim", "kernel-6-hdk-25.5-weight-hang", str(p))
    found = {f["id"]: f for f in d["findings"]}
    f = found["weight-load-hang-kernel-hdk"]
    assert not f["confirmed_by"]
    assert f["score"] < affected["findings"][0]["score"]


def test_several_stalled_files_count_once(cli, tmp_path):
    paths = []
    for i in range(4):
        p = tmp_path / f"rank{i}.log"
        p.write_text(bar(0, 0, 163) + "\n")
        paths.append(str(p))
    _r, d = _json(cli, "--no-env", *paths)
    top = d["findings"][0]
    assert top["id"] == "weight-load-hang-kernel-hdk" and top["score"] == pytest.approx(0.5)


def test_text_and_markdown_show_the_stall(cli, tmp_path):
    p = tmp_path / "vllm.log"
    p.write_text(START + bar(0, 0, 163) + "\n")
    r = cli("diagnose", "--no-env", str(p))
    assert "weight-load-hang-kernel-hdk" in r.out and "the log ends here" in r.out
    r = cli("diagnose", "--no-env", "--format", "markdown", str(p))
    assert "(stall: the log ends here: no progress after 0% (0/163)" in r.out


def test_unknown_stall_is_listed_when_nothing_matched(cli, tmp_path):
    p = tmp_path / "train.log"
    p.write_text("Epoch 1:  12%|█         | 8/67 [00:04<00:31,  2.12it/s]\n")
    r = cli("diagnose", "--no-env", str(p))
    assert r.code == 0
    assert "Progress that stopped" in r.out and "8/67" in r.out


@pytest.mark.parametrize("log", sorted(p.name for p in CLEAN.iterdir() if p.suffix in (".log", ".txt")))
def test_clean_logs_still_have_no_likely_cause(cli, log):
    _r, d = _json(cli, "--no-env", str(CLEAN / log))
    assert all(f["score"] <= 0.5 for f in d["findings"]), [(f["id"], f["score"]) for f in d["findings"]]
    assert all(e["kind"] != "stall" for f in d["findings"] for e in f["evidence"])


def test_kb_stalls_are_exposed():
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        assert ("weight-load-hang-kernel-hdk", WEIGHTS) in kb.stalls()
        assert kb.problem("weight-load-hang-kernel-hdk").stalls == [WEIGHTS]


def test_loader_validates_stalls(tmp_path):
    import shutil

    from ascend_doctor.kb.loader import load
    from ascend_doctor.kb.paths import KNOWLEDGE_DIR

    kdir = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, kdir)
    path = kdir / "problems" / "kernel-os.toml"
    text = path.read_text()
    line = 'stalls = ["Loading safetensors checkpoint shards"]'
    assert line in text
    for bad, message in (('stalls = ["Loading", 3]', "'stalls' must be a non-empty list"),
                         ("stalls = []", "'stalls' must be a non-empty list"),
                         ('stalls = ["Loading"]', "too short"),
                         ('stalls = ["Loading safetensors", "loading SAFETENSORS"]', "listed twice")):
        path.write_text(text.replace(line, bad))
        _kn, issues = load(kdir)
        assert any(message in i.message for i in issues), (bad, issues)
    path.write_text(text)
    kn, issues = load(kdir)
    assert not issues
    assert next(p for p in kn.problems if p.id == "weight-load-hang-kernel-hdk").stalls == [
        "Loading safetensors checkpoint shards"]


def test_block_of_one_bar_and_lookalikes(tmp_path):
    # the scanner hands on only the last line of a block that holds one bar and nothing else; any other
    # bar in the block (another total, another prefix) or a line with two bars must still be seen
    many = [bar(p, p, 100) for p in range(0, 60)]
    assert [(s.percent, s.total) for s in stalls_of(tmp_path, "\n".join(many) + "\n")] == [(59, 100)]
    other_total = [bar(10, 1, 10)] + many
    st = stalls_of(tmp_path, "\n".join(other_total) + "\n", "b.log")
    assert [(s.percent, s.total) for s in st] == [(10, 10), (59, 100)]
    ranked = ["(VllmWorker rank=1 pid=9) " + bar(3, 3, 100)] + many
    st = stalls_of(tmp_path, "\n".join(ranked) + "\n", "c.log")
    assert [(s.percent, s.line) for s in st] == [(59, 61)]        # same description: the later update wins
    st = stalls_of(tmp_path, "\n".join([bar(100, 100, 100)] + many[:5]) + "\n", "d.log")
    assert [(s.percent, s.line) for s in st] == [(4, 6)]
    done_then_stuck = many + [bar(100, 100, 100) + "  " + bar(7, 1, 13, "Capturing graphs")]
    st = stalls_of(tmp_path, "\n".join(done_then_stuck) + "\r\n", "e.log")
    assert st == []        # the line's first bar (100%) is its update: the weights bar completed


LINES = [
    "Loading safetensors checkpoint shards: {p:3d}% Completed | {d}/64 [00:{d:02d}<?, ?it/s]",
    "(VllmWorker rank={r} pid=35{r}) Loading safetensors checkpoint shards: {p:3d}% Completed | {d}/64 [00:01<00:02, 1s/it]",
    "[rank{r}]:Processing prompts: {p}%|{b}| {d}/64 [00:01<00:02, 3.1it/s]",
    "Epoch {r}: {p}%|{b}| {d}/{t} [00:01<00:02]",
    # not updates: no "[" after the fraction, or a percentage alone
    "(VllmWorker rank={r} pid=35{r}) INFO 08-20 10:00:0{r} [model_runner.py:{d}] Loading safetensors checkpoint shards: {p}% Completed | {d}/64",
    "GPU KV cache usage: {p}%, Prefix cache hit rate: 41.7%",
    # carriage-return captures, two bars in one line, CRLF, colours, a plain log line
    "Capturing graphs: {p}%|{b}| {d}/64 [00:01<00:00]\rCapturing graphs: {q}%|{b}| {e}/64 [00:01<00:00]",
    "Loading safetensors checkpoint shards: {p}% Completed | {d}/64 [00:01<?]  Epoch {r}: {q}%|{b}| {e}/64 [00:01]",
    "Loading safetensors checkpoint shards: {p}% Completed | {d}/64 [00:01<?]\r",
    "\x1b[32mEpoch {r}: {p}%|{b}| {d}/64 [00:01<00:02]\x1b[0m",
    "INFO 08-20 10:00:01 [core.py:1] step {d} ok",
]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(LINES) - 1), st.integers(0, 3), st.integers(0, 64), st.integers(0, 64)),
                min_size=1, max_size=120),
       st.sampled_from([64, 500, 4 << 20]))
def test_bar_lines_of_a_block_give_the_stalls_of_every_line(tmp_path_factory, rows, block):
    """The fast path (only the last update of each bar in a part of a block, lines that are not updates left
    out) finds the same stalls as handing every progress line to the tracker (the plain path), whatever the
    mix and wherever the blocks end."""
    text = "\n".join(LINES[i].format(r=r, p=d * 100 // 64, d=d, q=e * 100 // 64, e=e, t=64 + r, b="#" * (d // 7))
                     for i, r, d, e in rows) + "\n"
    path = tmp_path_factory.mktemp("bars") / "bars.log"
    path.write_text(text)
    old = reader_mod.BLOCK
    try:
        reader_mod.BLOCK = block
        fast = read_evidence([str(path)]).stalls
        with patch.object(scan_mod, "FAST", False):       # every progress line handed on
            every = read_evidence([str(path)]).stalls
    finally:
        reader_mod.BLOCK = old
    assert fast == every


_SEGMENTS = st.sampled_from([
    "Loading safetensors checkpoint shards:  45% Completed | 73/163 [00:12<00:14,  6.01it/s]",
    "Loading safetensors checkpoint shards: 100% Completed | 163/163 [00:27<00:00,  6.02it/s]",
    "Capturing CUDA graphs (decode, FULL):  23%|██        | 15/64 [00:15<00:49,  1.00it/s]",
    "Capturing CUDA graphs (decode, FULL):  25%|██        | 16/64 [00:16<00:48,  1.00it/s]",
    "Capturing CUDA graphs (decode, FULL):  25%|██        | 16/128 [00:16<00:48,  1.00it/s]",
    "Capturing CUDA graphs (decode, FULL)x 25%|██        | 16/64 [00:16<00:48,  1.00it/s]",
    "Epoch 3/10:  50%|█████     | 5/10 [00:05<00:05]",
    "disk 95% full / see [docs]", "", "12%", "no bar here",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_SEGMENTS, min_size=1, max_size=6), min_size=1, max_size=6), st.booleans())
def test_a_capture_counts_as_its_segments_one_by_one(captures, trailing_cr):
    """A line of carriage-return updates (one bar's or several, once or again and again) leaves the same stalls as
    its segments read as lines of their own at that line."""
    whole, apart = StallTracker(), StallTracker()
    for lineno, segments in enumerate(captures, 1):
        line = "\r".join(segments) + ("\r" if trailing_cr else "")
        for _ in range(2):                      # a bar met again takes the one-bar path
            whole.note(line.encode(), lineno, lineno)
            for seg in segments:
                apart.note(seg.encode(), lineno, lineno)
    assert whole.finish("x", len(captures)) == apart.finish("x", len(captures))
