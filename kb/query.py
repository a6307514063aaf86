"""Read-only query API over the compiled knowledge base.

Everything returned is plain data (dataclasses of str / list / dict), detached from the database,
so renderers and rules never touch SQLAlchemy.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, fields
from functools import cached_property
from pathlib import Path
from typing import Any

from . import codes as codes_mod
from .build import ensure_built
from .paths import ENV_KB, default_db_path
from .text import Normalizer

#: bump when what a problem's JSON copy holds changes meaning (its fields are checked by number)
PROBLEMS_CACHE_VERSION = 3


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
    stalls: list[str] = field(default_factory=list)   # progress-bar descriptions whose stall points here
    silent: str = ""       # how the failure shows when it prints no message of its own (model.SILENT_KINDS)


#: the fields of a problem that are its words (most of the copy's size): kept beside the database as one JSON
#: string per problem and decoded when first asked for (a log of progress bars reads none of them)
TEXT_FIELDS = ("title", "summary", "root_cause", "related", "fixes", "sources", "symptoms")


class _CopiedProblem(ProblemInfo):
    """A ProblemInfo read from the copy beside the database: its TEXT_FIELDS are decoded on first use. Equal,
    printed and converted (dataclasses.asdict) as any ProblemInfo: every access goes through ``__getattr__``."""

    def __getattr__(self, name: str):
        d = self.__dict__
        texts = d.get("_texts") if name in TEXT_FIELDS else None
        if texts is not None:
            # decoded, then the copy dropped: another thread asking meanwhile decodes the same words again
            d.update(zip(TEXT_FIELDS, json.loads(texts)))
            d.pop("_texts", None)
        if name in d:
            return d[name]
        raise AttributeError(name)

    def __eq__(self, other):
        if not isinstance(other, ProblemInfo):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(ProblemInfo))

    __hash__ = None     # as ProblemInfo's (a mutable dataclass)

    @classmethod
    def from_copy(cls, core: list, names: list[str], texts: str) -> "_CopiedProblem":
        p = object.__new__(cls)
        p.__dict__.update(zip(names, core))
        p.__dict__["_texts"] = texts
        return p


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
    generic: bool = False


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
    """Opens the compiled database (building it first when needed) and answers questions.

    Reads use SQLAlchemy Core with plain SQL over the tables the ORM models define (schema.py), on a
    read-only connection; importing the ORM is left to the builder.
    """

    def __init__(self, db_path: Path | str | None = None, warn=None, knowledge_dir: Path | None = None,
                 overlays: list[Path] | None = None, notice=None, force: bool = False):
        path = Path(db_path) if db_path else default_db_path()
        # only the default cache falls back to a private temporary directory when it cannot be written;
        # a path the user named is used or refused
        fallback = not db_path and not os.environ.get(ENV_KB)
        if knowledge_dir is None:
            self.path = ensure_built(path, warn=warn, overlays=overlays, notice=notice, fallback=fallback,
                                     force=force)
        else:
            self.path = ensure_built(path, knowledge_dir=knowledge_dir, overlays=overlays or [], warn=warn,
                                     notice=notice, fallback=fallback, force=force)
        from sqlalchemy import create_engine

        self._engine = create_engine(f"sqlite:///file:{self.path}?mode=ro&uri=true")
        self._derived: dict[str, Any] = {}

    # -- low level -------------------------------------------------------------------------------
    def _rows(self, sql: str, **params) -> list[Any]:
        from sqlalchemy import text

        with self._engine.connect() as con:
            return list(con.execute(text(sql), params).mappings())

    def close(self) -> None:
        self._engine.dispose()

    @cached_property
    def content_hash(self) -> str:
        """The hash of the knowledge the database was built from (a key for caches derived from it)."""
        rows = self._rows("SELECT value FROM kb_meta WHERE key = 'content_hash'")
        return rows[0]["value"] if rows else ""

    def derived(self, key: str, build):
        """A value computed from this knowledge once and kept for the life of this object (the database is
        opened read-only, so nothing it is computed from changes): the matcher's compiled signatures and
        indexes, built once for a TUI session or a batch of reports instead of for every report."""
        if key not in self._derived:
            self._derived[key] = build()
        return self._derived[key]

    def __enter__(self) -> "KnowledgeBase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- problems --------------------------------------------------------------------------------
    def problem(self, problem_id: str) -> ProblemInfo | None:
        rows = self._rows("SELECT * FROM problem WHERE id = :id", id=problem_id)
        if not rows:
            return None
        return self._problem_infos(rows)[0]

    def problems(self, family: str | None = None) -> list[ProblemInfo]:
        if family:
            rows = self._rows("SELECT * FROM problem WHERE family = :f ORDER BY family, id", f=family)
            return self._problem_infos(rows)
        return list(self.derived("problems", self._all_problems))

    def _all_problems(self) -> list[ProblemInfo]:
        """Every problem, read from beside the database when made from the same knowledge: reading 1,000
        problems' rows, symptoms and codes through SQL costs ~0.2 s a run, their copy beside the database ~0.02 s."""
        from .index_cache import cached_index, no_gc

        names = [f.name for f in fields(ProblemInfo) if f.name not in TEXT_FIELDS]

        def build() -> list[list]:
            infos = self._problem_infos(self._rows("SELECT * FROM problem ORDER BY family, id"))
            return [[getattr(p, n) for n in names] + [json.dumps([getattr(p, n) for n in TEXT_FIELDS],
                                                                 ensure_ascii=False)] for p in infos]

        rows = cached_index(self, "problems", PROBLEMS_CACHE_VERSION, build,
                            lambda x: isinstance(x, list) and all(isinstance(r, list) and len(r) == len(names) + 1
                                                                  and isinstance(r[-1], str) for r in x))
        with no_gc():
            return [_CopiedProblem.from_copy(r[:-1], names, r[-1]) for r in rows]

    def _problem_infos(self, rows) -> list[ProblemInfo]:
        ids = [r["id"] for r in rows]
        symptoms: dict[str, dict[str, list[str]]] = {}
        codes: dict[str, list[str]] = {}
        if ids:
            marks = ",".join(f":p{i}" for i in range(len(ids)))
            params = {f"p{i}": pid for i, pid in enumerate(ids)}
            for r in self._rows(f"SELECT problem_id, lang, text FROM symptom WHERE problem_id IN ({marks}) ORDER BY id",
                                **params):
                symptoms.setdefault(r["problem_id"], {}).setdefault(r["lang"], []).append(r["text"])
            for r in self._rows(f"SELECT problem_id, code FROM problem_code WHERE problem_id IN ({marks}) ORDER BY code",
                                **params):
                codes.setdefault(r["problem_id"], []).append(r["code"])
        return [_problem_info(r, symptoms.get(r["id"], {}), codes.get(r["id"], [])) for r in rows]

    def problem_ids(self) -> list[str]:
        return [r["id"] for r in self._rows("SELECT id FROM problem ORDER BY id")]

    def signatures(self) -> list[SignatureInfo]:
        return [SignatureInfo(r["problem_id"], r["literal"], r["regex"], r["weight"])
                for r in self._rows("SELECT problem_id, literal, regex, weight FROM signature ORDER BY id")]

    def stalls(self) -> list[tuple[str, str]]:
        """(problem id, progress-bar description phrase) for every problem that lists ``stalls``."""
        out = []
        for r in self._rows("SELECT id, stalls FROM problem ORDER BY id"):
            for phrase in _json(r["stalls"]) or []:
                out.append((r["id"], phrase))
        return out

    def problems_for_code(self, code: str) -> list[str]:
        """Problems linked to a code, from the code dictionary or from the problems' own code lists."""
        found = {pid for c in self.codes(code) for pid in c.problems}
        found.update(r["problem_id"] for r in
                     self._rows("SELECT problem_id FROM problem_code WHERE code = :c", c=codes_mod.canonical(code)))
        return sorted(found)

    # -- codes -----------------------------------------------------------------------------------
    def codes(self, code: str, family: str | None = None, patterns: bool = True) -> list[CodeInfo]:
        """Entries for ``code``: exact matches in every family first, then ranges (wildcards) it falls in."""
        canon = codes_mod.canonical(code)
        fam_sql = " AND family = :f" if family else ""
        rows = self._rows(f"SELECT * FROM error_code WHERE code = :c AND is_pattern = 0{fam_sql} ORDER BY family",
                          c=canon, f=family)
        if patterns:
            pats = [r for r in self._rows(f"SELECT * FROM error_code WHERE is_pattern = 1 AND length(code) = :n{fam_sql}",
                                          n=len(canon), f=family)
                    if codes_mod.pattern_regex(r["code"]).match(canon)]
            pats.sort(key=lambda r: -codes_mod.specificity(r["code"]))
            rows.extend(pats)
        return self._code_infos(rows)

    def all_codes(self) -> list[CodeInfo]:
        return self._code_infos(self._rows("SELECT * FROM error_code ORDER BY family, code"))

    def code_names(self, name: str) -> list[CodeInfo]:
        """Codes whose symbolic name is ``name`` (``ACLNN_ERR_INNER``, ``HCCL_E_TIMEOUT``)."""
        return self._code_infos(self._rows("SELECT * FROM error_code WHERE upper(name) = :n", n=name.strip().upper()))

    def nearest_codes(self, code: str, limit: int = 5) -> list[str]:
        """Known codes spelled most like ``code`` (for "did you mean")."""
        from rapidfuzz import fuzz, process

        canon = codes_mod.canonical(code)
        known = sorted({r["code"] for r in self._rows("SELECT code FROM error_code WHERE is_pattern = 0")})
        if not known:
            return []
        same_len = [k for k in known if len(k) == len(canon)]
        pool = same_len or known
        hits = process.extract(canon, pool, scorer=fuzz.ratio, limit=limit * 3)
        # prefer codes sharing the longest prefix, then the closest spelling
        hits.sort(key=lambda h: (-_common_prefix(canon, h[0]), -h[1], h[0]))
        return [h[0] for h in hits[:limit]]

    def _code_infos(self, rows) -> list[CodeInfo]:
        links: dict[int, list[str]] = {}
        ids = [r["id"] for r in rows]
        if ids:
            marks = ",".join(f":c{i}" for i in range(len(ids)))
            for r in self._rows(f"SELECT code_id, problem_id FROM code_problem WHERE code_id IN ({marks}) ORDER BY problem_id",
                                **{f"c{i}": cid for i, cid in enumerate(ids)}):
                links.setdefault(r["code_id"], []).append(r["problem_id"])
        return [CodeInfo(code=r["code"], family=r["family"], name=r["name"],
                         meaning={"en": r["meaning_en"], "zh": r["meaning_zh"]},
                         causes={"en": _json(r["causes_en"]), "zh": _json(r["causes_zh"])},
                         action={"en": r["action_en"], "zh": r["action_zh"]} if r["action_en"] else {},
                         level=r["level"], sources=_json(r["sources"]), problems=links.get(r["id"], []),
                         origin=r["origin"], is_pattern=bool(r["is_pattern"]), generic=bool(r["generic"])) for r in rows]

    # -- compatibility ---------------------------------------------------------------------------
    def compat(self, matrix: str) -> list[dict[str, Any]]:
        """Rows of a compatibility matrix, each with its ``source``."""
        return [{**_json(r["data"]), "source": r["source"]}
                for r in self._rows("SELECT data, source FROM compat_row WHERE matrix = :m ORDER BY id", m=matrix)]

    def families(self, kind: str | None = None) -> list[dict[str, str]]:
        sql = "SELECT * FROM family" + (" WHERE kind = :k" if kind else "") + " ORDER BY kind, name"
        return [{"kind": f["kind"], "name": f["name"], "title": {"en": f["title_en"], "zh": f["title_zh"]}, "key": f["key"]}
                for f in self._rows(sql, k=kind)]

    # -- text ------------------------------------------------------------------------------------
    @cached_property
    def normalizer(self) -> Normalizer:
        groups: dict[str, list[str]] = {}
        for r in self._rows("SELECT word, canonical FROM synonym"):
            groups.setdefault(r["canonical"], [r["canonical"]]).append(r["word"])
        return Normalizer([list(dict.fromkeys(g)) for g in groups.values()])

    def search(self, query: str, limit: int = 10, kinds: tuple[str, ...] = ("problem", "code")) -> list[SearchHit]:
        from .search import search

        return search(self, query, limit=limit, kinds=kinds)

    def stats(self) -> dict[str, Any]:
        def grouped(table: str, col: str, origin: str | None = None) -> dict[str, int]:
            where = " WHERE origin = :o" if origin else ""
            return {r["k"]: r["n"] for r in self._rows(f"SELECT {col} AS k, count(*) AS n FROM {table}{where} GROUP BY {col}",
                                                        o=origin)}

        origins = ("builtin", "user", "faultdiag")
        return {
            "problems": {o: grouped("problem", "family", o) for o in origins},
            "codes": {o: grouped("error_code", "family", o) for o in origins},
            "signatures": self._rows("SELECT count(*) AS n FROM signature")[0]["n"],
            "compat_rows": grouped("compat_row", "matrix"),
        }


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) else value


def _problem_info(row, symptoms: dict[str, list[str]], codes: list[str]) -> ProblemInfo:
    return ProblemInfo(
        id=row["id"], family=row["family"], origin=row["origin"], severity=row["severity"],
        title={"en": row["title_en"], "zh": row["title_zh"]}, summary={"en": row["summary_en"], "zh": row["summary_zh"]},
        root_cause={"en": row["root_cause_en"], "zh": row["root_cause_zh"]}, hardware=_json(row["hardware"]),
        components=_json(row["components"]), versions=_json(row["versions"]), related=_json(row["related"]),
        fixes=_json(row["fixes"]), sources=_json(row["sources"]), symptoms=symptoms, codes=codes,
        confirm_when=_json(row["confirm_when"]), rule_out_when=_json(row["rule_out_when"]),
        stalls=_json(row["stalls"]) or [], silent=row["silent"] or "",
    )
