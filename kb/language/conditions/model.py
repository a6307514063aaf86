"""What a condition is evaluated against and what it yields, and how a predicate finds its subject."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..facts import Fact, FactSet

#: Version family of a fact, so that "8.5.0" from cann.version never compares with an HDK version.
VERSION_FAMILY = {
    "driver.version": "hdk",
    "firmware.version": "firmware",
    "cann.version": "cann",
    "kernel.release": "kernel",
    "python.version": "python",
    "mindie.version": "mindie",
    "nnal.atb.version": "nnal",
}


def family_of(fact_key: str) -> str | None:
    """The version family of a fact key: its entry in VERSION_FAMILY, ``pypi`` for ``pkg.*``."""
    if fact_key in VERSION_FAMILY:
        return VERSION_FAMILY[fact_key]
    return "pypi" if fact_key.startswith("pkg.") else None


class ConditionError(ValueError):
    """A condition table that does not follow the grammar."""


@dataclass
class Outcome:
    """Result of evaluating a (sub)condition."""

    value: bool | None                         # None: unknown
    notes: list[str] = field(default_factory=list)     # what was observed
    reasons: list[str] = field(default_factory=list)   # why unknown: which fact, why

    @property
    def unknown(self) -> bool:
        return self.value is None


@dataclass
class Context:
    """What a condition is evaluated against."""

    facts: FactSet
    compat: Callable[[str], list[dict[str, Any]]] | None = None   # matrix name -> rows (KnowledgeBase.compat)
    item: Any = None                                               # current item inside any_item/all_items
    item_label: str = ""

    def with_item(self, item: Any, label: str) -> "Context":
        return Context(self.facts, self.compat, item, label)


def lookup(cond: Mapping[str, Any], ctx: Context) -> tuple[bool, Any, str, Fact | None]:
    """(found, value, label, fact) of the predicate's subject. found=False means unknown."""
    if "field" in cond:
        item = ctx.item
        label = f"{ctx.item_label}.{cond['field']}"
        if cond["field"] == ".":
            return True, item, ctx.item_label, None
        if not isinstance(item, Mapping) or cond["field"] not in item:
            return False, None, label, None
        value = item[cond["field"]]
        if value is None:
            return False, None, label, None
        return True, value, label, None
    key = cond["fact"]
    fact = ctx.facts.get(key)
    if fact is None or not fact.ok:
        return False, None, key, fact
    value = fact.value
    label = key
    if "key" in cond:
        label = f"{key}[{cond['key']}]"
        if not isinstance(value, Mapping) or cond["key"] not in value:
            return False, None, label, fact
        value = value[cond["key"]]
    return True, value, label, fact
