"""Condition trees (rules/conditions.py): ops, three-valued logic, validation."""
from __future__ import annotations

from ascend_doctor.kb.language.conditions import Context, evaluate, facts_used, validate
from ascend_doctor.rules.fixtures import fact_set


def ev(cond, values=None, statuses=None, compat=None):
    errs = validate(cond)
    assert not errs, errs
    return evaluate(cond, Context(fact_set(values or {}, statuses or {}), compat))


def test_basic_ops():
    v = {"a": "x", "n": "120", "l": ["davinci0", "hisi_hdc"], "d": {"/p": False}, "k": 3}
    assert ev({"fact": "a", "op": "eq", "value": "x"}, v).value is True
    assert ev({"fact": "a", "op": "ne", "value": "x"}, v).value is False
    assert ev({"fact": "a", "op": "in", "value": ["x", "y"]}, v).value is True
    assert ev({"fact": "a", "op": "not_in", "value": ["x"]}, v).value is False
    assert ev({"fact": "l", "op": "contains", "value": "hisi_hdc"}, v).value is True
    assert ev({"fact": "l", "op": "not_contains", "value": "devmm_svm"}, v).value is True
    assert ev({"fact": "l", "op": "matches", "value": r"^davinci\d+$"}, v).value is True
    assert ev({"fact": "n", "op": "ge", "value": 120}, v).value is True
    assert ev({"fact": "n", "op": "lt", "value": 120}, v).value is False
    assert ev({"fact": "n", "op": "is_int", "value": True}, v).value is True
    assert ev({"fact": "a", "op": "is_int", "value": False}, v).value is True
    assert ev({"fact": "l", "op": "len_eq", "value": 2}, v).value is True
    assert ev({"fact": "d", "key": "/p", "op": "eq", "value": False}, v).value is True
    assert ev({"fact": "k", "op": "eq", "value_fact": "k"}, v).value is True


def test_missing_fact_is_unknown_and_says_why():
    out = ev({"fact": "driver.version", "op": "version_lt", "value": "25.5.3"}, {}, {"driver.version": "timeout"})
    assert out.value is None
    assert "driver.version: timeout" in out.reasons[0]
    out = ev({"fact": "never.probed", "op": "eq", "value": 1})
    assert out.value is None and "not collected" in out.reasons[0]


def test_kleene_logic():
    unknown = {"fact": "u", "op": "eq", "value": 1}
    true = {"fact": "t", "op": "eq", "value": 1}
    false = {"fact": "t", "op": "eq", "value": 2}
    vals = {"t": 1}
    assert ev({"any": [unknown, true]}, vals).value is True
    assert ev({"any": [unknown, false]}, vals).value is None
    assert ev({"all": [unknown, false]}, vals).value is False
    assert ev({"all": [unknown, true]}, vals).value is None
    assert ev({"not": unknown}, vals).value is None
    assert ev({"not": false}, vals).value is True


def test_status_ops():
    st = {"p": "missing", "q": "timeout"}
    assert ev({"fact": "p", "op": "missing"}, {}, st).value is True
    assert ev({"fact": "p", "op": "exists"}, {}, st).value is False
    assert ev({"fact": "q", "op": "exists"}, {}, st).value is None
    assert ev({"fact": "q", "op": "status_in", "value": ["timeout"]}, {}, st).value is True
    assert ev({"fact": "q", "op": "eq", "value": 1, "if_unknown": False}, {}, st).value is False


def test_versions_use_the_family_of_the_fact():
    v = {"kernel.release": "6.6.0-98.oe2403sp1.aarch64", "driver.version": "25.2.0", "pkg.torch": "2.6.0+cpu"}
    assert ev({"fact": "kernel.release", "op": "version_ge", "value": "5.19"}, v).value is True
    assert ev({"fact": "driver.version", "op": "version_in", "value": "<25.5.3 || >=26.0.RC1,<26.0.RC3"}, v).value
    assert ev({"fact": "pkg.torch", "op": "version_eq", "value": "2.6.0"}, v).value is True
    bad = ev({"fact": "driver.version", "op": "version_lt", "value": "V100R001C22"}, v)
    assert bad.value is None and "cannot compare" in bad.reasons[0]


def test_a_version_that_names_a_line_is_compared_as_every_release_of_it():
    # 'HDK 25.5' in a report is any 25.5 release: older than 25.5.1 is not known, older than 26.0 is
    v = {"driver.version": "25.5", "cann.version": "8.5"}
    out = ev({"fact": "driver.version", "op": "version_lt", "value": "25.5.1"}, v)
    assert out.value is None and "every release of its line" in out.reasons[0]
    assert ev({"fact": "driver.version", "op": "version_lt", "value": "26.0.0"}, v).value is True
    assert ev({"fact": "driver.version", "op": "version_ge", "value": "25.3.0"}, v).value is True
    assert ev({"fact": "cann.version", "op": "version_ge", "value": "8.5.0"}, v).value is True
    # a full version or a release candidate is itself, as before
    assert ev({"fact": "driver.version", "op": "version_lt", "value": "25.5.1"}, {"driver.version": "25.5.0"}).value
    assert ev({"fact": "driver.version", "op": "version_lt", "value": "25.5.1"}, {"driver.version": "25.5.rc1"}).value


def test_items():
    health = [{"npu_id": 0, "chip_id": 0, "health": "OK"}, {"npu_id": 1, "chip_id": 0, "health": "Critical"}]
    cond = {"fact": "npu.health", "op": "any_item", "where": {"field": "health", "op": "eq", "value": "Critical"}}
    out = ev(cond, {"npu.health": health})
    assert out.value is True and "npu_id 1" in out.notes[0]
    cond_all = {"fact": "npu.health", "op": "all_items", "where": {"field": "health", "op": "eq", "value": "OK"}}
    assert ev(cond_all, {"npu.health": health}).value is False
    cond_no = {"fact": "npu.health", "op": "no_item", "where": {"field": "health", "op": "eq", "value": "Alarm"}}
    assert ev(cond_no, {"npu.health": health}).value is True
    # an item without the field is unknown, not a pass
    assert ev(cond_all, {"npu.health": [{"npu_id": 0}]}).value is None


def test_device_list():
    cond = {"fact": "env.ASCEND_RT_VISIBLE_DEVICES", "op": "device_list_bad", "value_fact": "npu.count"}
    assert ev(cond, {"env.ASCEND_RT_VISIBLE_DEVICES": "0,1,7", "npu.count": 8}).value is False
    for bad in ("0,8", "2,1", "1,1", "1, 2", "a", ""):
        assert ev(cond, {"env.ASCEND_RT_VISIBLE_DEVICES": bad, "npu.count": 8}).value is True, bad


def test_compat_rows():
    rows = {"m": [
        {"k": "1.0.0", "ok": ["25.5.X", "26.0.RC1"], "bad": ["25.0.X"], "source": "s1"},
        {"k": "1.0.0", "ok": ["25.3.X"], "source": "s2"},
        {"k": "2.0.0.post4", "ok": "25.5.X", "source": "s3"},
    ]}.get

    def has(value, key, column="ok", **kw):
        return ev({"fact": "driver.version", "op": "compat_has", "matrix": "m", "row": {"k": "pkg.x"},
                   "column": column, **kw}, {"driver.version": value, "pkg.x": key}, compat=rows)

    assert has("25.5.3", "1.0.0").value is True
    assert has("25.3.RC1", "1.0.0").value is True          # union of rows
    assert has("24.1.0", "1.0.0").value is False
    assert has("25.0.rc1.1", "1.0.0", column="bad").value is True
    out = has("25.5.3", "2.0.0.post9")                   # no exact row: same release
    assert out.value is True and "same release" in out.notes[0]
    out = has("25.5.3", "3.0.0")
    assert out.value is None and "no row" in out.reasons[0]
    assert has("25.5.3", "3.0.0", if_no_row=False).value is False
    no_kb = ev({"fact": "a", "op": "compat_has", "matrix": "m", "select": {"k": "1"}, "column": "ok"}, {"a": 1})
    assert no_kb.value is None


def test_validate_rejects_bad_conditions():
    assert validate({"fact": "a", "op": "bogus", "value": 1})
    assert validate({"fact": "a", "op": "matches", "value": "("})
    assert validate({"fact": "a", "op": "in", "value": "x"})
    assert validate({"fact": "a", "op": "version_lt", "value": "not a version"})
    assert validate({"fact": "a", "op": "eq"})
    assert validate({"field": "a", "op": "eq", "value": 1})          # field outside an item op
    assert validate({"all": []})
    assert validate({"all": [{"fact": "a", "op": "exists"}], "fact": "b"})
    assert validate({"fact": "a", "op": "eval", "value": "__import__('os')"})
    assert validate({"fact": "a", "op": "compat_has", "matrix": "m", "column": "c"})   # no row/select


def test_facts_used():
    cond = {"all": [{"fact": "a", "op": "exists"}, {"not": {"fact": "b", "op": "eq", "value_fact": "c"}},
                    {"fact": "d", "op": "compat_has", "matrix": "m", "row": {"x": "e"}, "column": "y"}]}
    assert facts_used(cond) == ["a", "b", "c", "d", "e"]


def test_conditions_are_described_in_words():
    from ascend_doctor.kb.language.conditions import describe

    cond = {"all": [{"fact": "npu_smi.path", "op": "exists"},
                    {"not": {"fact": "npu_smi.dcmi_error", "op": "eq", "value": "-8020"}},
                    {"any": [{"fact": "kernel.release", "op": "version_ge", "value": "6.0"},
                             {"fact": "container.kind", "op": "in", "value": ["docker", "kubernetes"]}]}]}
    assert describe(cond) == ("npu_smi.path is known and not (npu_smi.dcmi_error = -8020) and "
                              "(kernel.release ≥ 6.0 or container.kind is one of docker, kubernetes)")


def test_explain_a_rule_shows_no_raw_condition_tree(cli):
    r = cli("explain", "AD-DRV-005")
    assert r.code == 0 and '{"' not in r.out and "npu_smi.path is known" in r.out


def test_compat_superseded_names_a_release_candidate_that_later_releases_replace():
    """A vLLM-Ascend rcN the compatibility matrix knows later releases of is superseded (the project publishes
    fixes in later releases, not in the old candidate); a final release or the newest rc is not; a malformed
    predicate is refused."""
    from ascend_doctor.kb.language.conditions import Context, evaluate, validate
    from ascend_doctor.kb.language.facts import Fact, FactSet

    rows = [{"vllm_ascend": v} for v in ("v0.9.1rc1", "v0.9.1", "v0.10.0rc1", "v0.11.0", ">=0.12")]
    cond = {"fact": "pkg.vllm_ascend", "op": "compat_superseded", "matrix": "m", "column": "vllm_ascend"}

    def run(version):
        fs = FactSet()
        fs.add(Fact("pkg.vllm_ascend", version))
        return evaluate(cond, Context(fs, compat=lambda name: rows))

    out = run("0.9.1rc1")
    assert out.value is True and "3 later release(s), the newest v0.11.0" in out.notes[0]
    assert "v0.9.1, v0.11.0" in out.notes[0]
    assert run("v0.9.1").value is False              # a final release
    assert run("0.11.1rc1").value is False           # newer than anything listed
    assert validate(cond, "c") == []
    assert any("takes no" in e for e in validate({**cond, "row": {"vllm": "pkg.vllm"}}, "c"))
    assert any("needs 'fact'" in e for e in validate({k: v for k, v in cond.items() if k != "fact"}, "c"))
