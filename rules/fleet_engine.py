"""Evaluate fleet rules over the FactSets of many nodes: one FleetResult per rule.

Each rule is evaluated per **scope**: the groups of ``--group-by`` (``scope = "group"``, by hardware family
by default, so an A2 and an A3 pool never drift against each other), the whole fleet (``"fleet"``), or each
SuperPoD (``"superpod"``: ``label.superpod``, else the ``super_pod_id`` the NPUs report). In a scope:

- ``applies_when`` picks the nodes compared (false: out of scope; unknown: the node lacks data);
- the ``aggregate`` compares them (``kb/language/conditions/fleet.py``);
- the status is FAIL / WARN (by severity) when something differs or a split has no majority, ERROR when a
  node in scope has no data (a node without data is never a pass), SKIP when nothing could be compared
  (no node in scope, or fewer than two for a comparison), PASS otherwise.

The rule's status is the worst of its scopes (FAIL, ERROR, WARN, PASS, SKIP).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ascend_doctor.kb.language.conditions import Context, evaluate
from ascend_doctor.kb.language.conditions.fleet import COMPARING, FleetContext, Verdict, aggregate, natural
from ascend_doctor.kb.language.facts import FactSet, show

from .engine import ERROR, FAIL, PASS, SKIP, WARN
from .fleet_catalog import PLACEHOLDER_RE, FleetRule
from .nodeset import fold

WORST = (FAIL, ERROR, WARN, PASS, SKIP)
DEFAULT_GROUP_BY = ("hardware.family",)
UNKNOWN_GROUP = "(unknown)"

ERROR_TEXT = {"en": "Could not compare {n} node(s): {reasons}", "zh": "{n} 个节点无法比较：{reasons}"}
PASS_TEXT = {"uniform": {"en": "Identical on {n} node(s): {reference}", "zh": "{n} 个节点一致：{reference}"},
             "unique": {"en": "No value repeats across {n} node(s)", "zh": "{n} 个节点之间没有重复值"},
             "other": {"en": "Nothing found on {n} node(s){notes}", "zh": "{n} 个节点未发现问题{notes}"}}
NODES_TEXT = {"en": "no node in scope", "zh": "没有适用的节点"}


@dataclass
class ScopeResult:
    key: dict[str, str]                      # {"hardware.family": "a2"} or {"superpod": "sp1"} or {}
    nodes: list[str]                         # members of the scope
    status: str
    in_scope: list[str] = field(default_factory=list)
    out_of_scope: list[str] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    missing: list[dict[str, str]] = field(default_factory=list)   # applies_when unknown + the verdicts' own

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.key.items()) or "all nodes"

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "status": self.status, "nodes": fold(self.nodes), "count": len(self.nodes),
                "in_scope": len(self.in_scope), "out_of_scope": len(self.out_of_scope),
                "missing": self.missing, "subjects": [v.to_dict() for v in self.verdicts]}


@dataclass
class FleetResult:
    rule: str
    slug: str
    group: str
    status: str
    severity: str
    title: dict[str, str]
    message: dict[str, str]
    fix: dict[str, str]
    problem: str
    sources: list[str]
    facts_used: list[str]
    scopes: list[ScopeResult] = field(default_factory=list)
    duration_ms: float = 0.0

    def text(self, key: str, lang: str) -> str:
        texts = getattr(self, key)
        return (texts.get(lang) or texts.get("en", "")) if texts else ""

    @property
    def outliers(self) -> list[str]:
        names = {o["node"] for s in self.scopes for v in s.verdicts for o in v.outliers}
        return sorted(names, key=natural)

    @property
    def missing(self) -> list[str]:
        return sorted({m["node"] for s in self.scopes for m in s.missing}, key=natural)

    @property
    def split(self) -> bool:
        return any(v.split for s in self.scopes for v in s.verdicts)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"rule": self.rule, "slug": self.slug, "group": self.group, "status": self.status,
                "severity": self.severity, "title": self.text("title", lang), "message": self.text("message", lang),
                "fix": self.text("fix", lang) or None, "problem": self.problem, "outliers": self.outliers,
                "missing": self.missing, "split": self.split, "scopes": [s.to_dict() for s in self.scopes],
                "facts": self.facts_used, "sources": self.sources, "duration_ms": round(self.duration_ms, 3)}


def worst(statuses: Iterable[str]) -> str:
    s = set(statuses)
    return next((x for x in WORST if x in s), SKIP)


# -- grouping ------------------------------------------------------------------------------------------
def group_value(facts: FactSet, labels: Mapping[str, str], key: str) -> str | None:
    if key.startswith("label."):
        return labels.get(key[len("label."):])
    v = facts.value(key)
    return None if v in (None, "", [], {}) else show(v, 60)


def group_nodes(members: Mapping[str, FactSet], by: Iterable[str], labels: Mapping[str, Mapping[str, str]]
                ) -> dict[tuple, list[str]]:
    """Nodes by the values of ``by`` (fact keys or ``label.<name>``). A node whose value is unknown (its facts
    could not be read) joins the largest group, where it is compared and reported as lacking data."""
    by = list(by)
    groups: dict[tuple, list[str]] = {}
    unknown: list[str] = []
    for name in sorted(members, key=natural):
        vals = tuple(group_value(members[name], labels.get(name, {}), k) for k in by)
        if by and vals[0] is None:
            unknown.append(name)
            continue
        groups.setdefault(tuple((k, v if v is not None else UNKNOWN_GROUP) for k, v in zip(by, vals)), []).append(name)
    if unknown:
        if groups:
            largest = max(groups, key=lambda g: len(groups[g]))
            groups[largest] = sorted(groups[largest] + unknown, key=natural)
        else:
            groups[tuple((k, UNKNOWN_GROUP) for k in by)] = unknown
    return groups


def superpod_of(facts: FactSet, labels: Mapping[str, str]) -> str | None:
    if labels.get("superpod"):
        return str(labels["superpod"])
    spod = facts.value("npu.spod") or []
    ids = {s.get("super_pod_id") for s in spod if s.get("super_pod_id") is not None}
    return str(next(iter(ids))) if len(ids) == 1 else None


def _scopes(rule: FleetRule, members: Mapping[str, FactSet], groups: Mapping[tuple, list[str]],
            labels: Mapping[str, Mapping[str, str]]) -> list[tuple[dict[str, str], list[str]]]:
    if rule.scope == "fleet":
        return [({}, sorted(members, key=natural))]
    if rule.scope == "superpod":
        pods: dict[str, list[str]] = {}
        for name in sorted(members, key=natural):
            pod = superpod_of(members[name], labels.get(name, {}))
            if pod is not None:
                pods.setdefault(pod, []).append(name)
        return [({"superpod": pod}, names) for pod, names in sorted(pods.items(), key=lambda kv: natural(kv[0]))]
    return [(dict(key), names) for key, names in groups.items()]


# -- evaluation ----------------------------------------------------------------------------------------
def evaluate_fleet_rule(rule: FleetRule, members: Mapping[str, FactSet], groups: Mapping[tuple, list[str]],
                        fctx: FleetContext, labels: Mapping[str, Mapping[str, str]] | None = None) -> FleetResult:
    t0 = time.perf_counter()
    labels = labels or {}
    scopes: list[ScopeResult] = []
    for key, names in _scopes(rule, members, groups, labels):
        sr = ScopeResult(key=key, nodes=names, status=SKIP)
        for name in names:
            if rule.applies_when is None:
                sr.in_scope.append(name)
                continue
            out = evaluate(rule.applies_when, Context(members[name]))
            if out.unknown:
                sr.missing.append({"node": name, "reason": "; ".join(dict.fromkeys(out.reasons)) or "no data"})
            elif out.value:
                sr.in_scope.append(name)
            else:
                sr.out_of_scope.append(name)
        if sr.in_scope or rule.aggregate["op"] == "coverage":
            sr.verdicts = aggregate([(n, members[n]) for n in sr.in_scope], rule.aggregate, fctx)
        sr.missing += [m for v in sr.verdicts for m in v.missing]
        sr.status = _status(rule, sr, fctx)
        scopes.append(sr)
    if not scopes:
        scopes.append(ScopeResult(key={}, nodes=[], status=SKIP))
    status = worst(s.status for s in scopes)
    result = FleetResult(rule=rule.id, slug=rule.slug, group=rule.group, status=status,
                         severity=rule.severity if status in (FAIL, WARN) else ("warning" if status == ERROR else "info"),
                         title=rule.title, message={}, fix={}, problem=rule.problem, sources=rule.sources,
                         facts_used=rule.facts_used(), scopes=scopes)
    result.message, result.fix = _texts(rule, result)
    result.duration_ms = (time.perf_counter() - t0) * 1000
    return result


def _status(rule: FleetRule, sr: ScopeResult, fctx: FleetContext) -> str:
    if any(v.drift for v in sr.verdicts):
        return rule.status_on_match
    baseline = any((v.reference or {}).get("from") == "baseline" for v in sr.verdicts)
    if rule.aggregate["op"] in COMPARING and not baseline and len(set(sr.in_scope) | {m["node"] for m in sr.missing}) < 2:
        return SKIP
    if sr.missing:
        return ERROR
    if not sr.verdicts or all(v.skip for v in sr.verdicts):
        return SKIP
    return PASS


def _cohort_words(v: Verdict) -> str:
    if v.cohorts:
        parts = []
        ref = (v.reference or {}).get("value")
        split_nodes = {n for c in v.cohorts for n in c["nodes"] if sum(n in d["nodes"] for d in v.cohorts) > 1}
        for c in v.cohorts:
            if c.get("holders"):
                who = ", ".join(c["holders"][:6]) + (f" +{len(c['holders']) - 6}" if len(c["holders"]) > 6 else "")
            elif c.get("parts") and c["value"] != ref and set(c["nodes"]) & split_nodes and len(c["nodes"]) <= 8:
                who = ", ".join(f"{n} {c['parts'][n]}" if n in c["parts"] and n in split_nodes else n for n in c["nodes"])
            else:
                who = fold(c["nodes"])
            parts.append(f"{c['value']} on {who} ({c['units']})")
        more = f"; +{len(parts) - 4} more value(s)" if len(parts) > 4 else ""
        return f"{v.subject}: " + "; ".join(parts[:4]) + more
    return f"{v.subject}: " + "; ".join(f"{o['node']} {o['value']}" for o in v.outliers[:8])


def _texts(rule: FleetRule, r: FleetResult) -> tuple[dict[str, str], dict[str, str]]:
    drifting = [v for s in r.scopes for v in s.verdicts if v.drift]
    outliers = fold(r.outliers) if r.outliers else "-"
    if r.status in (FAIL, WARN):
        details = [f"{o['node']}: {o['value']}" + (f" ({o['detail']})" if o.get("detail") else "")
                   for v in drifting for o in v.outliers]
        refs = [v.reference for v in drifting if v.reference]
        values = {"cohorts": " | ".join(_cohort_words(v) for v in drifting), "outliers": outliers if not
                  (r.split and not r.outliers) else "every node of the smaller cohorts",
                  "reference": show(refs[0]["value"]) if refs else "none (split)",
                  "subject": ", ".join(dict.fromkeys(v.subject for v in drifting)),
                  "detail": "; ".join(details[:12]) + (f"; +{len(details) - 12} more" if len(details) > 12 else "")}
        fill = lambda t: PLACEHOLDER_RE.sub(lambda m: values.get(m.group(1), m.group(0)), t)  # noqa: E731
        return {k: fill(t) for k, t in rule.message.items()}, {k: fill(t) for k, t in rule.fix.items()}
    if r.status == ERROR:
        miss = [m for s in r.scopes for m in s.missing]
        reasons = "; ".join(f"{m['node']}: {m['reason']}" for m in miss[:6]) + (f"; +{len(miss) - 6} more" if len(miss) > 6 else "")
        return {k: t.format(n=len({m['node'] for m in miss}), reasons=reasons) for k, t in ERROR_TEXT.items()}, {}
    if r.status == SKIP:
        why = "; ".join(dict.fromkeys(v.skip for s in r.scopes for v in s.verdicts if v.skip))
        if any(s.in_scope for s in r.scopes) and not why:
            why = "fewer than two nodes to compare"
        base = dict(rule.skip)
        return ({k: (f"{t} ({why})" if why else t) for k, t in base.items()} if base else
                {k: why or t for k, t in NODES_TEXT.items()}), {}
    refs = [v.reference for s in r.scopes for v in s.verdicts if v.reference]
    n = sum(len(s.in_scope) for s in r.scopes)
    if rule.ok:
        values = {"reference": ", ".join(dict.fromkeys(show(x["value"]) for x in refs)) or "-", "outliers": "-",
                  "cohorts": "-", "subject": "", "detail": ""}
        return {k: PLACEHOLDER_RE.sub(lambda m: values.get(m.group(1), m.group(0)), t) for k, t in rule.ok.items()}, {}
    ref = ", ".join(dict.fromkeys(show(x["value"], 60) for x in refs)) or "-"
    notes = "; ".join(dict.fromkeys(n for s in r.scopes for v in s.verdicts for n in v.notes))
    texts = PASS_TEXT.get(rule.aggregate["op"], PASS_TEXT["other"])
    return {k: t.format(n=n, reference=ref, notes=f" ({notes})" if notes else "") for k, t in texts.items()}, {}


def run_fleet_rules(rules: Iterable[FleetRule], members: Mapping[str, FactSet], fctx: FleetContext,
                    group_by: Iterable[str] = DEFAULT_GROUP_BY,
                    labels: Mapping[str, Mapping[str, str]] | None = None) -> list[FleetResult]:
    labels = labels or {}
    groups = group_nodes(members, group_by, labels)
    return [evaluate_fleet_rule(r, members, groups, fctx, labels) for r in rules]
