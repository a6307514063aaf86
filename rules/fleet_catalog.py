"""The fleet rule catalogue: cross-node rules as data in ``rules/fleet/*.toml``, fixtures beside them.

A fleet rule reads like a node rule (id, slug, group, severity, problem, texts in en and zh, sources) but
instead of a ``condition`` on one machine it has an ``aggregate`` over many (the fleet operators of the
condition language: ``uniform``, ``unique``, ``each``, ``on_root``, ``coverage``, ``subnet_plan``,
``rank_table_matches``; see ``kb/language/conditions/fleet.py``)::

    [[rule]]
    id = "AD-FLEET-004"
    slug = "fleet.cann-uniform"
    group = "fleet-software"                  # rules/fleet/groups.toml
    severity = "error"                        # error -> FAIL, warning -> WARN
    problem = "hccl-version-inconsistent"     # optional: the KB problem holding the cause and the fixes
    scope = "group"                           # group (--group-by, default), fleet (all nodes) or superpod
    title.en = "..."  title.zh = "..."
    applies_when = { fact = "cann.version", op = "exists" }   # optional: which nodes are compared
    skip.en = "..."  skip.zh = "..."          # why the rule did not apply
    aggregate = { op = "uniform", fact = "cann.version" }
    message.en = "CANN differs: {cohorts}."   # {cohorts} {outliers} {reference} {subject} {detail}
    fix.en = "Install the same CANN on {outliers}."
    ok.en = "..."                             # optional, shown on PASS
    sources = ["https://..."]                 # required: the public source of the rule

Fixtures: ``rules/fleet/fixtures/<rule id>.toml`` (see ``fleet_fixtures.py``).
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ascend_doctor.kb.language import conditions, fact_keys
from ascend_doctor.kb.language.conditions.fleet import facts_used as aggregate_facts
from ascend_doctor.kb.language.conditions.fleet import validate_aggregate
from ascend_doctor.kb.toml import tomllib

from .catalog import ID_RE, LANGS, PLACEHOLDER_RE, SEVERITIES, SLUG_RE, Group, RuleError, _texts, read_catalogue

FLEET_DIR = Path(__file__).with_name("fleet")
GROUPS_FILE = FLEET_DIR / "groups.toml"
SCOPES = ("group", "fleet", "superpod")
PLACEHOLDERS = {"cohorts", "outliers", "reference", "subject", "detail"}
RULE_KEYS = {"id", "slug", "group", "severity", "problem", "title", "applies_when", "skip", "aggregate", "scope",
             "message", "fix", "ok", "sources"}
REQUIRED = ("id", "slug", "group", "severity", "title", "skip", "aggregate", "message", "fix", "sources")


class FleetRule:
    """One cross-node rule (see the module docstring)."""

    def __init__(self, **kw: Any) -> None:
        self.id: str = kw["id"]
        self.slug: str = kw["slug"]
        self.group: str = kw["group"]
        self.severity: str = kw["severity"]
        self.problem: str = kw.get("problem") or ""     # a KB problem id, or "" when none holds the cause
        self.title: dict[str, str] = kw["title"]
        self.applies_when: dict[str, Any] | None = kw.get("applies_when")
        self.skip: dict[str, str] = kw["skip"]
        self.aggregate: dict[str, Any] = kw["aggregate"]
        self.scope: str = kw.get("scope") or "group"
        self.message: dict[str, str] = kw["message"]
        self.fix: dict[str, str] = kw["fix"]
        self.ok: dict[str, str] = kw.get("ok") or {}
        self.sources: list[str] = list(kw.get("sources") or [])
        self.file: str = kw.get("file", "")

    @property
    def status_on_match(self) -> str:
        return "WARN" if self.severity == "warning" else "FAIL"

    def facts_used(self) -> list[str]:
        keys = conditions.facts_used(self.applies_when or {})
        return list(dict.fromkeys(keys + aggregate_facts(self.aggregate)))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "slug": self.slug, "group": self.group, "severity": self.severity,
                "problem": self.problem, "title": self.title, "scope": self.scope,
                "applies_when": self.applies_when, "aggregate": self.aggregate, "skip": self.skip,
                "message": self.message, "fix": self.fix, "facts": self.facts_used(), "sources": self.sources}


@lru_cache(maxsize=1)
def load_groups() -> tuple[Group, ...]:
    with open(GROUPS_FILE, "rb") as fh:
        data = tomllib.load(fh)
    return tuple(sorted((Group(g["id"], dict(g["title"]), int(g["order"])) for g in data.get("group", [])),
                        key=lambda g: g.order))


def parse_rules(data: dict[str, Any], file: str, groups: Iterable[str]) -> tuple[list[FleetRule], list[str]]:
    issues: list[str] = []
    rules: list[FleetRule] = []
    if set(data) - {"rule"}:
        issues.append(f"{file}: unknown top-level key(s) {sorted(set(data) - {'rule'})} (rules are [[rule]] tables)")
    groups = set(groups)
    for i, raw in enumerate(data.get("rule", [])):
        rid = raw.get("id") if isinstance(raw, dict) else None
        where = f"{file}: rule {rid or i + 1}"
        if not isinstance(raw, dict):
            issues.append(f"{where}: must be a table")
            continue
        n0 = len(issues)
        if set(raw) - RULE_KEYS:
            issues.append(f"{where}: unknown key(s) {sorted(set(raw) - RULE_KEYS)}")
        issues += [f"{where}: '{k}' is required" for k in REQUIRED if k not in raw]
        if isinstance(rid, str) and not (ID_RE.match(rid) and rid.startswith("AD-FLEET-")):
            issues.append(f"{where}: id must look like AD-FLEET-001")
        if "slug" in raw and (not isinstance(raw["slug"], str) or not SLUG_RE.match(raw["slug"])
                              or not raw["slug"].startswith("fleet.")):
            issues.append(f"{where}: slug must look like fleet.cann-uniform")
        if "group" in raw and raw["group"] not in groups:
            issues.append(f"{where}: group {raw['group']!r} not in fleet/groups.toml {sorted(groups)}")
        if "problem" in raw and not isinstance(raw["problem"], str):
            issues.append(f"{where}: 'problem' must be a KB problem id")
        if "severity" in raw and raw["severity"] not in SEVERITIES:
            issues.append(f"{where}: severity must be one of {SEVERITIES}")
        if "scope" in raw and raw["scope"] not in SCOPES:
            issues.append(f"{where}: scope must be one of {SCOPES}")
        texts = {k: _texts(raw, k, where, issues, required=k in REQUIRED) for k in ("title", "skip", "message", "fix", "ok")}
        if "applies_when" in raw:
            issues += conditions.validate(raw["applies_when"], f"{where}: applies_when", known_fact=fact_keys.known)
        if "aggregate" in raw:
            issues += validate_aggregate(raw["aggregate"], f"{where}: aggregate", known_fact=fact_keys.known)
        for k in ("message", "fix", "ok"):
            for lang, text in texts[k].items():
                bad = set(PLACEHOLDER_RE.findall(text)) - PLACEHOLDERS
                if bad:
                    issues.append(f"{where}: {k}.{lang} uses unknown placeholder(s) {sorted(bad)}; "
                                  f"use {sorted(PLACEHOLDERS)}")
            if len({tuple(sorted(set(PLACEHOLDER_RE.findall(t)))) for t in texts[k].values()}) > 1:
                issues.append(f"{where}: {k}.en and {k}.zh use different placeholders")
        sources = raw.get("sources")
        if "sources" in raw and (not isinstance(sources, list) or not sources
                                 or not all(isinstance(s, str) and s.startswith("https://") for s in sources)):
            issues.append(f"{where}: 'sources' must be a non-empty list of https:// URLs")
        if len(issues) > n0:
            continue
        rules.append(FleetRule(**{**raw, **{k: v for k, v in texts.items() if v or k in REQUIRED}}, file=file))
    return rules, issues


def check_rules(directory: Path = FLEET_DIR) -> tuple[list[FleetRule], list[str]]:
    files = sorted(p for p in directory.glob("*.toml") if p.name != GROUPS_FILE.name)
    return read_catalogue(files, parse_rules, [g.id for g in load_groups()])


@lru_cache(maxsize=1)
def _builtin() -> tuple[FleetRule, ...]:
    rules, issues = check_rules(FLEET_DIR)
    if issues:
        raise RuleError(issues)
    return tuple(rules)


def load_fleet_rules() -> list[FleetRule]:
    """The built-in fleet rules in group then id order. Raises RuleError when a rule file is invalid."""
    return list(_builtin())


def select_fleet_rules(rules: list[FleetRule], only: Iterable[str] = (), skip: Iterable[str] = ()) -> list[FleetRule]:
    """Rules named by ``only`` (ids, slugs or fleet groups; empty = all) minus ``skip``; a word that names
    nothing is a ValueError."""
    gids = {g.id for g in load_groups()}

    def matches(r: FleetRule, w: str) -> bool:
        w = w.strip()
        return r.id.upper() == w.upper() or r.slug == w.lower() or r.group == w.lower()

    for word in list(only) + list(skip):
        if word.strip().lower() not in gids and not any(matches(r, word) for r in rules):
            raise ValueError(f"unknown fleet rule or group '{word}' (groups: {', '.join(sorted(gids))})")
    chosen = [r for r in rules if not only or any(matches(r, w) for w in only)]
    return [r for r in chosen if not any(matches(r, w) for w in skip)]


__all__ = ["FleetRule", "LANGS", "load_fleet_rules", "load_groups", "check_rules", "select_fleet_rules"]
