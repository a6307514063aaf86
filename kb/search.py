"""Search over problems and codes: FTS5 (trigram) gathers candidates, rapidfuzz ranks them.

The query and the indexed text are normalised the same way (lower case, synonym groups folded to
one word: 卡住 / 卡死 / stuck -> hang; 权重加载 / loading safetensors -> weight loading), so an
English query finds a Chinese-only symptom and the other way round. Normalised texts are stored at
build time, so a query normalises only itself.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import codes as codes_mod
from .text import is_cjk

if TYPE_CHECKING:  # pragma: no cover
    from .query import KnowledgeBase, SearchHit

CANDIDATES = 150
_SELECT = "SELECT kind, ref, title_en, title_zh, title_norm, norm FROM search_fts WHERE "


def _fts_phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _term_present(term: str, text: str) -> float:
    if term in text:
        return 1.0
    if is_cjk(term) and len(term) > 2:
        grams = [term[i:i + 2] for i in range(len(term) - 1)]
        return 0.8 * sum(g in text for g in grams) / len(grams)
    return 0.0


def search(kb: "KnowledgeBase", query: str, limit: int = 10, kinds: tuple[str, ...] = ("problem", "code")) -> list["SearchHit"]:
    from rapidfuzz import fuzz
    from sqlalchemy import text

    from .query import SearchHit

    norm = kb.normalizer
    nq = " ".join(norm.normalize(query).split())
    terms = norm.terms(query)
    if not terms:
        return []
    long_terms = [t for t in terms if len(t) >= 3]
    short_terms = [t for t in terms if len(t) < 3]
    rows: dict[tuple[str, str], tuple] = {}
    kind_sql = " AND kind IN (" + ",".join(f"'{k}'" for k in kinds if k in ("problem", "code")) + ")"
    with kb._engine.connect() as con:
        if long_terms:
            # all words first (cheap, precise); widen to any word, best-ranked first, only if too few
            for joiner, order in ((" AND ", ""), (" OR ", " ORDER BY rank")):
                expr = "{body norm} : (" + joiner.join(_fts_phrase(t) for t in long_terms) + ")"
                for r in con.execute(text(_SELECT + "search_fts MATCH :q" + kind_sql + order + " LIMIT :n"),
                                     {"q": expr, "n": CANDIDATES}):
                    rows[(r[0], r[1])] = tuple(r)
                if len(rows) >= limit or len(long_terms) == 1:
                    break
        else:
            # only short (two-character Chinese) words: the trigram index cannot help, scan. Not with LIKE:
            # on a trigram FTS5 table a LIKE pattern shorter than three characters matches nothing
            for t in short_terms:
                for r in con.execute(text(_SELECT + "instr(norm, :t) > 0" + kind_sql + " LIMIT :n"),
                                     {"t": t, "n": CANDIDATES}):
                    rows[(r[0], r[1])] = tuple(r)
    code_query = codes_mod.canonical(query) if len(terms) == 1 else ""
    hits, exact = [], set()
    for (kind, ref, title_en, title_zh, title_norm, body_norm) in rows.values():
        coverage = sum(_term_present(t, body_norm) for t in terms) / len(terms)
        title_cov = sum(_term_present(t, title_norm) for t in terms) / len(terms)
        fuzzy = max(fuzz.token_set_ratio(nq, title_norm), fuzz.partial_ratio(nq, title_norm) * 0.9)
        score = 55 * coverage + 25 * title_cov + 20 * fuzzy / 100
        score += 5 * fuzz.ratio(nq, title_norm) / 100      # among full matches, the title closest to the query
        if kind == "code" and code_query and ref.split(":", 1)[1] == code_query:
            score = 1000.0
            exact.add(ref)
        hits.append((score, SearchHit(kind, ref, {"en": title_en, "zh": title_zh}, round(min(score, 100.0), 1))))
    # ranked by the score before it is capped at 100 for display, so full matches keep their order
    hits.sort(key=lambda sh: (-sh[0], sh[1].ref not in exact, sh[1].kind != "problem", sh[1].ref))
    return [h for _, h in hits[:limit]]
