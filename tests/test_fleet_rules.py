"""Fleet rules: the catalogue loads, every rule has a public source and fixture fleets (PASS, FAIL/WARN,
SKIP/ERROR) that give exactly the expected status and blame exactly the expected nodes."""
from __future__ import annotations

import pytest

from ascend_doctor.kb.language.conditions.fleet import validate_aggregate
from ascend_doctor.rules.fleet_catalog import check_rules, load_fleet_rules
from ascend_doctor.rules.fleet_engine import run_fleet_rules
from ascend_doctor.rules.fleet_fixtures import all_cases
from ascend_doctor.rules.nodeset import NodeSetError, expand, fold

RULES = {r.id: r for r in load_fleet_rules()}


@pytest.fixture(scope="module")
def kb():
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as k:
        yield k
CASES = all_cases()


def test_catalogue_is_valid_and_large_enough():
    rules, issues = check_rules()
    assert not issues, issues
    assert len(rules) >= 20
    assert all(r.sources and all(s.startswith("https://") for s in r.sources) for r in rules)


def test_every_rule_links_to_an_existing_problem(kb):
    known = set(kb.problem_ids())
    assert [r.id for r in load_fleet_rules() if r.problem and r.problem not in known] == []


def test_every_rule_has_pass_drift_and_skip_or_error_fixtures():
    by_rule: dict[str, set[str]] = {}
    for c in CASES:
        by_rule.setdefault(c.rule, set()).add(c.expect)
    for rid in RULES:
        got = by_rule.get(rid, set())
        assert "PASS" in got and got & {"FAIL", "WARN"} and got & {"SKIP", "ERROR"}, (rid, got)
    assert set(by_rule) <= set(RULES), set(by_rule) - set(RULES)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule}: {c.name}" for c in CASES])
def test_fixture(case):
    assert not case.issues, case.issues
    [result] = run_fleet_rules([RULES[case.rule]], case.members, case.context, group_by=case.group_by,
                               labels=case.labels)
    msg = result.text("message", "en")
    assert result.status == case.expect, (result.status, msg)
    if case.outliers is not None:
        assert result.outliers == case.outliers, (result.outliers, msg)
    if case.contains:
        assert case.contains in msg, msg
    if result.status in ("FAIL", "WARN"):
        assert result.text("fix", "en") and "{" not in result.text("fix", "en")


def test_a_wrong_aggregate_is_refused_with_the_reason():
    from ascend_doctor.kb.language import fact_keys

    cases = [({"op": "uniform"}, "exactly one of"), ({"op": "uniformm", "fact": "x"}, "did you mean uniform"),
             ({"op": "each"}, "needs 'where'"), ({"op": "unique", "fact": "npu.cuont"}, "unknown fact key"),
             ({"op": "on_root", "where": {"fact": "npu.count", "op": "lt", "value": 8}}, "needs 'value'"),
             ({"op": "eq", "fact": "npu.count"}, "unknown fleet op")]
    for agg, words in cases:
        errs = validate_aggregate(agg, "a", known_fact=fact_keys.known)
        assert any(words in e for e in errs), (agg, errs)


def test_node_sets_expand_and_fold():
    assert expand("node[001-003]") == ["node001", "node002", "node003"]
    assert expand("n[1,3,5-6],login1") == ["n1", "n3", "n5", "n6", "login1"]
    assert expand("r[1-2]n[1-2]") == ["r1n1", "r1n2", "r2n1", "r2n2"]
    assert fold(["node001", "node002", "node003", "node007", "login1"]) == "login1,node[001-003,007]"
    assert fold(expand("node[001-064]")) == "node[001-064]"
    assert fold(["node099", "node100"]) == "node[099-100]" and fold(["n9", "n10", "n11"]) == "n[9-11]"
    for bad in ("node[1-", "node[3-1]", "node[a-b]", "n[1-999999]", "bad/name"):
        with pytest.raises(NodeSetError):
            expand(bad)
