"""Evaluate rules over a FactSet: one CheckResult per rule (PASS, WARN, FAIL, SKIP, ERROR).

The status never lies:
- ``applies_when`` false -> SKIP with the rule's reason; unknown -> ERROR (we cannot tell whether it applies).
- ``condition`` true -> FAIL (severity critical/error) or WARN (severity warning), with the message.
- ``condition`` false -> ``warn_when`` true gives WARN, otherwise PASS.
- ``condition`` unknown (a fact it needs is missing / timed out / denied / not collected, or a
  matrix has no row for these versions) -> ERROR saying which fact and why. A missing fact is never a PASS.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .catalog import PLACEHOLDER_RE, Rule
from ascend_doctor.kb.language.conditions import Context, Outcome, evaluate
from ascend_doctor.kb.language.facts import FactSet, show

PASS, WARN, FAIL, SKIP, ERROR = "PASS", "WARN", "FAIL", "SKIP", "ERROR"
CHECK_STATUSES = (PASS, WARN, FAIL, SKIP, ERROR)

# how bad a result is, for --fail-on and ordering: FAIL > ERROR = WARN > SKIP = PASS
LEVEL = {FAIL: 2, WARN: 1, ERROR: 1, SKIP: 0, PASS: 0}

ERROR_TEXT = {"en": "Could not check: {reasons}", "zh": "无法检查：{reasons}"}


@dataclass
class CheckResult:
    rule: str
    slug: str
    group: str
    status: str
    severity: str                     # severity of this result: the rule's for FAIL/WARN, "info" otherwise
    title: dict[str, str]
    message: dict[str, str]           # what was found (or why skipped / why it could not be checked)
    fix: dict[str, str]               # empty unless WARN / FAIL
    problem: str
    evidence: list[str] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)    # ERROR: which fact and why
    facts_used: list[str] = field(default_factory=list)
    duration_ms: float = 0.0

    def text(self, key: str, lang: str) -> str:
        texts = getattr(self, key)
        return texts.get(lang) or texts.get("en", "") if texts else ""

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "rule": self.rule, "slug": self.slug, "group": self.group, "status": self.status,
            "severity": self.severity, "title": self.text("title", lang), "message": self.text("message", lang),
            "fix": self.text("fix", lang) or None, "problem": self.problem,
            "evidence": list(self.evidence), "reasons": list(self.reasons), "facts": list(self.facts_used),
            "duration_ms": round(self.duration_ms, 3),
        }


def render_text(template: str, facts: FactSet, notes: Iterable[str]) -> str:
    """Fill ``{fact.key}`` with fact values (``?`` when not available) and ``{why}`` with the evidence."""
    notes = list(notes)

    def sub(m) -> str:
        key = m.group(1)
        if key == "why":
            return "; ".join(dict.fromkeys(notes)) or "-"
        f = facts.get(key)
        if f is None:
            return "?"
        if not f.ok:
            return f"? ({f.status})"
        return show(f.value)

    return PLACEHOLDER_RE.sub(sub, template)


def _texts(texts: dict[str, str], facts: FactSet, notes: list[str]) -> dict[str, str]:
    return {lang: render_text(t, facts, notes) for lang, t in texts.items()}


def evaluate_rule(rule: Rule, facts: FactSet, compat: Callable[[str], list[dict]] | None = None) -> CheckResult:
    t0 = time.perf_counter()
    ctx = Context(facts, compat)
    used = rule.facts_used()

    def result(status: str, message: dict[str, str], outcome: Outcome | None = None, *, fix: bool = False,
               severity: str = "info", reasons: list[str] | None = None) -> CheckResult:
        notes = list(dict.fromkeys(outcome.notes)) if outcome else []
        return CheckResult(
            rule=rule.id, slug=rule.slug, group=rule.group, status=status, severity=severity, title=rule.title,
            message=message, fix=_texts(rule.fix, facts, notes) if fix else {}, problem=rule.problem,
            evidence=notes, reasons=list(dict.fromkeys(reasons or [])), facts_used=used,
            duration_ms=(time.perf_counter() - t0) * 1000,
        )

    def error(out: Outcome) -> CheckResult:
        reasons = list(dict.fromkeys(out.reasons)) or ["a fact it needs is not available"]
        msg = {lang: ERROR_TEXT[lang].format(reasons="; ".join(reasons)) for lang in ERROR_TEXT}
        return result(ERROR, msg, out, severity="warning", reasons=reasons)

    applies = evaluate(rule.applies_when, ctx)
    if applies.unknown:
        return error(applies)
    if applies.value is False:
        return result(SKIP, _texts(rule.skip, facts, applies.notes), applies)
    cond = evaluate(rule.condition, ctx)
    if cond.unknown:
        return error(cond)
    if cond.value:
        return result(rule.status_on_match, _texts(rule.message, facts, cond.notes), cond, fix=True,
                      severity=rule.severity)
    if rule.warn_when:
        warn = evaluate(rule.warn_when, ctx)
        if warn.unknown:
            return error(warn)
        if warn.value:
            return result(WARN, _texts(rule.warn_message or rule.message, facts, warn.notes), warn, fix=True,
                          severity="warning")
    ok = _texts(rule.ok, facts, cond.notes) if rule.ok else {}
    return result(PASS, ok, cond)


def run_rules(rules: Iterable[Rule], facts: FactSet,
              compat: Callable[[str], list[dict]] | None = None) -> list[CheckResult]:
    """Evaluate every rule. ``compat`` returns the rows of a compatibility matrix (KnowledgeBase.compat)."""
    cached = _cache(compat) if compat else None
    return [evaluate_rule(r, facts, cached) for r in rules]


def _cache(fn: Callable[[str], list[dict]]) -> Callable[[str], list[dict]]:
    memo: dict[str, list[dict]] = {}

    def get(name: str) -> list[dict]:
        if name not in memo:
            memo[name] = fn(name)
        return memo[name]

    return get


def summarize(results: Iterable[CheckResult]) -> dict[str, int]:
    counts = {s.lower(): 0 for s in CHECK_STATUSES}
    n = 0
    for r in results:
        counts[r.status.lower()] += 1
        n += 1
    counts["total"] = n
    return counts


FAIL_ON = {"error": 2, "warning": 1, "never": 99}


def exit_code(results: Iterable[CheckResult], fail_on: str = "error") -> int:
    """0 when no result is at or above ``fail_on`` (error: FAIL; warning: FAIL, WARN, ERROR; never), else 1."""
    threshold = FAIL_ON[fail_on]
    return 1 if any(LEVEL[r.status] >= threshold for r in results) else 0
