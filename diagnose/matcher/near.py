"""Near-miss signatures: the same failure printed by another release of CANN, torch_npu or an engine.

A signature needs its exact literal and its regex; another version of the same program often prints the
same message with a word changed (``failed, detail:EZ9999`` for ``failed. Detail: EZ9999``), a suffix on a
name, or a neighbouring code. A line that matched no signature is a near miss of one when it holds a rare,
identifier-like *anchor* of that signature's literal (``c10_npu::SetDevice``, ``libascend_hal.so``,
``HcclSocket``, ``aclnnMatmul``: a token no more than ``MAX_ANCHOR_SHARE`` of the signatures use) and most of
the literal's words (``MIN_OVERLAP``). It counts at ``NEAR_FACTOR`` of the signature's weight, times the
overlap, so an exact match always counts more.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import ahocorasick_rs

NEAR_FACTOR = 0.5
MIN_OVERLAP = 0.6
MAX_ANCHOR_SIGNATURES = 3        # an anchor shared by more signatures tells none of them apart
MIN_WORDS = 3                    # a literal of fewer words is too short to be matched loosely

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:::|\.|-)[A-Za-z0-9_]+)*")


def _tokens(text: str) -> list[str]:
    return [t.lower() for t in _TOKEN.findall(text)]


#: a configuration or data file's name (config.json, model.yaml): most messages about settings name one
_SETTINGS_FILE = re.compile(r"\.(?:json|ya?ml|txt|log|cfg|ini|conf|csv|md|toml)$")


def _identifier_like(tok: str) -> bool:
    """``c10_npu::setdevice``, ``libascend_hal.so``, ``hcclsocket`` (CamelCase in the original), ``aclnnmatmul``:
    a token a person would not write as a plain word (nor a settings file's name: 'Failed check model config.json'
    is not nearly 'Warmup failed ... in config.json')."""
    return (len(tok) >= 6 and (any(c in tok for c in "_:.") or any(c.isdigit() for c in tok))
            and not _SETTINGS_FILE.search(tok))


@dataclass(frozen=True)
class NearMiss:
    sid: str
    overlap: float


def near_tables(literal_of: dict[str, str]) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """(signature id -> the words of its literal, anchor token -> the signatures it tells apart) for the
    signatures whose literal is long enough to be matched loosely; plain data, kept beside the database."""
    words_of: dict[str, list[str]] = {}
    by_anchor: dict[str, set[str]] = {}
    for sid, literal in literal_of.items():
        words = _tokens(literal)
        camel = {t.lower() for t in _TOKEN.findall(literal) if re.search(r"[a-z][A-Z]", t) and len(t) >= 6}
        if len(words) < MIN_WORDS:
            continue
        words_of[sid] = sorted(set(words))
        for tok in set(words):
            if _identifier_like(tok) or tok in camel:
                by_anchor.setdefault(tok, set()).add(sid)
    anchors = {tok: sorted(sids) for tok, sids in by_anchor.items() if len(sids) <= MAX_ANCHOR_SIGNATURES}
    return words_of, anchors


class NearMisses:
    def __init__(self, literal_of: dict[str, str] | None = None,
                 tables: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None):
        words_of, anchors = tables if tables is not None else near_tables(literal_of or {})
        self._words: dict[str, frozenset[str]] = {sid: frozenset(w) for sid, w in words_of.items()}
        self._anchors = anchors
        # a line holds an anchor token only if its lower case holds the anchor's text: one automaton search tells
        # the many lines that hold none (most of a plog's kept lines) without splitting them into tokens
        self._any_anchor = (ahocorasick_rs.AhoCorasick(list(self._anchors),
                                                       implementation=ahocorasick_rs.Implementation.ContiguousNFA)
                            if self._anchors else None)

    def of(self, line: str) -> list[NearMiss]:
        """The signatures ``line`` nearly matches, best overlap first."""
        if self._any_anchor is None or not self._any_anchor.find_matches_as_indexes(line.lower()):
            return []
        toks = set(_tokens(line))
        candidates = {sid for tok in toks if tok in self._anchors for sid in self._anchors[tok]}
        out = []
        for sid in candidates:
            words = self._words[sid]
            overlap = len(words & toks) / len(words)
            if overlap >= MIN_OVERLAP:
                out.append(NearMiss(sid, round(overlap, 2)))
        return sorted(out, key=lambda n: (-n.overlap, n.sid))
