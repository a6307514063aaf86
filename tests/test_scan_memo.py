"""What the fast path of the scan relies on: digit-uniform regexes, where codes can be on a shape, and
templates of kept plog lines (uniform.py, codes.py, template.py)."""
from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ascend_doctor.diagnose.evidence import codes
from ascend_doctor.diagnose.evidence import template
from ascend_doctor.diagnose.evidence import clock
from ascend_doctor.diagnose.evidence.model import SignaturePattern
from ascend_doctor.diagnose.evidence.scan import CODE_PREFIXES
from ascend_doctor.diagnose.evidence.prefilter import Prefilter
from ascend_doctor.diagnose.evidence.uniform import shape, uniform
from ascend_doctor.diagnose.evidence.verdict import Classifier


@pytest.mark.parametrize("rx, same", [
    (r"\bBus error(?: \(core dumped\))?\s*$", True), (r"[0-9a-f]+\d\w.\S", True), (r"[^\d]x\D\W\s", True),
    (r"(?i)abc", True), (r"(a)?(?(1)b|c)", True),
    (r"error code is 507033\b", False), (r"[1-9]", False), (r"(a)\1", False), (r"(?<=:0\d)x", False),
    (r"[0-4a]", False),
])
def test_digit_uniform_regexes(rx, same):
    assert uniform(re.compile(rx)) is same


FRAGMENTS = ["error code is ", "ret is ", "ret[", "]", "EZ", "E", "ERR", "HCCL ", "fault event ", "0x", "x",
             "failed, ", "errno: ", "错误码", "返回", " ", "-", "(ret = ", "aclError:", "result = ", "ei"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.from_regex(r"\A[0-9]{1,9}\Z")), max_size=12), st.randoms())
def test_a_shape_that_cannot_hold_a_code_holds_none(parts, rnd):
    """``codes.possible`` is False only when no line of the shape holds a code, and ``codes.spans`` covers
    every code found."""
    line = "".join(parts)
    other = re.sub(r"[0-9]", lambda m: str(rnd.randrange(10)), line)
    key = shape(line.encode()).decode()
    assert key == shape(other.encode()).decode()
    for text in (line, other):
        found = codes.extract(text)
        if found:
            assert codes.possible(key)
            spans = codes.spans(key)
            for _fam, code in found:
                assert any(code.lower() in text[s:e].lower() for s, e in spans), (text, code, spans)


def _trigs(cl, pf, line: bytes) -> set[bytes]:
    found = {pf.triggers[i] for i, _s, _e in pf.matches(line)}
    if not found.isdisjoint(CODE_PREFIXES):
        found -= CODE_PREFIXES
        if codes.BLOCK_RE.search(line):
            found.add(b"")
    return found


@pytest.mark.parametrize("body", [
    "[op_desc.cc:914]{t} GetAttr: attribute _datadump_original_op_names of op Add_{n} is empty",
    "[device.cc:334]{t} GetDeviceCapability: feature {d} query failed, use default",
    "[tsd_client.cpp:481][{t}] TsdCapabilityGet: capability {d} not supported on this chip",
])
def test_a_template_gives_every_line_of_its_shape_what_reading_it_gives(body):
    cl = Classifier([])
    pf = Prefilter([*cl.kind_of, *CODE_PREFIXES])

    def classify(b: bytes):
        return cl.classify(b, _trigs(cl, pf, b))

    def line(rnd: random.Random) -> bytes:
        t = f"{rnd.randrange(10000, 99999)}"
        ts = f"2025-0{rnd.randrange(1, 10)}-{rnd.randrange(10, 29)}-1{rnd.randrange(10)}:{rnd.randrange(10, 60)}:" \
             f"{rnd.randrange(10, 60)}.{rnd.randrange(100, 1000)}.{rnd.randrange(100, 1000)}"
        return (f"[ERROR] GE({rnd.randrange(1000, 9999)},python3):{ts} "
                + body.format(t=t, n=rnd.randrange(10, 100), d=rnd.randrange(10))).encode()

    key, c = _template_agrees_with_reading(line, classify, seed=7, rounds=200)
    assert c.ts == key.decode().count("0", 0, key.decode().index("):") + 2)


def _template_agrees_with_reading(line, classify, seed: int, rounds: int):
    """Make the template of the shape of ``line(rnd)``'s first line and check, on ``rounds`` more lines of that
    shape, that it gives what reading each line gives (its time included); returns the shape and its clock."""
    from ascend_doctor.diagnose.evidence.clean import line_time

    rnd = random.Random(seed)
    first = line(rnd)
    key = shape(first)
    c = clock.find(key.decode())
    assert c is not None
    tpl = template.make(first, key, c, classify, lambda _b: True)
    assert tpl is not None
    for _ in range(rounds):
        b = line(rnd)
        if shape(b) != key:
            continue
        d = bytes(x for x in b if 48 <= x <= 57)
        v, got = classify(b), tpl.verdict(d.decode())
        assert (got.key, got.cleaned, got.kinds, got.sigs, got.codes, got.gh) == \
            (v.key, v.cleaned, v.kinds, v.sigs, v.codes, v.gh)
        assert c.text(d) == line_time(b.decode())
    return key, c


def test_no_template_where_the_digits_reach_more_than_the_text():
    cl = Classifier([])
    pf = Prefilter([*cl.kind_of, *CODE_PREFIXES])
    for body in ("[hccl.cc:12][7] HcclAllReduce is failed. ret[9]",          # a code
                 "[x.cc:1][2] error: 0 errors, rank=3 failed",                 # a rank, "0 errors"
                 "[x.cc:1][2] failed at 0x7ffd1234abcd"):                     # the dedupe key's 0x rule
        b = f"[ERROR] HCCL(1234,python3):2025-08-20-10:00:00.000.000 {body}".encode()
        key = shape(b)
        assert template.make(b, key, clock.find(key.decode()), lambda x: cl.classify(x, _trigs(cl, pf, x)),
                             lambda _b: True) is None, body


def test_a_kept_serving_line_with_a_vllm_time_gets_a_template_too():
    """vLLM-Ascend prints the same kept line at every start with another time (and pid): its shape gets a
    template, and the template gives each line what reading it gives, its time included."""
    cl = Classifier([SignaturePattern("p#1", "use_inductor not supported")])
    pf = Prefilter([*cl.kind_of, *CODE_PREFIXES])

    def classify(b: bytes):
        return cl.classify(b, _trigs(cl, pf, b))

    def line(rnd: random.Random) -> bytes:
        return (f"(APIServer pid={rnd.randrange(1, 9)}) INFO 0{rnd.randrange(1, 10)}-{rnd.randrange(10, 29)} "
                f"1{rnd.randrange(10)}:{rnd.randrange(10, 60)}:{rnd.randrange(10, 60)} [platform.py:174] PIECEWISE "
                "compilation enabled on NPU. use_inductor not supported - using only ACL Graph mode").encode()

    _key, c = _template_agrees_with_reading(line, classify, seed=3, rounds=100)
    assert not c.year and c.frac == 0


@pytest.mark.parametrize("text,kind", [
    ("[ERROR] GE(1234,python3):2025-08-20-10:00:00.123.456 [a.cc:1] x", ("plog", True, 6)),
    ("2025-08-20 10:00:00,123 - vllm - ERROR - x", ("iso", True, 3)),
    ("INFO 08-20 10:00:12 [platform.py:174] x", ("md", False, 0)),
])
def test_a_clock_reads_the_time_line_time_reads(text, kind):
    from ascend_doctor.diagnose.evidence.clean import line_time

    c = clock.find(shape(text.encode()).decode())
    assert c is not None and (c.year, c.frac) == kind[1:]
    d = bytes(x for x in text.encode() if 48 <= x <= 57)
    assert c.text(d) == line_time(text)
    bad = text.replace("08-20", "13-20")                     # an invalid month: read on its own, like line_time
    assert c.text(bytes(x for x in bad.encode() if 48 <= x <= 57)) is None


def test_no_clock_where_the_time_line_time_takes_could_depend_on_the_digits():
    assert clock.find(shape(b"2025-08-20 10:00:00 then 2025-08-21 10:00:00 x").decode()) is None   # two ISO times
    assert clock.find(shape("时间 08-20 10:00:00".encode()).decode()) is None                         # not ASCII
    assert clock.find(shape(b"no time here 12345").decode()) is None
