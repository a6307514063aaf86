"""Every built-in rule against its fixtures (rules/builtin/fixtures/<rule id>.toml)."""
from __future__ import annotations

import pytest

from ascend_doctor.rules.catalog import load_rules
from ascend_doctor.rules.engine import evaluate_rule
from ascend_doctor.rules.fixtures import all_cases

CASES = all_cases()
RULES = {r.id: r for r in load_rules()}


@pytest.fixture(scope="module")
def compat():
    from ascend_doctor.kb.query import KnowledgeBase

    kb = KnowledgeBase()
    memo: dict[str, list] = {}

    def get(name: str) -> list:
        if name not in memo:
            memo[name] = kb.compat(name)
        return memo[name]

    yield get
    kb.close()


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule}:{c.name}" for c in CASES])
def test_fixture(case, compat):
    assert not case.issues, f"{case.file}: {case.issues}"
    assert case.rule in RULES, f"fixture {case.file} names no rule"
    rule = RULES[case.rule]
    res = evaluate_rule(rule, case.facts, compat)
    detail = f"{res.status}: {res.message.get('en')} | evidence {res.evidence} | reasons {res.reasons}"
    assert res.status == case.expect, detail
    if case.contains:
        assert case.contains in res.message["en"], detail
    if res.status in ("WARN", "FAIL"):          # a rule's own fix, or its problem's (with_problem_fixes)
        assert (res.fix.get("en") and res.fix.get("zh")) or not rule.fix
    if res.status == "ERROR":
        assert res.reasons, "an ERROR must say which fact and why"


def test_every_rule_has_pass_finding_and_skip_fixtures():
    by_rule: dict[str, set[str]] = {}
    for c in CASES:
        by_rule.setdefault(c.rule, set()).add(c.expect)
    missing = []
    for rid in RULES:
        got = by_rule.get(rid, set())
        if "PASS" not in got or not ({"WARN", "FAIL"} & got) or "SKIP" not in got:
            missing.append(f"{rid}: has {sorted(got)}")
    assert not missing, "rules without pass / finding / skip fixtures:\n" + "\n".join(missing)
