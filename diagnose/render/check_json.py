"""``check`` as JSON, schema ``ascend-doctor/check/1`` (documented in docs/check.md)."""
from __future__ import annotations

from .console import dumps_json

from typing import Any

from .check_common import SCHEMA, CheckReport


def check_dict(report: CheckReport) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "tool": {"name": "ascend-doctor", "version": report.version},
        "origin": report.origin,
        "lang": report.lang,
        "duration_ms": round(report.duration_ms, 3),
        "results": [r.to_dict(report.lang) for r in report.results],
        "facts": report.facts.to_list(),
        "summary": report.summary(),
    }


def check_json(report: CheckReport) -> str:
    return dumps_json(check_dict(report), ensure_ascii=False, indent=2) + "\n"
