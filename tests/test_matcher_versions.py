"""A problem's ``versions`` say which releases it concerns: versions the machine or the report shows outside
them make it unlikely (the matcher used to ignore them)."""
from types import SimpleNamespace

import pytest

from ascend_doctor.diagnose.matcher.match import Matcher
from ascend_doctor.kb.language.facts import Fact, FactSet
from ascend_doctor.kb.loader import VERSION_COMPONENTS, VERSION_FACTS


def _outside(versions, *facts):
    problem = SimpleNamespace(versions=versions)
    fs = FactSet()
    fs.extend(list(facts))
    return Matcher._outside_versions(None, problem, fs)


def test_every_version_component_reads_a_known_fact():
    from ascend_doctor.kb.language.fact_keys import known

    assert set(VERSION_FACTS) == set(VERSION_COMPONENTS)
    assert all(known(key) for key in VERSION_FACTS.values())


def test_a_version_outside_the_range_is_named_inside_or_unknown_is_not():
    torch = Fact("pkg.torch", "2.5.1", source="text:<text>:12")
    out = _outside({"torch": "<2.5.1", "transformers": ">4.49"}, torch)
    assert _outside({"driver": "25.5.X", "kernel": ">=6.0"}, Fact("driver.version", "25.2.0"), Fact("kernel.release", "5.15.0")) == []
    assert [(c, v, r) for c, _k, v, r, _s in out] == [("torch", "2.5.1", "<2.5.1")]
    assert _outside({"torch": "<2.5.1"}, Fact("pkg.torch", "2.2.0")) == []
    assert _outside({"torch": "<2.5.1"}) == []                       # not known: says nothing
    assert _outside({"cann": ">=8.5.0"}, Fact("cann.version", "not a version")) == []


@pytest.mark.parametrize("report,wanted,other", [
    ("AssertionError: Torch not compiled with CUDA enabled\ntorch 2.5.1\ntorch-npu 2.5.1\ntransformers 4.51.0",
     "cuda-code-path-on-npu", "transformers-new-with-old-torch-npu"),
])
def test_versions_the_report_states_outside_a_problems_range_rank_it_lower(report, wanted, other):
    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        ids = [f.id for f in diagnose(kb, text=report).findings]
    assert wanted in ids and (other not in ids or ids.index(wanted) < ids.index(other))


def test_a_version_pair_the_problem_is_about_confirms_it():
    """A problem about a version pair (transformers > 4.49 with torch < 2.5.1) is confirmed, a little, when the
    report states both versions inside; one of them outside, or only one stated, confirms nothing."""
    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.query import KnowledgeBase

    log = "RuntimeError: Torch not compiled with CUDA enabled\n"
    with KnowledgeBase() as kb:
        def notes(versions):
            d = diagnose(kb, text=log + versions)
            f = next(f for f in d.findings if f.id == "transformers-new-with-old-torch-npu")
            return f.score, [e.text for e in f.evidence if "pair the problem concerns" in e.text]

        inside, said = notes("transformers==4.51.3, torch==2.1.0, torch_npu==2.1.0.post8")
        outside, none = notes("transformers==4.40.0, torch==2.1.0")
        one, none2 = notes("transformers==4.51.3")
    assert said and "transformers = 4.51.3" in said[0] and not none and not none2
    assert inside > outside and inside > one


def test_a_limitation_a_check_only_warns_about_is_not_confirmed_again_by_the_same_versions():
    """An HDK older than 25.5.1 makes AD-DRV-008 warn (no full graph mode) and satisfies its problem's
    confirm_when: on a report that shows no graph-capture failure that is one piece of evidence, not two; with
    the failure's own line the versions confirm it."""
    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.query import KnowledgeBase

    versions = "vllm-ascend 0.11.0\nAscend HDK Version: 25.5.0\nCANN 8.3.RC2\n"
    with KnowledgeBase() as kb:
        def score(text):
            d = diagnose(kb, text=text)
            return next((f.score for f in d.findings if f.id == "hdk-too-old-for-aclgraph"), 0.0)
        alone = score("Single layerwise offload error on kvcache shape\n" + versions)
        failing = score("RuntimeError: Alloc sq cq fail\n" + versions)
    assert alone < 0.2
    assert failing > alone + 0.3
