"""Rule fixtures: fact sets beside each rule with the status the rule must give.

``rules/builtin/fixtures/<rule id>.toml``::

    [[case]]
    name = "kernel 6.6 with HDK 25.2.0"
    expect = "WARN"                                   # PASS | WARN | FAIL | SKIP | ERROR
    facts = { "kernel.release" = "6.6.0-98.oe2403sp1.aarch64", "driver.version" = "25.2.0" }
    status = { "npu_smi.info" = "timeout" }           # facts present with a non-ok status (no value)
    contains = "25.2.0"                               # optional: text the English message must contain

Every rule needs at least one PASS, one FAIL or WARN, and one SKIP case (tests/test_rules_fixtures.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .catalog import BUILTIN_DIR
from ascend_doctor.kb.language.facts import OK, STATUSES, Fact, FactSet

from ascend_doctor.kb.toml import tomllib

FIXTURES_DIR = BUILTIN_DIR / "fixtures"
EXPECTS = ("PASS", "WARN", "FAIL", "SKIP", "ERROR")


@dataclass
class Case:
    rule: str
    name: str
    expect: str
    facts: FactSet
    contains: str = ""
    file: str = ""
    issues: list[str] = field(default_factory=list)


def fact_set(values: dict[str, Any], statuses: dict[str, str] | None = None, origin: str = "fixture") -> FactSet:
    fs = FactSet(origin=origin)
    for k, v in values.items():
        fs.add(Fact(k, v, OK, source="fixture"))
    for k, st in (statuses or {}).items():
        fs.add(Fact(k, None, st, source="fixture", detail=f"{st} in fixture"))
    return fs


def load_cases(path: Path) -> list[Case]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    rule = path.stem
    cases = []
    for i, raw in enumerate(data.get("case", [])):
        issues = []
        expect = str(raw.get("expect", "")).upper()
        if expect not in EXPECTS:
            issues.append(f"expect must be one of {EXPECTS}")
        statuses = raw.get("status", {}) or {}
        bad = [s for s in statuses.values() if s not in STATUSES]
        if bad:
            issues.append(f"unknown status(es) {bad}")
        extra = set(raw) - {"name", "expect", "facts", "status", "contains"}
        if extra:
            issues.append(f"unknown key(s) {sorted(extra)}")
        cases.append(Case(rule=rule, name=str(raw.get("name", f"case {i + 1}")), expect=expect,
                          facts=fact_set(raw.get("facts", {}) or {}, statuses if not bad else {}),
                          contains=str(raw.get("contains", "")), file=path.name, issues=issues))
    return cases


def all_cases(directory: Path = FIXTURES_DIR) -> list[Case]:
    out: list[Case] = []
    for p in sorted(directory.glob("*.toml")):
        out += load_cases(p)
    return out
