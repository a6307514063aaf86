"""The rule catalogue: rules are data in ``rules/builtin/*.toml`` (one ``[[rule]]`` table each).

A rule::

    [[rule]]
    id = "AD-CONT-001"                         # AD-<AREA>-NNN, stable
    slug = "container.devmm-svm-missing"       # readable, stable
    group = "container"                        # groups.toml: driver, cann, python, container, devices, network
    severity = "error"                         # critical | error -> FAIL, warning -> WARN
    problem = "container-device-nodes-missing" # KB problem that holds the cause, the fixes and the sources
    title.en = "..."  title.zh = "..."
    applies_when = { fact = "container.kind", op = "not_in", value = ["none"] }
    skip.en = "not in a container"  skip.zh = "..."           # why it was skipped
    condition = { fact = "dev.nodes", op = "not_contains", value = "devmm_svm" }   # true = a finding
    message.en = "... {dev.nodes} ..."         # {fact.key} is replaced by the fact value, {why} by the evidence
    fix.en = "one line"  fix.zh = "..."       # optional: without it, the problem's first fix is shown
    ok.en = "..."                              # optional: line shown on PASS (may use {fact.key})
    warn_when = { ... }                        # optional: when ``condition`` is false, WARN if this holds
    warn_message.en = "..."                    # optional message for that WARN (default: message)

Fixtures live in ``rules/builtin/fixtures/<rule id>.toml`` (see fixtures.py).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from ascend_doctor.kb.language import conditions, fact_keys

from ascend_doctor.kb.toml import tomllib

BUILTIN_DIR = Path(__file__).with_name("builtin")
GROUPS_FILE = BUILTIN_DIR / "groups.toml"

ID_RE = re.compile(r"^AD-[A-Z]+-\d{3}$")
SLUG_RE = re.compile(r"^[a-z0-9]+(?:\.[a-z0-9][a-z0-9-]*)+$")
PLACEHOLDER_RE = re.compile(r"\{([A-Za-z0-9_.\-]+)\}")
SEVERITIES = ("critical", "error", "warning")
LANGS = ("en", "zh")
RULE_KEYS = {"id", "slug", "group", "severity", "problem", "title", "applies_when", "skip", "condition",
             "message", "fix", "ok", "warn_when", "warn_message"}
REQUIRED = ("id", "slug", "group", "severity", "problem", "title", "applies_when", "skip", "condition",
            "message")
#: a rule without ``fix`` shows its problem's first fix (see ``with_problem_fixes``): write one only when the
#: rule can say something more precise than the problem (a value from the facts, the exact option)


class RuleError(ValueError):
    """Rule files that do not follow the format; ``issues`` lists every problem as 'file: message'."""

    def __init__(self, issues: list[str]):
        self.issues = issues
        super().__init__(f"{len(issues)} problem(s) in the rule files, first: {issues[0]}")


@dataclass(frozen=True)
class Group:
    id: str
    title: dict[str, str]
    order: int
    # one command that fixes the whole group when several of its rules fail together (e.g. the full
    # 'docker run' line for a container started without the devices and driver mounts), and its source
    fix_all: dict[str, str] = field(default_factory=dict)
    fix_all_command: str = ""
    fix_all_source: str = ""


@dataclass
class Rule:
    id: str
    slug: str
    group: str
    severity: str
    problem: str
    title: dict[str, str]
    applies_when: dict[str, Any]
    skip: dict[str, str]
    condition: dict[str, Any]
    message: dict[str, str]
    fix: dict[str, str] = field(default_factory=dict)     # empty: the problem's first fix (with_problem_fixes)
    ok: dict[str, str] = field(default_factory=dict)
    warn_when: dict[str, Any] | None = None
    warn_message: dict[str, str] = field(default_factory=dict)
    file: str = ""

    @property
    def status_on_match(self) -> str:
        return "WARN" if self.severity == "warning" else "FAIL"

    def facts_used(self) -> list[str]:
        """Fact keys the rule reads: in its conditions, then in its texts ({fact.key})."""
        keys: list[str] = []
        for cond in (self.applies_when, self.condition, self.warn_when):
            for k in conditions.facts_used(cond or {}):
                if k not in keys:
                    keys.append(k)
        for texts in (self.message, self.ok, self.warn_message, self.fix):
            for k in PLACEHOLDER_RE.findall(texts.get("en", "")):
                if k != "why" and k not in keys:
                    keys.append(k)
        return keys

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id, "slug": self.slug, "group": self.group, "severity": self.severity,
            "problem": self.problem, "title": self.title, "applies_when": self.applies_when, "skip": self.skip,
            "condition": self.condition, "message": self.message, "fix": self.fix,
            "facts": self.facts_used(),
        }
        if self.ok:
            d["ok"] = self.ok
        if self.warn_when:
            d["warn_when"] = self.warn_when
            d["warn_message"] = self.warn_message or self.message
        return d


def _load_toml(path: Path) -> dict[str, Any]:
    with open(path, "rb") as fh:
        return tomllib.load(fh)


@lru_cache(maxsize=1)
def load_groups() -> tuple[Group, ...]:
    data = _load_toml(GROUPS_FILE)
    return tuple(sorted((Group(g["id"], dict(g["title"]), int(g["order"]), dict(g.get("fix_all", {})),
                               str(g.get("fix_all_command", "")), str(g.get("fix_all_source", "")))
                         for g in data.get("group", [])),
                        key=lambda g: g.order))


def group_titles() -> dict[str, dict[str, str]]:
    return {g.id: g.title for g in load_groups()}


def rule_files(directory: Path = BUILTIN_DIR) -> list[Path]:
    return sorted(p for p in directory.glob("*.toml") if p.name != GROUPS_FILE.name)


def _texts(raw: dict, key: str, where: str, issues: list[str], required: bool = True) -> dict[str, str]:
    val = raw.get(key)
    if val is None:
        if required:
            issues.append(f"{where}: '{key}' is required (with en and zh)")
        return {}
    if not isinstance(val, dict) or any(not isinstance(val.get(lang), str) or not val[lang].strip() for lang in LANGS):
        issues.append(f"{where}: '{key}' needs non-empty 'en' and 'zh'")
        return {}
    extra = set(val) - set(LANGS)
    if extra:
        issues.append(f"{where}: '{key}' has unknown language(s) {sorted(extra)}")
    return {lang: " ".join(val[lang].split()) for lang in LANGS}


def parse_rules(data: dict[str, Any], file: str, groups: Iterable[str]) -> tuple[list[Rule], list[str]]:
    """Rules of one file and the problems found in it."""
    issues: list[str] = []
    rules: list[Rule] = []
    unknown_top = set(data) - {"rule"}
    if unknown_top:
        issues.append(f"{file}: unknown top-level key(s) {sorted(unknown_top)} (rules are [[rule]] tables)")
    groups = set(groups)
    for i, raw in enumerate(data.get("rule", [])):
        rid = raw.get("id") if isinstance(raw, dict) else None
        where = f"{file}: rule {rid or i + 1}"
        if not isinstance(raw, dict):
            issues.append(f"{where}: must be a table")
            continue
        n0 = len(issues)
        extra = set(raw) - RULE_KEYS
        if "sources" in extra:
            issues.append(f"{where}: a rule takes its sources from its problem; cite them there, not in the rule")
            extra.discard("sources")
        if extra:
            issues.append(f"{where}: unknown key(s) {sorted(extra)}")
        for k in REQUIRED:
            if k not in raw:
                issues.append(f"{where}: '{k}' is required")
        if isinstance(rid, str) and not ID_RE.match(rid):
            issues.append(f"{where}: id must look like AD-CONT-001")
        slug = raw.get("slug")
        if "slug" in raw and (not isinstance(slug, str) or not SLUG_RE.match(slug)):
            issues.append(f"{where}: slug must look like container.devmm-svm-missing")
        if "group" in raw and raw["group"] not in groups:
            issues.append(f"{where}: group {raw['group']!r} not in groups.toml {sorted(groups)}")
        if "severity" in raw and raw["severity"] not in SEVERITIES:
            issues.append(f"{where}: severity must be one of {SEVERITIES}")
        if "problem" in raw and (not isinstance(raw["problem"], str) or not raw["problem"]):
            issues.append(f"{where}: 'problem' must be a KB problem id")
        texts = {k: _texts(raw, k, where, issues, required=k in REQUIRED)
                 for k in ("title", "skip", "message", "fix", "ok", "warn_message")}
        for k in ("applies_when", "condition", "warn_when"):
            if k in raw:
                issues += conditions.validate(raw[k], f"{where}: {k}", known_fact=fact_keys.known)
        for k in ("message", "fix", "ok", "warn_message"):
            phs = {lang: sorted(set(PLACEHOLDER_RE.findall(text))) for lang, text in texts[k].items()}
            if len(set(map(tuple, phs.values()))) > 1:
                issues.append(f"{where}: {k}.en and {k}.zh use different placeholders {phs}")
        if "warn_message" in raw and "warn_when" not in raw:
            issues.append(f"{where}: 'warn_message' without 'warn_when'")
        if len(issues) > n0:
            continue
        rules.append(Rule(
            id=rid, slug=slug, group=raw["group"], severity=raw["severity"], problem=raw["problem"],
            title=texts["title"], applies_when=raw["applies_when"], skip=texts["skip"], condition=raw["condition"],
            message=texts["message"], fix=texts["fix"], ok=texts["ok"], warn_when=raw.get("warn_when"),
            warn_message=texts["warn_message"], file=file,
        ))
    return rules, issues


def check_rules(directory: Path = BUILTIN_DIR) -> tuple[list[Rule], list[str]]:
    """All rules of a directory and every problem (unique ids and slugs included)."""
    return read_catalogue(rule_files(directory), parse_rules, [g.id for g in load_groups()])


def read_catalogue(paths, parse, gids: list[str]) -> tuple[list, list[str]]:
    """Rules of ``paths`` read by ``parse(data, file name, group ids)`` (node rules or fleet rules, each
    with their own groups), with every problem of the files and ids or slugs used twice, in group then
    id order."""
    rules: list = []
    issues: list[str] = []
    for path in paths:
        try:
            data = _load_toml(path)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            issues.append(f"{path.name}: {exc}")
            continue
        got, errs = parse(data, path.name, gids)
        rules += got
        issues += errs
    seen: dict[str, str] = {}
    for r in rules:
        for k in (r.id.upper(), r.slug):
            if k in seen:
                issues.append(f"{r.file}: rule {r.id}: {k} already used in {seen[k]}")
            seen[k] = r.file
    order = {g: i for i, g in enumerate(gids)}
    rules.sort(key=lambda r: (order.get(r.group, 99), r.id))
    return rules, issues


@lru_cache(maxsize=1)
def _builtin() -> tuple[Rule, ...]:
    rules, issues = check_rules(BUILTIN_DIR)
    if issues:
        raise RuleError(issues)
    return tuple(rules)


def load_rules() -> list[Rule]:
    """The built-in rules, in group order then id order. Raises RuleError when a rule file is invalid."""
    return list(_builtin())


def find_rule(id_or_slug: str) -> Rule | None:
    """The rule with this id (case-insensitive) or slug."""
    want = (id_or_slug or "").strip()
    for r in _builtin():
        if r.id.upper() == want.upper() or r.slug == want.lower():
            return r
    return None


def select_rules(rules: list[Rule], only: Iterable[str] = (), skip: Iterable[str] = ()) -> list[Rule]:
    """Rules named by ``only`` (ids, slugs or group ids; empty = all) minus those named by ``skip``.

    Raises ValueError naming the first word that is neither a rule nor a group.
    """
    gids = {g.id for g in load_groups()}

    def matches(r: Rule, word: str) -> bool:
        w = word.strip()
        return r.id.upper() == w.upper() or r.slug == w.lower() or r.group == w.lower()

    for word in list(only) + list(skip):
        if word.strip().lower() not in gids and not any(matches(r, word) for r in rules):
            raise ValueError(f"unknown rule or group '{word}' (groups: {', '.join(sorted(gids))})")
    only = [w for w in only if w.strip()]
    chosen = [r for r in rules if not only or any(matches(r, w) for w in only)]
    return [r for r in chosen if not any(matches(r, w) for w in skip)]


def with_problem_fixes(rules: list[Rule], fix_of) -> list[Rule]:
    """``rules`` with each rule that has no ``fix`` of its own given its problem's first fix: ``fix_of(problem
    id)`` -> {"en": ..., "zh": ...} or None (then the text points to ``explain``)."""
    from dataclasses import replace

    out = []
    for r in rules:
        if not r.fix:
            fix = fix_of(r.problem) if fix_of else None
            r = replace(r, fix=dict(fix) if fix else {
                "en": f"See the fixes of {r.problem}: ascend-doctor explain {r.problem}",
                "zh": f"解决方法见已知问题 {r.problem}：ascend-doctor explain {r.problem}"})
        out.append(r)
    return out
