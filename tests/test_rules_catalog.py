"""The rule catalogue: complete, unique, linked to the KB; KB conditions and ranges use our grammar."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ascend_doctor.rules import catalog
from ascend_doctor.rules.catalog import RuleError, find_rule, load_groups, load_rules, parse_rules, select_rules
from ascend_doctor.kb.language.conditions import validate
from ascend_doctor.kb.language.version import parse_spec
from ascend_doctor.kb.loader import VERSION_COMPONENTS

ROOT = Path(__file__).resolve().parents[1]
FACTS_DOC = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def kb():
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as k:
        yield k


def test_at_least_30_rules_and_every_group_used():
    rules = load_rules()
    assert len(rules) >= 30
    groups = {g.id for g in load_groups()}
    assert {r.group for r in rules} == groups


def test_ids_and_slugs_unique_and_well_formed():
    rules, issues = catalog.check_rules()
    assert not issues, issues
    ids = [r.id for r in rules]
    slugs = [r.slug for r in rules]
    assert len(set(ids)) == len(ids) and len(set(slugs)) == len(slugs)
    for r in rules:
        assert re.fullmatch(r"AD-[A-Z]+-\d{3}", r.id)
        assert r.slug.split(".")[0] == r.group


def test_fields_complete_in_both_languages():
    for r in load_rules():
        for texts in (r.title, r.skip, r.message) + ((r.fix,) if r.fix else ()):
            assert texts["en"].strip() and texts["zh"].strip(), r.id
        assert r.severity in ("critical", "error", "warning")


def test_every_rule_links_to_an_existing_problem(kb):
    known = set(kb.problem_ids())
    missing = [f"{r.id} -> {r.problem}" for r in load_rules() if r.problem not in known]
    assert not missing, "rules linked to problems the KB does not have: " + ", ".join(missing)


def test_fact_keys_are_documented():
    documented = set(re.findall(r"`([a-z_]+(?:\.[A-Za-z_<>]+)+)`", FACTS_DOC))
    prefixes = ("env.", "pkg.")
    for r in load_rules():
        for key in r.facts_used():
            assert key in documented or key.startswith(prefixes), f"{r.id}: fact {key} not in docs/facts.md"


def test_every_matrix_a_rule_reads_exists(kb):
    names = set()

    def walk(c):
        if isinstance(c, dict):
            if "matrix" in c:
                names.add(c["matrix"])
            for v in c.values():
                walk(v)
        elif isinstance(c, list):
            for v in c:
                walk(v)

    for r in load_rules():
        walk([r.applies_when, r.condition, r.warn_when])
    for n in names:
        assert kb.compat(n), f"matrix {n} has no rows"


def test_find_rule_by_id_or_slug():
    assert find_rule("AD-CONT-001").slug == "container.devmm-svm-missing"
    assert find_rule("ad-cont-001").id == "AD-CONT-001"
    assert find_rule("container.devmm-svm-missing").id == "AD-CONT-001"
    assert find_rule("AD-NOPE-999") is None
    d = find_rule("AD-DRV-007").to_dict()
    assert d["problem"] == "weight-load-hang-kernel-hdk" and "kernel.release" in d["facts"]


def test_select_rules():
    rules = load_rules()
    only = select_rules(rules, only=["container", "AD-DRV-004"])
    assert {r.group for r in only} == {"container", "driver"}
    assert [r.id for r in only if r.group == "driver"] == ["AD-DRV-004"]
    rest = select_rules(rules, skip=["network", "devices.health"])
    assert all(r.group != "network" and r.slug != "devices.health" for r in rest)
    with pytest.raises(ValueError):
        select_rules(rules, only=["nonsense"])


def test_parse_rules_reports_bad_rules():
    bad = {"rule": [{"id": "X-1", "slug": "Bad Slug", "group": "nope", "severity": "fatal", "problem": "p",
                     "title": {"en": "t"}, "applies_when": {"fact": "a", "op": "eval", "value": 1},
                     "skip": {"en": "s", "zh": "s"}, "condition": {"fact": "a", "op": "exists"},
                     "message": {"en": "m {a}", "zh": "m"}, "fix": {"en": "f", "zh": "f"}, "python": "os.system('x')"}]}
    rules, issues = parse_rules(bad, "bad.toml", ["driver"])
    assert not rules
    text = "\n".join(issues)
    for needle in ("unknown key", "id must", "slug must", "group 'nope'", "severity", "'title' needs", "unknown op",
                   "different placeholders"):
        assert needle in text, needle
    assert isinstance(RuleError(issues), ValueError)


def test_kb_conditions_and_version_ranges_parse(kb):
    problems = kb.problems()
    assert problems
    for p in problems:
        for name in ("confirm_when", "rule_out_when"):
            cond = getattr(p, name)
            if cond:
                assert not validate(cond, f"{p.id}.{name}"), (p.id, name, validate(cond))
        for comp, rng in (p.versions or {}).items():
            parse_spec(rng, VERSION_COMPONENTS[comp])


#: the component of a problem's ``versions`` that states the same thing as a fact key
_COMPONENT_OF_FACT = {"driver.version": "driver", "firmware.version": "firmware", "cann.version": "cann",
                      "kernel.release": "kernel", "python.version": "python", "mindie.version": "mindie",
                      "pkg.torch": "torch", "pkg.torch_npu": "torch_npu", "pkg.torch-npu": "torch_npu",
                      "pkg.vllm": "vllm", "pkg.vllm_ascend": "vllm_ascend", "pkg.vllm-ascend": "vllm_ascend"}


def _version_literals(cond, out):
    """fact key -> the version literals a condition compares it with."""
    if isinstance(cond, dict):
        if str(cond.get("op", "")).startswith("version_") and "value" in cond and "fact" in cond:
            values = cond["value"] if isinstance(cond["value"], list) else [cond["value"]]
            for v in values:
                out.setdefault(cond["fact"], set()).update(re.findall(r"[0-9][0-9A-Za-z.]*[0-9A-Za-z]|[0-9]", str(v)))
        for v in cond.values():
            _version_literals(v, out)
    elif isinstance(cond, list):
        for v in cond:
            _version_literals(v, out)
    return out


def test_a_rule_and_its_problem_state_the_same_version_thresholds(kb):
    """A threshold written in a rule (kernel >= 6.0, HDK 25.5.X) is the one its problem states, so the two
    can never drift apart: every version a rule compares a fact with appears in the problem's
    confirm_when, rule_out_when or versions for that fact, whenever the problem states that fact."""
    drift = []
    for r in load_rules():
        p = kb.problem(r.problem)
        theirs = _version_literals([p.confirm_when, p.rule_out_when], {})
        for comp, rng in (p.versions or {}).items():
            for fact, c in _COMPONENT_OF_FACT.items():
                if c == comp:
                    theirs.setdefault(fact, set()).update(re.findall(r"[0-9][0-9A-Za-z.]*[0-9A-Za-z]|[0-9]", rng))
        ours = _version_literals([r.applies_when, r.condition, r.warn_when], {})
        for fact, values in ours.items():
            if fact in theirs and not values <= theirs[fact]:
                drift.append(f"{r.id} {fact}: rule {sorted(values)} vs problem {r.problem} {sorted(theirs[fact])}")
    assert not drift, "\n".join(drift)


def test_a_rule_takes_its_sources_from_its_problem(cli):
    rules, issues = parse_rules({"rule": [{**_MINIMAL_RULE, "sources": ["https://example.org"]}]}, "x.toml", ["driver"])
    assert not rules and any("takes its sources from its problem" in i for i in issues)
    r = cli("explain", "AD-DRV-007", "--format", "json")
    assert r.code == 0, r.err
    assert "https://github.com/vllm-project/vllm-ascend/issues/6734" in r.out


def test_a_rule_without_a_fix_shows_its_problems_first_fix(kb, cli):
    """A rule writes a fix only when it can say more than its problem; otherwise the check, explain and
    the TUI show the problem's first fix, so the two texts cannot drift apart."""
    rule = find_rule("AD-PY-002")
    assert not rule.fix
    want = kb.problem(rule.problem).fixes[0]["summary"]
    j = cli("explain", "AD-PY-002", "--format", "json")
    assert j.code == 0, j.err
    import json as _json

    assert _json.loads(j.out)["fix"] == want
    zh = cli("explain", "AD-PY-002", "--lang", "zh")
    assert want["zh"] in zh.out
    from ascend_doctor.rules.catalog import with_problem_fixes

    assert with_problem_fixes([rule], None)[0].fix["en"].endswith(f"ascend-doctor explain {rule.problem}")


_MINIMAL_RULE = {"id": "AD-DRV-099", "slug": "driver.x", "group": "driver", "severity": "warning", "problem": "p",
                 "title": {"en": "t", "zh": "t"}, "applies_when": {"fact": "npu.count", "op": "exists"},
                 "skip": {"en": "s", "zh": "s"}, "condition": {"fact": "npu.count", "op": "ge", "value": 1},
                 "message": {"en": "m", "zh": "m"}, "fix": {"en": "f", "zh": "f"}}


def test_compat_matrix_version_cells_parse(kb):
    version_columns = {"hdk-cann": ("cann", "hdk", "hdk_incompatible"), "torch-npu": ("torch_npu", "torch", "cann", "python"),
                       "vllm-ascend": ("vllm_ascend", "vllm", "python", "cann", "torch", "torch_npu"),
                       "mindie-cann": ("mindie", "cann", "hdk"), "mindspore-cann": ("mindspore", "cann", "python")}
    for matrix, cols in version_columns.items():
        for row in kb.compat(matrix):
            for col in cols:
                cell = row.get(col)
                for value in (cell if isinstance(cell, list) else [cell] if cell else []):
                    parse_spec(value)


_SHARED_LITERAL = re.compile(r"\b\d+\.\d+(?:\.(?:RC)?\d+)?(?:\.RC\d+)?\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b"
                             r"|(?<![\w/])/dev/[\w/]+|(?<![\w-])--[a-z][a-z0-9-]+")


def test_a_rules_own_fix_names_only_what_its_problem_names(kb):
    """A rule that writes its own fix line may be more precise than its problem, never different: every
    version, environment variable, device path and command-line option in it appears in the problem's
    summary, root cause or fixes (else the two have drifted)."""
    drift = []
    for r in load_rules():
        if not r.fix:
            continue
        p = kb.problem(r.problem)
        theirs = " ".join([p.summary["en"], p.root_cause["en"]] + [
            f["summary"]["en"] + " " + " ".join(s.get("en", "") + " " + s.get("command", "") for s in f["steps"])
            for f in p.fixes])
        missing = [lit for lit in _SHARED_LITERAL.findall(r.fix["en"]) if lit not in theirs]
        if missing:
            drift.append(f"{r.id} -> {r.problem}: {missing}")
    assert not drift, "\n".join(drift)
