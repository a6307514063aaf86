"""Property tests: random and mutated text into every parser and find_blocks; nothing escapes."""
from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings, strategies as st

from ascend_doctor.diagnose.parsers import KINDS, PARSERS, find_blocks

S = Path(__file__).parent / "fixtures" / "samples"
SAMPLES = sorted(p.read_text(encoding="utf-8", errors="replace") for p in S.rglob("*.txt"))
ALPHABET = st.sampled_from(list("| +-=.:/_0123456789ABCNPUxX \n\t") + ["NA", "OK", "npu-smi", "Version:", "NPU ID",
                                                                       "Chip", "ret is -80", "=", "[", "]", "\u00e9", "\ufffd"])


def _check(text: str) -> None:
    for kind, fn in PARSERS.items():
        r = fn(text)                                     # the raw parser, not the guarded wrapper
        assert r.status in ("ok", "unparsed") and r.kind == kind
        if r.status == "unparsed":
            assert r.value is None and r.reason
    for b in find_blocks(text):
        assert 1 <= b.start_line <= b.end_line <= max(1, len(text.splitlines()))


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_random_text(text):
    _check(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(ALPHABET, max_size=300).map("".join))
def test_table_like_noise(text):
    _check(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SAMPLES), st.data())
def test_mutated_samples(sample, data):
    lines = sample.splitlines()
    ops = data.draw(st.lists(st.tuples(st.sampled_from(["drop", "dup", "cut", "swap", "insert"]),
                                       st.integers(0, max(0, len(lines) - 1)), st.text(max_size=20)), max_size=6))
    for op, i, junk in ops:
        if not lines:
            break
        i %= len(lines)
        if op == "drop":
            del lines[i]
        elif op == "dup":
            lines.insert(i, lines[i])
        elif op == "cut":
            lines[i] = lines[i][: len(lines[i]) // 2]
        elif op == "swap" and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        else:
            lines.insert(i, junk)
    _check("\n".join(lines))


def test_every_kind_has_a_parser():
    assert set(KINDS) == set(PARSERS) and len(KINDS) >= 20
