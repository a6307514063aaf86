"""JSON Schemas of the knowledge files, generated from the loader's own tables (keys, required keys,
vocabulary, operators, fact keys), so an editor with a TOML language server (Taplo / Even Better TOML)
completes keys and marks errors as you type. ``ascend-doctor kb schema`` writes them;
``docs/schema/`` holds the shipped copies and a test keeps those fresh.

The loader stays the authority (it also checks regexes against their examples, ids across files,
links between entries); the schemas are the part of it an editor can use.
"""
from __future__ import annotations

from typing import Any

from ..language import fact_keys
from ..language.conditions.compat import KEYS as COMPAT_PREDICATE_KEYS
from ..language.conditions.ops import OPS
from ..loader import (CODE_KEYS, CODE_REQUIRED, FAMILY_KEYS, FIX_KEYS, PROBLEM_KEYS, PROBLEM_REQUIRED,
                      SIGNATURE_KEYS, STEP_KEYS, VERSION_COMPONENTS)
from ..model import SILENT_KINDS

DIALECT = "https://json-schema.org/draft/2020-12/schema"
BASE_URL = "https://ascend-doctor.invalid/schema/"
URL = {"type": "string", "pattern": r"^https?://\S+$"}
TEXT = {"type": "string", "minLength": 1}


def _texts(required=("en", "zh")) -> dict[str, Any]:
    return {"type": "object", "properties": {"en": TEXT, "zh": TEXT}, "required": list(required),
            "additionalProperties": False}


def _word_lists() -> dict[str, Any]:
    return {"type": "object", "properties": {"en": {"type": "array", "items": TEXT, "minItems": 1},
                                             "zh": {"type": "array", "items": TEXT, "minItems": 1}},
            "required": ["en", "zh"], "additionalProperties": False}


def condition_schema() -> dict[str, Any]:
    """A condition tree: all / any / not over predicates with a known operator and a known fact key."""
    keys = sorted(fact_keys.keys())
    prefixes = "|".join(p.replace(".", r"\.") for p in fact_keys.prefixes())
    fact = {"anyOf": [{"enum": keys}, {"type": "string", "pattern": rf"^(?:{prefixes})\S+$"}],
            "description": "a fact key (docs/facts.md)"}
    predicate = {
        "type": "object",
        "properties": {
            "fact": fact, "value_fact": fact, "field": {"type": "string"}, "key": {"type": "string"},
            "op": {"enum": list(OPS), "description": "docs/kb/conditions.md"},
            "value": {}, "family": {"type": "string"}, "where": {"$ref": "#/$defs/condition"},
            "if_unknown": {"type": "boolean"},
            **{k: {} for k in COMPAT_PREDICATE_KEYS},
        },
        "required": ["op"], "additionalProperties": False,
    }
    return {"oneOf": [
        {"type": "object", "properties": {"all": {"type": "array", "items": {"$ref": "#/$defs/condition"}, "minItems": 1}},
         "required": ["all"], "additionalProperties": False},
        {"type": "object", "properties": {"any": {"type": "array", "items": {"$ref": "#/$defs/condition"}, "minItems": 1}},
         "required": ["any"], "additionalProperties": False},
        {"type": "object", "properties": {"not": {"$ref": "#/$defs/condition"}}, "required": ["not"],
         "additionalProperties": False},
        predicate,
    ]}


def _family(overlay: bool = False) -> dict[str, Any]:
    props: dict[str, Any] = {"title": _texts(), "key": {"type": "string"}}
    assert set(props) == FAMILY_KEYS
    if overlay:     # an overlay names its problem family and, when it holds both, its code family
        props |= {"name": {"type": "string"}, "code_family": {"type": "string"}}
    return {"type": "object", "properties": props, "additionalProperties": False, "required": ["title"]}


def problems_schema(vocab: dict[str, list[str]]) -> dict[str, Any]:
    signature = {"type": "object", "properties": {
        "literal": {"type": "string", "minLength": 3}, "regex": TEXT,
        "weight": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
        "match": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "no_match": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "source": URL}, "required": ["literal", "regex", "match", "no_match"], "additionalProperties": False}
    step = {"type": "object", "properties": {"en": TEXT, "zh": TEXT, "command": {"type": "string"}},
            "required": ["en", "zh"], "additionalProperties": False}
    fix = {"type": "object", "properties": {"kind": {"enum": vocab["fix_kinds"]}, "summary": _texts(),
                                            "step": {"type": "array", "items": step, "minItems": 1}},
           "required": ["kind", "summary", "step"], "additionalProperties": False}
    problem = {"type": "object", "properties": {
        "id": {"type": "string", "pattern": r"^[a-z0-9][a-z0-9\-]*[a-z0-9]$"},
        "title": _texts(), "summary": _texts(), "root_cause": _texts(),
        "severity": {"enum": vocab["severities"]},
        "hardware": {"type": "array", "items": {"enum": vocab["hardware"]}, "minItems": 1},
        "components": {"type": "array", "items": {"enum": vocab["components"]}, "minItems": 1},
        "codes": {"type": "array", "items": {"type": "string"}},
        "symptoms": _word_lists(),
        "sources": {"type": "array", "items": URL, "minItems": 1},
        "versions": {"type": "object", "propertyNames": {"enum": sorted(VERSION_COMPONENTS)},
                     "additionalProperties": {"type": "string"}},
        "related": {"type": "array", "items": {"type": "string"}},
        "confirm_when": {"$ref": "#/$defs/condition"}, "rule_out_when": {"$ref": "#/$defs/condition"},
        "signature": {"type": "array", "items": signature},
        "fix": {"type": "array", "items": fix, "minItems": 1},
        "stalls": {"type": "array", "items": {"type": "string", "minLength": 8}},
        "silent": {"enum": sorted(SILENT_KINDS)},
    }, "required": list(PROBLEM_REQUIRED), "additionalProperties": False}
    assert set(problem["properties"]) == PROBLEM_KEYS and set(signature["properties"]) == SIGNATURE_KEYS
    assert set(fix["properties"]) == FIX_KEYS and set(step["properties"]) == STEP_KEYS
    return _document("problems", "Known problems (kb/knowledge/problems/*.toml)", {
        "type": "object", "properties": {"family": _family(), "problem": {"type": "array", "items": {"$ref": "#/$defs/problem"}}},
        "additionalProperties": False}, {"problem": problem, "condition": condition_schema()})


def codes_schema(vocab: dict[str, list[str]]) -> dict[str, Any]:
    code = {"type": "object", "properties": {
        "code": TEXT, "name": {"type": "string"}, "meaning": _texts(), "causes": _word_lists(), "action": _texts(),
        "level": {"enum": vocab["fault_levels"]}, "problems": {"type": "array", "items": {"type": "string"}},
        "sources": {"type": "array", "items": URL, "minItems": 1},
        "generic": {"type": "boolean", "description": "a catch-all code: alone it names no cause"}},
        "required": list(CODE_REQUIRED), "additionalProperties": False}
    assert set(code["properties"]) == CODE_KEYS
    return _document("codes", "Error codes (kb/knowledge/codes/<family>.toml)", {
        "type": "object", "properties": {"family": _family(), "code": {"type": "array", "items": {"$ref": "#/$defs/code"}}},
        "additionalProperties": False}, {"code": code})


def overlay_schema(vocab: dict[str, list[str]]) -> dict[str, Any]:
    """A user overlay (``kb add``): problems, codes or both, under one [family] that names them."""
    problems, codes = problems_schema(vocab), codes_schema(vocab)
    return _document("overlay", "A user overlay (ascend-doctor kb add FILE)", {
        "type": "object", "properties": {"family": _family(overlay=True),
                                         "problem": {"type": "array", "items": {"$ref": "#/$defs/problem"}},
                                         "code": {"type": "array", "items": {"$ref": "#/$defs/code"}}},
        "additionalProperties": False}, {**problems["$defs"], **codes["$defs"]})


def compat_schema() -> dict[str, Any]:
    cell = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    row = {"type": "object", "properties": {"source": URL}, "required": ["source"], "additionalProperties": cell}
    return _document("compat", "Compatibility matrices (kb/knowledge/compat/<matrix>.toml)", {
        "type": "object", "properties": {"matrix": _family(), "row": {"type": "array", "items": row}},
        "additionalProperties": False}, {})


def _document(name: str, title: str, body: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    doc = {"$schema": DIALECT, "$id": f"{BASE_URL}{name}.schema.json", "title": title, **body}
    if defs:
        doc["$defs"] = defs
    return doc


def knowledge_schemas(vocab: dict[str, list[str]]) -> dict[str, dict[str, Any]]:
    """File name -> schema, for every kind of knowledge file."""
    return {"problems.schema.json": problems_schema(vocab), "codes.schema.json": codes_schema(vocab),
            "compat.schema.json": compat_schema(), "overlay.schema.json": overlay_schema(vocab)}


def vocabulary() -> dict[str, list[str]]:
    """The controlled words of the shipped knowledge (kb/knowledge/vocabulary.toml)."""
    from ..paths import KNOWLEDGE_DIR
    from ..toml import tomllib

    with (KNOWLEDGE_DIR / "vocabulary.toml").open("rb") as fh:
        return {k: list(v) for k, v in tomllib.load(fh).items() if isinstance(v, list)}


def render_schemas(extra: dict[str, dict[str, Any]] | None = None) -> dict[str, str]:
    """File name -> JSON text of every knowledge schema and the ``extra`` ones (the rule files' schema,
    which the rules package generates): stable, so the shipped copies can be compared."""
    import json

    schemas = {**knowledge_schemas(vocabulary()), **(extra or {})}
    return {name: json.dumps(schema, ensure_ascii=False, indent=2) + "\n" for name, schema in schemas.items()}


def write_schemas(out_dir, extra: dict[str, dict[str, Any]] | None = None) -> list[str]:
    from pathlib import Path

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pages = render_schemas(extra)
    for name, text in pages.items():
        (out / name).write_text(text, encoding="utf-8")
    return sorted(pages)
