"""The fact keys the language knows (``fact_keys.toml``): what a condition may read."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..toml import tomllib

FILE = Path(__file__).with_name("fact_keys.toml")


@lru_cache(maxsize=1)
def _data() -> dict:
    with FILE.open("rb") as fh:
        return tomllib.load(fh)


@lru_cache(maxsize=1)
def _table() -> tuple[dict[str, str], dict[str, str]]:
    data = _data()
    return dict(data["keys"]), dict(data["prefixes"])


def keys() -> dict[str, str]:
    """Every exact fact key with a one-line description."""
    return _table()[0]


def prefixes() -> dict[str, str]:
    """Key prefixes under which any name is a fact (``env.``, ``pkg.``, ``probe.``)."""
    return _table()[1]


@lru_cache(maxsize=1)
def moment() -> frozenset[str]:
    """Keys that say what ran when they were read (``[moment]``): from a report's text they are no evidence."""
    return frozenset(_data().get("moment", {}).get("keys", ()))


def known(key: str) -> bool:
    exact, under = _table()
    return key in exact or any(key.startswith(p) and len(key) > len(p) for p in under)
