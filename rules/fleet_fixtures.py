"""Fleet rule fixtures: tiny fleets beside each fleet rule with the status (and outliers) it must give.

``rules/fleet/fixtures/<rule id>.toml``::

    [[case]]
    name = "one node kept CANN 8.2.RC1"
    expect = "FAIL"                               # PASS | WARN | FAIL | SKIP | ERROR
    outliers = ["n3"]                             # optional: exactly these nodes are blamed
    contains = "8.2.RC1"                          # optional: text the English message must contain
    expect_nodes = "n[1-4]"                       # optional: --expect-nodes
    unreadable = { n5 = "invalid JSON" }          # optional: nodes whose snapshot could not be read
    baseline = { "cann.version" = "8.3.RC1" }     # optional: --baseline values
    [case.nodes.n1]                               # one table of facts per node
    "cann.version" = "8.3.RC1"
    [case.status.n4]                              # facts present with a non-ok status
    "cann.version" = "timeout"
    [case.labels.n1]                              # optional node labels
    superpod = "sp1"

Every fleet rule needs at least one PASS, one FAIL or WARN and one SKIP or ERROR case.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ascend_doctor.kb.language.conditions.fleet import FleetContext
from ascend_doctor.kb.language.facts import STATUSES, FactSet
from ascend_doctor.kb.toml import tomllib

from .fixtures import fact_set
from .fleet_catalog import FLEET_DIR
from .nodeset import expand

FIXTURES_DIR = FLEET_DIR / "fixtures"
EXPECTS = ("PASS", "WARN", "FAIL", "SKIP", "ERROR")
CASE_KEYS = {"name", "expect", "outliers", "contains", "expect_nodes", "unreadable", "baseline", "nodes", "status",
             "labels", "group_by"}


@dataclass
class FleetCase:
    rule: str
    name: str
    expect: str
    members: dict[str, FactSet]
    context: FleetContext
    labels: dict[str, dict[str, str]]
    group_by: list[str]
    outliers: list[str] | None = None
    contains: str = ""
    file: str = ""
    issues: list[str] = field(default_factory=list)


def load_cases(path: Path) -> list[FleetCase]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    out = []
    for i, raw in enumerate(data.get("case", [])):
        issues = []
        expect = str(raw.get("expect", "")).upper()
        if expect not in EXPECTS:
            issues.append(f"expect must be one of {EXPECTS}")
        if set(raw) - CASE_KEYS:
            issues.append(f"unknown key(s) {sorted(set(raw) - CASE_KEYS)}")
        nodes: dict[str, dict[str, Any]] = raw.get("nodes", {}) or {}
        statuses: dict[str, dict[str, str]] = raw.get("status", {}) or {}
        bad = [s for st in statuses.values() for s in st.values() if s not in STATUSES]
        if bad:
            issues.append(f"unknown status(es) {bad}")
            statuses = {}
        members = {n: fact_set(nodes.get(n, {}), statuses.get(n, {}), origin=f"fixture:{n}")
                   for n in list(nodes) + [n for n in statuses if n not in nodes]}
        unreadable = dict(raw.get("unreadable", {}) or {})
        ctx = FleetContext(baseline=dict(raw.get("baseline", {}) or {}),
                           expected=expand(raw["expect_nodes"]) if raw.get("expect_nodes") else None,
                           received=sorted(set(members) | set(unreadable)), unreadable=unreadable)
        out.append(FleetCase(rule=path.stem, name=str(raw.get("name", f"case {i + 1}")), expect=expect,
                             members=members, context=ctx, labels=dict(raw.get("labels", {}) or {}),
                             group_by=list(raw.get("group_by", ["hardware.family"])),
                             outliers=raw.get("outliers"), contains=str(raw.get("contains", "")), file=path.name,
                             issues=issues))
    return out


def all_cases(directory: Path = FIXTURES_DIR) -> list[FleetCase]:
    out: list[FleetCase] = []
    for p in sorted(directory.glob("*.toml")):
        out += load_cases(p)
    return out
