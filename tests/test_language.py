"""The condition language knowledge and rules share: one operator table, one list of fact keys."""
from __future__ import annotations

import re

import pytest

from ascend_doctor.diagnose.probes import collect
from ascend_doctor.diagnose.system import SimulatedSystem, list_profiles
from ascend_doctor.kb.language import fact_keys
from ascend_doctor.kb.language.conditions import OPS, Context, describe, evaluate, validate
from ascend_doctor.kb.language.facts import Fact, FactSet
from ascend_doctor.kb.toml import tomllib

from .conftest import ROOT

FACTS_DOC = (ROOT / "docs" / "facts.md").read_text(encoding="utf-8")


def test_docs_facts_documents_exactly_the_known_fact_keys():
    rows = [line.split("|")[1] for line in FACTS_DOC.splitlines() if line.startswith("| `")]
    documented = {k for cell in rows for k in re.findall(r"`([^`]+)`", cell)}
    known = set(fact_keys.keys()) | {f"{p}<{n}>" for p, n in
                                     (("pkg.", "name"), ("env.", "NAME"), ("probe.", "name"))}
    assert set(fact_keys.prefixes()) == {"pkg.", "env.", "probe."}
    assert documented == known, (sorted(documented - known), sorted(known - documented))
    assert fact_keys.moment() and fact_keys.moment() <= set(fact_keys.keys())


@pytest.mark.parametrize("name", list_profiles())
def test_every_fact_a_probe_produces_is_a_known_key(name):
    system = SimulatedSystem(name)
    facts = collect(system, python=system.profile.python.get("executable"), timeout=2)
    unknown = sorted(f.key for f in facts if not fact_keys.known(f.key))
    assert not unknown, f"profile {name}: facts not in kb/language/fact_keys.toml: {unknown}"


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_operator_example_is_valid_and_says_itself_in_words(name):
    op = OPS[name]
    example = tomllib.loads(f"c = {op.example}")["c"]
    assert example["op"] == name
    if op.kind == "fleet":
        from ascend_doctor.kb.language.conditions.fleet import AGGREGATES, validate_aggregate

        assert validate_aggregate(example, "example", known_fact=fact_keys.known) == [] and name in AGGREGATES
        assert any("compares nodes" in e for e in validate(example, "c", known_fact=fact_keys.known))
    else:
        assert validate(example, "example", known_fact=fact_keys.known) == []
    assert op.words in describe(example)
    assert op.doc and op.kind in ("value", "status", "items", "compat", "fleet")


@pytest.mark.parametrize("cond, message", [
    ({"fact": "npu.count", "op": "lt", "value": "8"}, "op lt needs a number"),
    ({"fact": "hardware.family", "op": "in", "value": "a2"}, "op in needs a list"),
    ({"fact": "npu_smi.path", "op": "exists", "value": True}, "op exists takes no 'value'"),
    ({"fact": "env.X", "op": "is_int", "value": "yes"}, "op is_int needs true or false"),
    ({"fact": "npu_smi.info", "op": "status_in", "value": ["hung"]}, "unknown status(es) ['hung']"),
    ({"fact": "cann.version", "op": "version_in", "value": [">=8.2,<"]}, "operator without a version"),
    ({"fact": "npu.count", "op": "gte", "value": 8}, "unknown op 'gte' (did you mean"),
    ({"fact": "npu.count", "op": "ge", "value": 8, "where": {"field": "x", "op": "exists"}}, "'where' is only for"),
    ({"fact": "npu.count", "op": "ge", "value": 8, "matrix": "hdk-cann"}, "only for the compatibility-matrix operators"),
    ({"fact": "driver.version", "op": "version_ge", "value": "25.5", "family": "hdkk"}, "unknown version family"),
    ({"fact": "npu.cuont", "op": "ge", "value": 8}, "unknown fact key 'npu.cuont'"),
])
def test_a_wrong_predicate_is_refused_with_the_reason(cond, message):
    errors = validate(cond, "c", known_fact=fact_keys.known)
    assert any(message in e for e in errors), errors


def test_prefixed_keys_are_known_and_evaluated():
    assert fact_keys.known("env.HCCL_IF_IP") and fact_keys.known("pkg.torch-npu")
    assert not fact_keys.known("env.") and not fact_keys.known("environment.HCCL_IF_IP")
    facts = FactSet()
    facts.add(Fact("pkg.torch-npu", "2.5.1.post1"))
    out = evaluate({"fact": "pkg.torch-npu", "op": "version_lt", "value": "2.6.0"}, Context(facts))
    assert out.value is True and out.notes == ["pkg.torch-npu = 2.5.1.post1"]


def test_every_fact_read_from_pasted_text_is_a_known_key():
    from ascend_doctor.diagnose.evidence import textfacts

    assert all(fact_keys.known(key) for key, _ in textfacts.PROSE_VERSIONS)
