"""Read-only query API over the compiled knowledge base.

Everything returned is plain data (dataclasses of str / list / dict), detached from the database,
so renderers and rules never touch SQLAlchemy.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from . import codes as codes_mod
from .build import ensure_built
from .paths import default_db_path
from .text import Normalizer


@dataclass
class ProblemInfo:
    id: str
    family: str
    origin: str
    severity: str
    title: dict[str, str]
    summary: dict[str, str]
    root_cause: dict[str, str]
    hardware: list[str]
    components: list[str]
    versions: dict[str, str]
    related: list[str]
    fixes: list[dict[str, Any]]
    sources: list[str]
    symptoms: dict[str, list[str]] = field(default_factory=dict)
    codes: list[str] = field(default_factory=list)
    confirm_when: dict | None = None
    rule_out_when: dict | None = None


@dataclass
class CodeInfo:
    code: str
    family: str
    name: str
    meaning: dict[str, str]
    causes: dict[str, list[str]]
    action: dict[str, str]
    level: str
    sources: list[str]
    problems: list[str]
    origin: str
    is_pattern: bool


@dataclass
class SignatureInfo:
    problem_id: str
    literal: str
    regex: str
    weight: float


@dataclass
class SearchHit:
    kind: str           # problem | code
    ref: str            # problem id, or "family:code"
    title: dict[str, str]
    score: float        # 0..100


class KnowledgeBase:
    """Opens the compiled database (building it first when needed) and answers questions."""

    def __init__(self, db_path: Path | str | None = None, warn=None, knowledge_dir: Path | None = None,
                 overlays: list[Path] | None = None):
        path = Path(db_path) if db_path else default_db_path()
        if knowledge_dir is None:
            self.path = ensure_built(path, warn=warn, overlays=overlays)
        else:
            self.path = ensure_built(path, knowledge_dir=knowledge_dir, overlays=overlays or [], warn=warn)
        from sqlalchemy import create_engine

        self._engine = create_engine(f"sqlite:///file:{self.path}?mode=ro&uri=true")

    # -- low level -------------------------------------------------------------------------------
    def _session(self):
        from sqlalchemy.orm import Session

        return Session(self._engine)

    def close(self) -> None:
        self._engine.dispose()

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- problems --------------------------------------------------------------------------------
    def problem(self, problem_id: str) -> ProblemInfo | None:
        from sqlalchemy import select

        from .schema import ProblemCodeRow, ProblemRow

        with self._session() as s:
            row = s.get(ProblemRow, problem_id)
            if row is None:
                return None
            codes = list(s.scalars(select(ProblemCodeRow.code).where(ProblemCodeRow.problem_id == problem_id)))
            return _problem_info(row, codes)

    def problems(self, family: str | None = None) -> list[ProblemInfo]:
        from sqlalchemy import select

        from .schema import ProblemCodeRow, ProblemRow

        with self._session() as s:
            q = select(ProblemRow).order_by(ProblemRow.family, ProblemRow.id)
            if family:
                q = q.where(ProblemRow.family == family)
            codes: dict[str, list[str]] = {}
            for pid, code in s.execute(select(ProblemCodeRow.problem_id, ProblemCodeRow.code)):
                codes.setdefault(pid, []).append(code)
            return [_problem_info(r, sorted(codes.get(r.id, []))) for r in s.scalars(q)]

    def problem_ids(self) -> list[str]:
        from sqlalchemy import select

        from .schema import ProblemRow

        with self._session() as s:
            return list(s.scalars(select(ProblemRow.id).order_by(ProblemRow.id)))

    def signatures(self) -> list[SignatureInfo]:
        from sqlalchemy import select

        from .schema import SignatureRow

        with self._session() as s:
            return [SignatureInfo(r.problem_id, r.literal, r.regex, r.weight)
                    for r in s.scalars(select(SignatureRow).order_by(SignatureRow.id))]

    def problems_for_code(self, code: str) -> list[str]:
        """Problems linked to a code, from the code dictionary or from the problems' own code lists."""
        from sqlalchemy import select

        from .schema import ProblemCodeRow

        found = {pid for c in self.codes(code) for pid in c.problems}
        with self._session() as s:
            found.update(s.scalars(select(ProblemCodeRow.problem_id).where(ProblemCodeRow.code == codes_mod.canonical(code))))
        return sorted(found)

    # -- codes -----------------------------------------------------------------------------------
    def codes(self, code: str, family: str | None = None, patterns: bool = True) -> list[CodeInfo]:
        """Entries for ``code``: exact matches in every family first, then ranges (wildcards) it falls in."""
        from sqlalchemy import select

        from .schema import CodeRow

        canon = codes_mod.canonical(code)
        with self._session() as s:
            q = select(CodeRow).where(CodeRow.code == canon, CodeRow.is_pattern == 0)
            if family:
                q = q.where(CodeRow.family == family)
            rows = list(s.scalars(q.order_by(CodeRow.family)))
            if patterns:
                pq = select(CodeRow).where(CodeRow.is_pattern == 1)
                if family:
                    pq = pq.where(CodeRow.family == family)
                pats = [r for r in s.scalars(pq) if len(r.code) == len(canon) and codes_mod.pattern_regex(r.code).match(canon)]
                pats.sort(key=lambda r: -codes_mod.specificity(r.code))
                rows.extend(pats)
            return [self._code_info(s, r) for r in rows]

    def all_codes(self) -> list[CodeInfo]:
        from sqlalchemy import select

        from .schema import CodeRow

        with self._session() as s:
            return [self._code_info(s, r) for r in s.scalars(select(CodeRow).order_by(CodeRow.family, CodeRow.code))]

    def code_names(self, name: str) -> list[CodeInfo]:
        """Codes whose symbolic name is ``name`` (``ACLNN_ERR_INNER``, ``HCCL_E_TIMEOUT``)."""
        from sqlalchemy import func, select

        from .schema import CodeRow

        with self._session() as s:
            q = select(CodeRow).where(func.upper(CodeRow.name) == name.strip().upper())
            return [self._code_info(s, r) for r in s.scalars(q)]

    def nearest_codes(self, code: str, limit: int = 5) -> list[str]:
        """Known codes spelled most like ``code`` (for "did you mean")."""
        from rapidfuzz import fuzz, process
        from sqlalchemy import select

        from .schema import CodeRow

        canon = codes_mod.canonical(code)
        with self._session() as s:
            known = sorted(set(s.scalars(select(CodeRow.code).where(CodeRow.is_pattern == 0))))
        if not known:
            return []
        same_len = [k for k in known if len(k) == len(canon)]
        pool = same_len or known
        hits = process.extract(canon, pool, scorer=fuzz.ratio, limit=limit * 3)
        # prefer codes sharing the longest prefix, then the closest spelling
        hits.sort(key=lambda h: (-_common_prefix(canon, h[0]), -h[1], h[0]))
        return [h[0] for h in hits[:limit]]

    def _code_info(self, s, r) -> CodeInfo:
        from sqlalchemy import select

        from .schema import CodeProblemRow

        linked = list(s.scalars(select(CodeProblemRow.problem_id).where(CodeProblemRow.code_id == r.id)))
        return CodeInfo(code=r.code, family=r.family, name=r.name, meaning={"en": r.meaning_en, "zh": r.meaning_zh},
                        causes={"en": r.causes_en, "zh": r.causes_zh},
                        action={"en": r.action_en, "zh": r.action_zh} if r.action_en else {},
                        level=r.level, sources=r.sources, problems=sorted(linked), origin=r.origin,
                        is_pattern=bool(r.is_pattern))

    # -- compatibility ---------------------------------------------------------------------------
    def compat(self, matrix: str) -> list[dict[str, Any]]:
        """Rows of a compatibility matrix, each with its ``source``."""
        from sqlalchemy import select

        from .schema import CompatRowModel

        with self._session() as s:
            rows = s.scalars(select(CompatRowModel).where(CompatRowModel.matrix == matrix).order_by(CompatRowModel.id))
            return [{**r.data, "source": r.source} for r in rows]

    def families(self, kind: str | None = None) -> list[dict[str, str]]:
        from sqlalchemy import select

        from .schema import FamilyRow

        with self._session() as s:
            q = select(FamilyRow).order_by(FamilyRow.kind, FamilyRow.name)
            if kind:
                q = q.where(FamilyRow.kind == kind)
            return [{"kind": f.kind, "name": f.name, "title": {"en": f.title_en, "zh": f.title_zh}, "key": f.key}
                    for f in s.scalars(q)]

    # -- text ------------------------------------------------------------------------------------
    @cached_property
    def normalizer(self) -> Normalizer:
        from sqlalchemy import select

        from .schema import SynonymRow

        groups: dict[str, list[str]] = {}
        with self._session() as s:
            for r in s.scalars(select(SynonymRow)):
                groups.setdefault(r.canonical, [r.canonical]).append(r.word)
        return Normalizer([list(dict.fromkeys(g)) for g in groups.values()])

    def search(self, query: str, limit: int = 10, kinds: tuple[str, ...] = ("problem", "code")) -> list[SearchHit]:
        from .search import search

        return search(self, query, limit=limit, kinds=kinds)

    def stats(self) -> dict[str, Any]:
        from sqlalchemy import func, select

        from .schema import CodeRow, CompatRowModel, ProblemRow, SignatureRow

        with self._session() as s:
            def grouped(col, *where):
                q = select(col, func.count()).group_by(col)
                for w in where:
                    q = q.where(w)
                return {k: n for k, n in s.execute(q)}

            return {
                "problems": {"builtin": grouped(ProblemRow.family, ProblemRow.origin == "builtin"),
                             "user": grouped(ProblemRow.family, ProblemRow.origin == "user"),
                             "faultdiag": grouped(ProblemRow.family, ProblemRow.origin == "faultdiag")},
                "codes": {"builtin": grouped(CodeRow.family, CodeRow.origin == "builtin"),
                          "user": grouped(CodeRow.family, CodeRow.origin == "user"),
                          "faultdiag": grouped(CodeRow.family, CodeRow.origin == "faultdiag")},
                "signatures": s.scalar(select(func.count()).select_from(SignatureRow)),
                "compat_rows": grouped(CompatRowModel.matrix),
            }


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _problem_info(row, codes: list[str]) -> ProblemInfo:
    symptoms: dict[str, list[str]] = {}
    for sym in row.symptoms:
        symptoms.setdefault(sym.lang, []).append(sym.text)
    return ProblemInfo(
        id=row.id, family=row.family, origin=row.origin, severity=row.severity,
        title={"en": row.title_en, "zh": row.title_zh}, summary={"en": row.summary_en, "zh": row.summary_zh},
        root_cause={"en": row.root_cause_en, "zh": row.root_cause_zh}, hardware=row.hardware,
        components=row.components, versions=row.versions, related=row.related, fixes=row.fixes,
        sources=row.sources, symptoms=symptoms, codes=codes, confirm_when=row.confirm_when,
        rule_out_when=row.rule_out_when,
    )


def open_kb(path: Path | str | None = None, warn=None) -> KnowledgeBase:
    return KnowledgeBase(path, warn=warn)


