"""What every parser returns, and the small helpers they share."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

OK = "ok"
UNPARSED = "unparsed"

# prompts and command echoes people paste above an output ("[root@x ~]# npu-smi info", "$ ...")
MASKED = re.compile(r"^(?:x+|X+|\*+)$")
NULLS = {"", "NA", "N/A", "-", "--", "null", "None"}


@dataclass
class ParseResult:
    kind: str
    status: str = OK                      # "ok" or "unparsed"
    value: dict[str, Any] | None = None
    reason: str = ""                      # why it is unparsed
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status == OK

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "status": self.status, "value": self.value}
        if self.reason:
            d["reason"] = self.reason
        if self.notes:
            d["notes"] = list(self.notes)
        return d


def unparsed(kind: str, reason: str, notes: list[str] | None = None) -> ParseResult:
    return ParseResult(kind=kind, status=UNPARSED, value=None, reason=reason, notes=notes or [])


def number(text: str | None) -> int | float | None:
    """``"93.1"`` -> 93.1, ``"36"`` -> 36; ``NA``, ``-``, masked or anything else -> None (never a guess)."""
    if text is None:
        return None
    t = text.strip()
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    if re.fullmatch(r"-?\d+\.\d+", t):
        return float(t)
    return None


def null_or(text: str | None) -> str | None:
    if text is None:
        return None
    t = text.strip()
    return None if t in NULLS or MASKED.match(t) else t


def norm_key(key: str) -> str:
    """``"Memory Usage Rate(%)"`` -> ``"memory_usage_rate_pct"``; ``"HBM Capacity(MB)"`` -> ``"hbm_capacity_mb"``."""
    k = key.strip().replace("(%)", " pct").replace("%", " pct")
    k = re.sub(r"\((\w+)\)", r" \1", k)
    k = re.sub(r"[^0-9A-Za-z]+", "_", k).strip("_").lower()
    return k


def size_bytes(text: str) -> "int | None":
    """A size with an optional binary unit ("65536k" from /proc/mounts, "16g" / "1.5G" / "64mb" from
    docker's --shm-size) in bytes; None for anything else."""
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([bkmg]?)b?", text.strip().lower())
    if not m:
        return None
    return int(float(m.group(1)) * {"": 1, "b": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2)])
