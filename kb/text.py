"""Text normalisation shared by search and diagnose: case, synonyms (卡住 = hang = stuck), terms."""
from __future__ import annotations

import re
from functools import cached_property

_TERM = re.compile(r"[a-z0-9][a-z0-9_.\-]*|[\u3400-\u9fff]+")
_CJK = re.compile(r"[\u3400-\u9fff]")


def is_cjk(term: str) -> bool:
    return bool(_CJK.match(term))


class Normalizer:
    """Maps every word of a synonym group to the group's first word, lower-cased."""

    def __init__(self, groups: list[list[str]]):
        self.canonical: dict[str, str] = {}
        for group in groups:
            head = group[0].lower()
            for w in group:
                self.canonical[_key(w.lower())] = head

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        if not self.canonical:
            return None
        parts = []
        for w in sorted(self.canonical, key=len, reverse=True):
            if is_cjk(w):       # users often type Chinese words apart: 权重 加载 = 权重加载
                parts.append(r"\s*".join(re.escape(ch) for ch in w.replace(" ", "")))
                continue
            esc = re.escape(w).replace(r"\ ", r"[\s_\-]+")
            parts.append(rf"(?<![a-z0-9]){esc}(?![a-z0-9])")
        return re.compile("|".join(parts))

    def normalize(self, text: str) -> str:
        low = text.lower()
        if self._pattern is None:
            return low
        return self._pattern.sub(lambda m: f" {self.canonical[_key(m.group(0))]} ", low)

    def terms(self, text: str) -> list[str]:
        """Distinct terms of the normalised text, in order."""
        seen: dict[str, None] = {}
        for t in _TERM.findall(self.normalize(text)):
            seen.setdefault(t.strip(".-_"), None)
        return [t for t in seen if t]

    def group_words(self, canonical: str) -> list[str]:
        return [w for w, c in self.canonical.items() if c == canonical]


def _squash(s: str) -> str:
    return re.sub(r"[\s_\-]+", " ", s)


def _key(s: str) -> str:
    """The spelling a synonym is looked up by: words apart by one space; Chinese with no space at all."""
    return re.sub(r"\s+", "", s) if is_cjk(s) else _squash(s)
