"""``fleet`` as JSON, schema ``ascend-doctor/fleet/1`` (documented in docs/fleet.md)."""
from __future__ import annotations

from .console import dumps_json
from .fleet_common import fleet_dict


def fleet_json(report) -> str:
    return dumps_json(fleet_dict(report), ensure_ascii=False, indent=2) + "\n"
