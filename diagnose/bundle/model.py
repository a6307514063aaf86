"""One entry of a support bundle: a file it holds, or something it looked for and left out (and why)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: why something was left out or cut; the words for people are in render/messages.py (bundle.reason.*)
REASONS = ("missing", "denied", "timeout", "failed", "empty", "no_devices", "link", "not_regular", "binary",
           "core_dump", "size_limit", "too_many", "not_ascend")


@dataclass
class Entry:
    """``name`` is the path inside the archive (empty when nothing was kept); ``source`` the command or
    file on the machine. ``kept`` is False for a skipped entry, whose ``reason`` is one of ``REASONS``
    (``detail`` says more, in English, for support). ``truncated``: only the last ``size`` of
    ``original_size`` bytes are kept (a log's newest lines). ``redactions``: kind -> values removed."""

    kind: str                       # snapshot | npu-smi | kernel | log
    source: str
    name: str = ""
    data: bytes = b""
    kept: bool = True
    reason: str = ""
    detail: str = ""
    original_size: int = 0
    truncated: bool = False
    redactions: dict[str, int] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)       # kind-specific: exit code, line counts, mtime

    @property
    def size(self) -> int:
        return len(self.data)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "source": self.source}
        if self.kept:
            d.update(name=self.name, size=self.size, original_size=self.original_size or self.size,
                     truncated=self.truncated, redactions=dict(self.redactions))
        else:
            d.update(reason=self.reason)
        if self.detail:
            d["detail"] = self.detail
        d.update(self.info)
        return d


def skipped(kind: str, source: str, reason: str, detail: str = "", **info: Any) -> Entry:
    assert reason in REASONS, reason
    return Entry(kind=kind, source=source, kept=False, reason=reason, detail=detail, info=dict(info))
