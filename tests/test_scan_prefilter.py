"""The single-pass trigger search: exact per line, and the scanner built on it keeps line numbers right."""
from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_doctor.diagnose.evidence import CODE, ERROR_LINE, SIGNATURE, SignaturePattern, read_evidence
from ascend_doctor.diagnose.evidence import reader as reader_mod
from ascend_doctor.diagnose.evidence import scan as scan_mod
from ascend_doctor.diagnose.evidence.prefilter import Prefilter

# overlapping on purpose: "rror" inside "error code is", "or c" across both, "is 5" at the end of the long one
TRIGGERS = [b"rror", b"error code is", b"or c", b"is 5", b"EZ9999", "失败".encode()]


def brute(block: bytes, triggers: list[bytes]) -> dict[int, set[bytes]]:
    out: dict[int, set[bytes]] = {}
    start = 0
    for line in block.split(b"\n"):
        hit = {t for t in triggers if t in line}
        if hit:
            out[start] = hit
        start += len(line) + 1
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"rror", b"error code is 561000", b"or c", b"is 5", b"EZ999", b"9", b"\n", b" ",
                                 b"x", "失败".encode(), "失".encode()]), max_size=60))
def test_lines_are_exactly_the_lines_holding_each_trigger(parts):
    block = b"".join(parts)
    assert Prefilter(TRIGGERS).lines_apart(block, None, frozenset()) == (brute(block, TRIGGERS), [])


def test_lines_apart_and_no_triggers():
    block = b"INFO all good\n" * 1000 + b"x error code is 561000\n"
    lines, apart = Prefilter(TRIGGERS).lines_apart(block, None, frozenset([3]))   # "is 5" set apart
    assert lines == {14000: {b"rror", b"error code is", b"or c"}} and apart == [14000 + 13]
    assert Prefilter([]).lines_apart(block, None, frozenset()) == ({}, [])
    assert Prefilter([b""]).lines_apart(block, None, frozenset()) == ({}, [])


def _log(n_noise: int) -> tuple[str, dict[int, str]]:
    """Noise with a few error lines at known line numbers."""
    lines = [f"INFO 08-20 10:00:{i % 60:02d} [core.py:{i}] step {i} ok" for i in range(n_noise)]
    errs = {17: "RuntimeError: call aclnnMoeDistributeDispatchV4 failed, error code is 561000",
            503: "EZ9999: Inner Error! dcmi module initialize failed. ret is -8005",
            1499: "[ERROR] wait socket establish timeout, role[1] rank[12] timeout[120]"}
    for at, text in errs.items():
        lines[at - 1] = text
    return "\n".join(lines) + "\n", errs


def test_line_numbers_survive_tiny_blocks(tmp_path, monkeypatch):
    text, errs = _log(1500)
    path = tmp_path / "x.log"
    path.write_text(text)
    sig = SignaturePattern("dcmi#1", "dcmi module initialize failed", re.compile(r"dcmi module initialize failed\. ret is -80\d\d"))
    want = {ln.line: ln.kinds for ln in read_evidence([str(path)], signatures=[sig]).lines}
    monkeypatch.setattr(reader_mod, "BLOCK", 97)       # blocks end mid-line: the carry must keep counting right
    got = read_evidence([str(path)], signatures=[sig])
    assert {ln.line: ln.kinds for ln in got.lines} == want
    assert set(want) == set(errs)
    assert {CODE, ERROR_LINE, SIGNATURE} <= want[503]
    assert got.lines_read == 1500


def test_error_words_switched_off_keep_signatures_and_codes(tmp_path, monkeypatch):
    lines = [f"step {i}: RuntimeError: boom {i}" for i in range(300)]
    lines.append("DrvMngGetConsoleLogLevel failed. dcmi module initialize failed. ret is -8005")
    lines.append("RuntimeError: a different boom after the switch")
    path = tmp_path / "many.log"
    path.write_text("\n".join(lines) + "\n")
    sig = SignaturePattern("dcmi#1", "dcmi module initialize failed", re.compile(r"dcmi module initialize failed"))
    monkeypatch.setattr(scan_mod, "MAX_GENERIC_HITS", 50)
    monkeypatch.setattr(reader_mod, "BLOCK", 4096)
    ev = read_evidence([str(path)], signatures=[sig])
    by_line = {ln.line: ln for ln in ev.lines}
    assert SIGNATURE in by_line[301].kinds and ("dcmi", "-8005") in by_line[301].codes
    assert 302 not in by_line                         # error words are no longer looked for
    assert 1 in by_line and ERROR_LINE in by_line[1].kinds


KEPT = {"EZ9999: inner error", "x ERR00100 boom", "EJ0001 failed", "E40021"}
NOT_KEPT = {"E1234x result = 507010", "ERR0010", "EE12345", "result = 507010", "INFO ok " * 20, "EZ999"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(KEPT | NOT_KEPT)), min_size=1, max_size=40),
       st.sampled_from([7, 31, 97, 4 << 20]))
def test_code_prefixes_keep_exactly_the_code_lines(lines, block):
    """The automaton's E?? / ERR prefixes replace a BLOCK_RE pass over the block: a line is kept for a CANN /
    torch_npu code only when one is really there (``E1234x`` and a bare ``result = 507010`` hold no trigger),
    with the right line number, whatever the block size (a partial line carried past several blocks)."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.log"
        path.write_text("\n".join(lines))            # no final newline: the last line ends the input
        old = reader_mod.BLOCK
        try:
            reader_mod.BLOCK = block
            ev = read_evidence([str(path)])
        finally:
            reader_mod.BLOCK = old
    first = {}
    for i, ln in enumerate(lines, start=1):
        first.setdefault(ln, i)
    assert {ln.line for ln in ev.lines} == {first[t] for t in KEPT if t in first}
    assert ev.lines_read == len(lines)


def test_signature_regexes_compile_on_first_hit_and_broken_ones_never_match():
    from ascend_doctor.diagnose.matcher.signatures import compile_signatures
    from ascend_doctor.kb.query import SignatureInfo

    sigs = compile_signatures([
        SignatureInfo("p-hit", "dispatch failed", r"dispatch failed, code (\d+)", 0.9),
        SignatureInfo("p-idle", "never in this log", r"never in this log \d+", 0.9),
        SignatureInfo("p-broken", "bad regex here", r"bad regex here (", 0.9),
    ])
    assert all(isinstance(p._regex, str) for p in sigs.patterns)          # nothing compiled up front
    ev = read_evidence([], text="x\ndispatch failed, code 561000\nbad regex here too\n", signatures=sigs.patterns)
    hit, idle, broken = sigs.patterns
    assert not isinstance(hit._regex, str) and isinstance(idle._regex, str)   # only what a line asked for
    assert [ln.signatures for ln in ev.lines if ln.signatures] == [["p-hit#1"]]  # the broken one never matches
    assert sigs.broken == ["p-broken: missing ), unterminated subpattern at position 15"]


def test_the_automaton_answers_the_same_before_and_after_the_dfa_replaces_it(monkeypatch):
    """The quick-to-build automaton gives way to a DFA after DFA_AFTER bytes: the answers stay exact."""
    from ascend_doctor.diagnose.evidence import prefilter as prefilter_mod

    monkeypatch.setattr(prefilter_mod, "DFA_AFTER", 64)
    pf = Prefilter(TRIGGERS)
    block = b"x error code is 561000\nno trigger here\nEZ9999 \xe5\xa4\xb1\xe8\xb4\xa5 or c\n" * 3
    first = pf.lines_apart(block, None, frozenset())
    assert pf._until_dfa <= 0          # the DFA has taken over
    assert pf.lines_apart(block, None, frozenset()) == first
    assert first[0] == brute(block, TRIGGERS)
