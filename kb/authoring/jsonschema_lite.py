"""A validator for the subset of JSON Schema that ``schemas.py`` writes (type, enum, required,
properties, additionalProperties, propertyNames, items, minItems, minLength, pattern, number bounds,
anyOf / oneOf, local ``$ref``), so ``kb lint`` checks files exactly as an editor does without a
runtime dependency. Each error names the path inside the document (``problem[3].fix[0].kind``)."""
from __future__ import annotations

import re
from typing import Any, Iterator

_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def _is_type(value: Any, name: str) -> bool:
    if name in ("number", "integer"):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        return ok and (name == "number" or isinstance(value, int))
    return isinstance(value, _TYPES[name])


def errors(schema: dict[str, Any], value: Any, root: dict[str, Any] | None = None, path: str = "") -> Iterator[str]:
    """Every way ``value`` breaks ``schema``, as ``path: message``."""
    root = root if root is not None else schema
    where = path or "(file)"
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        yield from errors(root["$defs"][name], value, root, path)
        return
    if "type" in schema and not _is_type(value, schema["type"]):
        yield f"{where}: must be a{'n' if schema['type'][0] in 'aeiou' else ''} {schema['type']}"
        return
    if "enum" in schema and value not in schema["enum"]:
        shown = schema["enum"] if len(schema["enum"]) <= 12 else schema["enum"][:12] + ["..."]
        yield f"{where}: {value!r} is not one of {shown}"
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = [list(errors(s, value, root, path)) for s in schema[key]]
            passing = [b for b in branches if not b]
            if not passing:
                yield min(branches, key=len)[0] if key == "anyOf" else _closest(branches, where)
            elif key == "oneOf" and len(passing) > 1:
                yield f"{where}: matches more than one form"
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            yield f"{where}: must not be empty" if schema["minLength"] == 1 else \
                f"{where}: must have at least {schema['minLength']} characters"
        if "pattern" in schema and not re.search(schema["pattern"], value):
            yield f"{where}: {value!r} does not have the expected form"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "exclusiveMinimum" in schema and not value > schema["exclusiveMinimum"]:
            yield f"{where}: must be above {schema['exclusiveMinimum']}"
        if "maximum" in schema and not value <= schema["maximum"]:
            yield f"{where}: must be at most {schema['maximum']}"
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            yield f"{where}: needs at least {schema['minItems']} item(s)"
        if "items" in schema:
            for i, item in enumerate(value):
                yield from errors(schema["items"], item, root, f"{path}[{i}]")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                yield f"{where}: missing required key {key!r}"
        props = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            sub = f"{path}.{key}" if path else key
            if "propertyNames" in schema:
                yield from (e.replace(f"{sub}:", f"{where}: key", 1) for e in errors(schema["propertyNames"], key, root, sub))
            if key in props:
                yield from errors(props[key], item, root, sub)
            elif extra is False:
                yield f"{where}: unknown key {key!r}"
            elif isinstance(extra, dict):
                yield from errors(extra, item, root, sub)


def _closest(branches: list[list[str]], where: str) -> str:
    """The error of the branch that came closest (the fewest errors), for a readable oneOf message."""
    best = min(branches, key=len)
    return best[0] if len(best) == 1 else f"{where}: does not match any allowed form ({best[0]})"
