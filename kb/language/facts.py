"""Facts: what the probes observed about a machine, and the FactSet the rules read.

A Fact is one observed thing with where it came from (``source``), whether it
could be collected (``status``) and how long that took. A FactSet is the whole
observation of one machine; serialised, it is the body of a snapshot.

The fact keys are listed in ``fact_keys.toml`` beside this module (for people: docs/facts.md). Values are JSON-compatible
(str, int, float, bool, None, lists and dicts of those).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

# Probe statuses. Only ``ok`` carries a usable value; every other status says
# why the value is absent, and a rule that needs such a fact reports ERROR.
OK = "ok"
MISSING = "missing"      # the thing does not exist (file, binary, package, variable)
DENIED = "denied"        # permission denied
TIMEOUT = "timeout"      # the command did not answer in time (a hung npu-smi)
ERROR = "error"          # the command failed (non-zero exit, crash)
UNPARSED = "unparsed"    # output present but not in a format we recognise
STATUSES = (OK, MISSING, DENIED, TIMEOUT, ERROR, UNPARSED)


@dataclass(frozen=True)
class Fact:
    key: str
    value: Any = None
    status: str = OK
    source: str = ""          # command line, file path or "derived" / "text:<file>:<line>"
    detail: str = ""          # why a non-ok status happened, or parse notes
    duration_ms: float = 0.0

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"fact {self.key!r}: unknown status {self.status!r}")

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"key": self.key, "value": self.value, "status": self.status, "source": self.source}
        if self.detail:
            d["detail"] = self.detail
        d["duration_ms"] = round(self.duration_ms, 3)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Fact":
        return cls(
            key=str(d["key"]),
            value=d.get("value"),
            status=str(d.get("status", OK)),
            source=str(d.get("source", "")),
            detail=str(d.get("detail", "")),
            duration_ms=float(d.get("duration_ms", 0.0)),
        )


@dataclass
class FactSet:
    """All facts about one machine, keyed by fact key (the last one added wins)."""

    facts: dict[str, Fact] = field(default_factory=dict)
    origin: str = ""          # "live", "sim:<profile>", "replay:<file>", "text"

    def add(self, fact: Fact) -> None:
        self.facts[fact.key] = fact

    def extend(self, facts: "FactSet | list[Fact]") -> None:
        for f in (facts.facts.values() if isinstance(facts, FactSet) else facts):
            self.add(f)

    def get(self, key: str) -> Fact | None:
        return self.facts.get(key)

    def value(self, key: str, default: Any = None) -> Any:
        f = self.facts.get(key)
        return f.value if f is not None and f.ok else default

    def __contains__(self, key: str) -> bool:
        return key in self.facts

    def __iter__(self) -> Iterator[Fact]:
        return iter(sorted(self.facts.values(), key=lambda f: f.key))

    def __len__(self) -> int:
        return len(self.facts)

    def to_list(self) -> list[dict[str, Any]]:
        return [f.to_dict() for f in self]

    @classmethod
    def from_list(cls, items: list[Mapping[str, Any]], origin: str = "") -> "FactSet":
        fs = cls(origin=origin)
        for d in items:
            fs.add(Fact.from_dict(d))
        return fs


def show(value: Any, limit: int = 160) -> str:
    """A short human form of a fact value for messages and evidence."""
    if value is None:
        text = "none"
    elif isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, str):
        text = value if value else '""'
    elif isinstance(value, (list, tuple)):
        sep = "; " if any(isinstance(v, Mapping) for v in value) else ", "
        parts, size = [], 0
        for v in value:                 # the text is cut at ``limit``: items past it are never shown
            part = show(v, limit)
            parts.append(part)
            size += len(part) + len(sep)
            if size > limit:
                break
        text = sep.join(parts) if value else "(none)"
    elif isinstance(value, Mapping):
        text = " ".join(f"{k}={v if not isinstance(v, (dict, list)) else json.dumps(v, ensure_ascii=False, default=str)}"
                        for k, v in value.items() if v is not None)
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def describe_status(key: str, fact: Fact | None) -> str:
    """Why a fact has no usable value, in words: ``npu_smi.info: timeout from npu-smi info (...)``."""
    if fact is None:
        return f"{key}: not collected"
    detail = f" ({fact.detail})" if fact.detail else ""
    src = f" from {fact.source}" if fact.source else ""
    return f"{key}: {fact.status}{src}{detail}"
