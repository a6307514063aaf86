"""What the TUI screens ask of the services: run the check, diagnose text or files.

Thin adapters over ``services.check`` and ``services.diagnosis`` so that the screens read one shape.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..render.console import t


class InputProblem(Exception):
    """Input the user gave (a path) cannot be read; shown as one line on the Ask screen."""


@dataclass
class CheckRow:
    rule_id: str
    group: str
    status: str
    severity: str
    problem: str
    evidence: list[tuple[str, str]]
    _texts: dict = field(repr=False, default_factory=dict)
    order: int = 99                      # the group's place, as the CLI prints them
    group_texts: dict = field(repr=False, default_factory=dict)
    group_command: str = ""              # the group's one fix command (groups.toml fix_all_command)

    def group_title(self, lang: str) -> str:
        return t(self.group_texts, lang) or self.group

    def title(self, lang: str) -> str:
        return t(self._texts["title"], lang)

    def message(self, lang: str) -> str:
        return t(self._texts["message"], lang)

    def fix(self, lang: str) -> str:
        return t(self._texts["fix"], lang)


def run_check(kb, facts) -> list[CheckRow]:
    from ..services.check import build_report
    from ..services.knowledge import first_fix

    report = build_report(facts, compat=kb.compat, fix_of=lambda pid: first_fix(kb, pid))
    groups = {g.id: g.title for g in report.groups}
    order = {g.id: g.order for g in report.groups}
    commands = {g.id: g.fix_all_command for g in report.groups}
    rows = []
    for r in report.results:
        evidence = []
        for e in r.evidence:
            k, _, v = str(e).partition("=")
            evidence.append((k.strip(), v.strip()) if v else (str(e), ""))
        rows.append(CheckRow(r.rule, groups.get(r.group, {}).get("en", r.group), r.status, r.severity, r.problem,
                             evidence, {"title": r.title, "message": r.message, "fix": r.fix},
                             order=order.get(r.group, 99), group_texts=groups.get(r.group, {}),
                             group_command=commands.get(r.group, "")))
    return rows


@dataclass
class Evidence:
    source: str
    line: int
    text: str


@dataclass
class FindingRow:
    problem_id: str
    title: dict
    score: float
    evidence: list[Evidence]
    confirmed_by: list[str] = field(default_factory=list)
    ruled_out_by: list[str] = field(default_factory=list)


def diagnose(kb, text: str, path: str, facts, lang: str) -> tuple[list[FindingRow], str]:
    """Diagnose either the text or the file / folder at ``path`` (the one given; the Ask screen passes only
    the one the user chose) -> (findings, a one-line note in ``lang``)."""
    import os

    from ..services.diagnosis import diagnose as run
    from .words import w

    paths = []
    if path:
        p = os.path.expanduser(path)
        if not os.path.exists(p):
            raise InputProblem(w("ask.no_file", lang, path=path))
        paths.append(p)
    result = run(kb, paths=paths, text=text if text.strip() else None, facts=facts, lang=lang)
    rows = [FindingRow(f.id, f.problem.title, f.score, [Evidence(s.source, s.line, s.text) for s in f.evidence],
                       [str(n) for n in f.confirmed_by], [str(n) for n in f.ruled_out_by])
            for f in result.findings]
    codes = ", ".join(c.code for c in result.codes[:6])
    what = w("ask.what.path", lang, path=path) if path else w("ask.what.text", lang)
    parts = [w("ask.found" if rows else "ask.none", lang, n=len(rows), what=what)]
    if codes:
        parts.append(w("ask.codes", lang, codes=codes))
    if not rows and result.suggestion:
        parts.append(w("ask.try", lang, query=result.suggestion))
    return rows, ("；" if lang == "zh" else "; ").join(parts)
