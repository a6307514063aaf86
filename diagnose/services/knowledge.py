"""The knowledge base as a service: opening it (built on first use and whenever the knowledge changed),
``explain`` (what a code, problem or rule id means) and ``search`` (problems and codes by words)."""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import DoctorError, InternalError

#: a rule id as ``explain`` takes it (AD-CONT-001); dotted slugs are rule ids too
RULE_ID = re.compile(r"^AD-[A-Z]+-\d{3}$", re.IGNORECASE)


def _warn(msg: str) -> None:
    sys.stderr.write(f"ascend-doctor: warning: {msg}\n")


NOTICE = {"en": "ascend-doctor: building the knowledge base (first run, or the knowledge changed); "
                "this takes a few seconds once",
          "zh": "ascend-doctor：正在构建知识库（首次运行或知识有更新），只需几秒，仅此一次"}


def _notice(lang: str = "en") -> None:
    sys.stderr.write(f"{NOTICE.get(lang, NOTICE['en'])}\n")
    sys.stderr.flush()


def open_kb(path: str | None = None, *, force: bool = False, warn: Callable[[str], None] = _warn,
            notice: Callable[[], None] | None = None, lang: str = "en"):
    """The KnowledgeBase at ``path`` (default: $ASCEND_DOCTOR_KB or the user cache). Knowledge that does
    not validate is a DoctorError (an internal one when only the shipped files are at fault)."""
    from ascend_doctor.kb.build import ForeignFileRefused, KnowledgeError
    from ascend_doctor.kb.query import KnowledgeBase

    try:
        return KnowledgeBase(path, warn=warn, notice=notice or (lambda: _notice(lang)), force=force)
    except KnowledgeError as exc:
        user = [i for i in exc.issues if "overlay" in i.file or not i.file.startswith("kb/")]
        message = (f"the knowledge files do not validate ({len(exc.issues)} problem(s)), first: {exc.issues[0]}; "
                   "run 'ascend-doctor kb validate' for all")
        raise (DoctorError if user else InternalError)(message) from exc
    except ForeignFileRefused as exc:
        raise DoctorError(str(exc)) from exc
    except OSError as exc:
        from ascend_doctor.kb.paths import default_db_path

        where = path or default_db_path()
        raise DoctorError(key="kb_unusable", where=str(where), reason=exc.strerror or str(exc)) from exc


def check_knowledge(path: str | None = None, warn: Callable[[str], None] = _warn, lang: str = "en"):
    """What the check needs of the knowledge base: (compat, fix_of) where ``compat`` is
    ``KnowledgeBase.compat`` and ``fix_of(problem id)`` the problem's first fix summary; (None, None) with a
    warning when the knowledge base cannot be opened (the check still runs; rules that read compatibility
    matrices report ERROR)."""
    try:
        kb = open_kb(path, warn=warn, lang=lang)
    except DoctorError as exc:
        warn(f"{exc}; rules that read compatibility matrices report ERROR")
        return None, None

    return kb.compat, lambda problem_id: first_fix(kb, problem_id)


def first_fix(kb, problem_id: str):
    """The summary ({"en": ..., "zh": ...}) of a problem's first fix, which a rule without a fix of its own
    shows; None when the problem is unknown or has no fix."""
    p = kb.problem(problem_id)
    return p.fixes[0]["summary"] if p and p.fixes else None


@dataclass
class Explanation:
    """What ``explain`` found for a query: a rule, a problem, error codes, or nothing (``kind``)."""
    kind: str                                   # rule | problem | code | unknown
    query: str
    rule: Any = None                            # rules.catalog.Rule
    problem: Any = None                         # kb ProblemInfo
    codes: list = field(default_factory=list)   # kb CodeInfo
    titles: dict = field(default_factory=dict)  # linked problem id -> {"en": ..., "zh": ...}
    sources: list = field(default_factory=list)  # a rule's sources (its problem's)
    nearest: list = field(default_factory=list)  # nearest known codes when nothing was found


def explain(kb, what: str, family: str | None = None) -> Explanation:
    """Look ``what`` up as a rule id, a problem id, an error code or a symbolic code name, in that order."""
    if RULE_ID.match(what) or "." in what and not what.replace(".", "").isdigit():
        from ascend_doctor.rules.catalog import find_rule

        rule = find_rule(what)
        if rule is not None:
            from ascend_doctor.rules.catalog import with_problem_fixes

            problem = kb.problem(rule.problem)
            rule = with_problem_fixes([rule], lambda pid: first_fix(kb, pid))[0]
            return Explanation("rule", what, rule=rule, sources=list(problem.sources) if problem else [])
    problem = kb.problem(what) or kb.problem(what.lower())
    if problem is not None:
        return Explanation("problem", what, problem=problem, titles=_titles(kb, problem.related))
    found = kb.codes(what, family=family) or kb.code_names(what)
    if found:
        shown = [c for c in found if not c.is_pattern] or found
        return Explanation("code", what, codes=shown, titles=_titles(kb, {pid for c in shown for pid in c.problems}))
    return Explanation("unknown", what, nearest=kb.nearest_codes(what))


def _titles(kb, ids) -> dict:
    return {pid: p.title for pid in ids if (p := kb.problem(pid))}


@dataclass
class SearchResult:
    query: str
    hits: list                                  # kb SearchHit, best first


def search(kb, query: str, limit: int = 10, kinds: tuple[str, ...] = ("problem", "code")) -> SearchResult:
    return SearchResult(query, kb.search(query, limit=limit, kinds=kinds))
