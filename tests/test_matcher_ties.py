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
