"""Ties are not findings: when the evidence cannot choose between two causes, neither is called likely."""
from ascend_doctor.diagnose.matcher.match import TIE_CAP, _untie
from ascend_doctor.diagnose.matcher.model import LIKELY, Finding


def _f(pid, score):
    return Finding(pid, None, score)


def test_two_causes_with_the_same_score_are_both_below_likely_and_say_what_they_tie_with():
    fs = [_f("a", 0.62), _f("b", 0.615), _f("c", 0.3)]
    _untie(fs, "en")
    assert [f.id for f in fs] == ["a", "b", "c"]            # the order is kept
    assert fs[0].score == fs[1].score == TIE_CAP < LIKELY
    assert "ties with b" in fs[0].evidence[-1].text and "ties with a" in fs[1].evidence[-1].text
    assert fs[2].score == 0.3 and not fs[2].evidence


def test_a_clear_winner_stays_likely():
    fs = [_f("a", 0.62), _f("b", 0.55)]
    _untie(fs, "zh")
    assert fs[0].score == 0.62 and not fs[0].evidence


def test_the_tie_is_said_in_chinese():
    fs = [_f("a", 0.7), _f("b", 0.7)]
    _untie(fs, "zh")
    assert "得分相同" in fs[0].evidence[-1].text


def test_the_stacks_a_report_names_in_every_spelling():
    """LLaMA-Factory as llamafactory or llama_factory; "vllm-ascend" names vLLM too; a stack's name inside a
    longer word names nothing."""
    from ascend_doctor.diagnose.matcher.match import stacks_named

    assert stacks_named("pip install vllm-ascend") == {"vllm", "vllm-ascend"}
    assert stacks_named("vllmascend 0.9") == {"vllm-ascend"}
    assert stacks_named("LLaMA-Factory; llama_factory; LlamaFactory") == {"llama-factory"}
    assert stacks_named("MindSpore-Lite 2.5 and MS-Swift") == {"mindspore", "mindspore-lite", "ms-swift"}
    assert stacks_named("myvllm vllm-ascendx xdeepspeed") == {"vllm"}
    assert stacks_named("DEEPSPEED, Ray, verl") == {"deepspeed", "ray", "verl"}
    assert stacks_named("an array of xray images") == set()
    # a letter that is not ASCII is no part of a name ("éray" names Ray, as a regex's [a-z0-9] boundary says)
    assert stacks_named("éray vllm\udc80 ms swift") == {"ray", "vllm", "ms-swift"}
