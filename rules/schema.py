"""The JSON Schema of the rule files (``rules/builtin/*.toml``), generated from the catalogue's own
tables and the shared condition language, for editors; ``ascend-doctor kb schema`` writes it beside
the knowledge schemas."""
from __future__ import annotations

from typing import Any

from ascend_doctor.kb.authoring.schemas import BASE_URL, DIALECT, condition_schema

from .catalog import ID_RE, LANGS, REQUIRED, RULE_KEYS, SEVERITIES, SLUG_RE, load_groups


def rules_schema() -> dict[str, Any]:
    text = {"type": "object", "properties": {lang: {"type": "string", "minLength": 1} for lang in LANGS},
            "required": list(LANGS), "additionalProperties": False}
    cond = {"$ref": "#/$defs/condition"}
    rule = {"type": "object", "properties": {
        "id": {"type": "string", "pattern": ID_RE.pattern}, "slug": {"type": "string", "pattern": SLUG_RE.pattern},
        "group": {"enum": [g.id for g in load_groups()]}, "severity": {"enum": list(SEVERITIES)},
        "problem": {"type": "string", "description": "id of the KB problem this rule checks for (its sources)"},
        "title": text, "skip": text, "message": text, "fix": text, "ok": text, "warn_message": text,
        "applies_when": cond, "condition": cond, "warn_when": cond,
    }, "required": list(REQUIRED), "additionalProperties": False}
    assert set(rule["properties"]) == RULE_KEYS
    return {"$schema": DIALECT, "$id": f"{BASE_URL}rules.schema.json", "title": "Environment rules (rules/builtin/*.toml)",
            "type": "object", "properties": {"rule": {"type": "array", "items": rule}},
            "additionalProperties": False, "$defs": {"condition": condition_schema()}}
