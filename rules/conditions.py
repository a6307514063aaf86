"""Condition trees over facts: ``all`` / ``any`` / ``not`` over predicates ``{fact, op, value}``.

Conditions are data (TOML tables); nothing here evaluates code. Evaluation is three-valued:
``True``, ``False`` or unknown (``None``) when a fact the predicate needs was not collected
(status not ``ok``, or never probed). ``all`` / ``any`` / ``not`` follow Kleene logic, so
``any`` is true as soon as one branch is true even if another is unknown, and an unknown is
never turned into a pass: the engine reports it as ERROR with the reasons gathered here.

Predicate keys::

    fact      fact key (docs/facts.md); inside ``where`` of an item op, ``field`` names a key of the item
    key       optional key into a dict value  (mounts.present + key "/usr/local/Ascend/driver/lib64")
    op        see OPS below
    value     literal operand;  value_fact: take the operand from another fact instead
    family    version family for version ops (default: from the fact key)

Ops::

    eq ne in not_in contains not_contains matches not_matches          equality, membership, regex
    lt le gt ge  is_int                                                 numbers (strings like "120" count)
    len_eq len_lt len_le len_gt len_ge                                  length of a list / string / dict
    version_lt version_le version_gt version_ge version_eq version_ne   Ascend version grammar (rules/version.py)
    version_in version_not_in                                           value: a range or a list of ranges
    exists missing status_in                                            about the fact's status (never unknown
                                                                        once the fact was probed)
    any_item all_items no_item                                          over a list (of dicts): ``where`` is a
                                                                        condition whose predicates use ``field``
    device_list_bad                                                     a device-id list ("0,1,2") that is not
                                                                        comma-separated ascending distinct ids
                                                                        below ``value_fact`` / ``value``
    compat_has compat_lacks                                             a row of a KB compatibility matrix (see
                                                                        _compat) lists / does not list the fact
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Mapping

from .facts import MISSING, OK, STATUSES, FactSet
from .version import Version, VersionError, parse, parse_spec

# version family of a fact, so that "8.5.0" from cann.version never compares with an HDK version
VERSION_FAMILY = {
    "driver.version": "hdk",
    "firmware.version": "firmware",
    "cann.version": "cann",
    "kernel.release": "kernel",
    "python.version": "python",
    "mindie.version": "mindie",
    "nnal.atb.version": "nnal",
}

CMP_OPS = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
           "ge": lambda a, b: a >= b}
LEN_OPS = {"len_eq": lambda a, b: a == b, "len_lt": lambda a, b: a < b, "len_le": lambda a, b: a <= b,
           "len_gt": lambda a, b: a > b, "len_ge": lambda a, b: a >= b}
VERSION_OPS = {"version_lt": lambda c: c < 0, "version_le": lambda c: c <= 0, "version_gt": lambda c: c > 0,
               "version_ge": lambda c: c >= 0, "version_eq": lambda c: c == 0, "version_ne": lambda c: c != 0}
STATUS_OPS = ("exists", "missing", "status_in")
ITEM_OPS = ("any_item", "all_items", "no_item")
COMPAT_OPS = ("compat_has", "compat_lacks")
OPS = ({"eq", "ne", "in", "not_in", "contains", "not_contains", "matches", "not_matches", "is_int",
        "version_in", "version_not_in", "device_list_bad"}
       | set(CMP_OPS) | set(LEN_OPS) | set(VERSION_OPS) | set(STATUS_OPS) | set(ITEM_OPS) | set(COMPAT_OPS))
NEEDS_VALUE = ({"eq", "ne", "in", "not_in", "contains", "not_contains", "matches", "not_matches",
                "version_in", "version_not_in", "status_in", "is_int"}
               | set(CMP_OPS) | set(LEN_OPS) | set(VERSION_OPS))
PRED_KEYS = {"fact", "field", "key", "op", "value", "value_fact", "family", "where", "matrix", "row", "select",
             "column", "if_no_row", "if_unknown", "line"}


class ConditionError(ValueError):
    """A condition table that does not follow the grammar."""


@dataclass
class Outcome:
    """Result of evaluating a (sub)condition."""

    value: bool | None                         # None: unknown
    notes: list[str] = field(default_factory=list)     # evidence: what was observed
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


# -- formatting ------------------------------------------------------------------------------------
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
        text = sep.join(show(v, limit) for v in value) if value else "(none)"
    elif isinstance(value, Mapping):
        text = " ".join(f"{k}={v if not isinstance(v, (dict, list)) else json.dumps(v, ensure_ascii=False, default=str)}"
                        for k, v in value.items() if v is not None)
    else:
        text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe_status(key: str, fact) -> str:
    if fact is None:
        return f"{key}: not collected"
    detail = f" ({fact.detail})" if fact.detail else ""
    src = f" from {fact.source}" if fact.source else ""
    return f"{key}: {fact.status}{src}{detail}"


# -- walking ---------------------------------------------------------------------------------------
def facts_used(cond: Any) -> list[str]:
    """Every fact key a condition reads (in order, without duplicates)."""
    out: list[str] = []

    def walk(c: Any) -> None:
        if not isinstance(c, Mapping):
            return
        for k in ("all", "any"):
            for sub in c.get(k, []) or []:
                walk(sub)
        if "not" in c:
            walk(c["not"])
        for k in ("fact", "value_fact"):
            if isinstance(c.get(k), str) and c[k] not in out:
                out.append(c[k])
        if isinstance(c.get("row"), Mapping):
            for fk in c["row"].values():
                if isinstance(fk, str) and fk not in out:
                    out.append(fk)
        if "where" in c:
            walk(c["where"])

    walk(cond)
    return out


def validate(cond: Any, where: str = "condition", in_item: bool = False) -> list[str]:
    """Problems with a condition table (empty when it follows the grammar)."""
    errs: list[str] = []
    if not isinstance(cond, Mapping):
        return [f"{where}: must be a table"]
    branches = [k for k in ("all", "any", "not") if k in cond]
    if branches:
        if len(cond) != 1:
            return [f"{where}: '{branches[0]}' must be alone in its table (found {sorted(cond)})"]
        k = branches[0]
        if k == "not":
            return validate(cond["not"], f"{where}.not", in_item)
        subs = cond[k]
        if not isinstance(subs, list) or not subs:
            return [f"{where}.{k}: must be a non-empty list of conditions"]
        for i, sub in enumerate(subs):
            errs += validate(sub, f"{where}.{k}[{i}]", in_item)
        return errs
    unknown = set(cond) - PRED_KEYS
    if unknown:
        errs.append(f"{where}: unknown key(s) {sorted(unknown)}")
    op = cond.get("op")
    if op not in OPS:
        return errs + [f"{where}: unknown op {op!r}"]
    has_fact = isinstance(cond.get("fact"), str) and cond["fact"]
    has_field = isinstance(cond.get("field"), str) and cond["field"]
    if op not in COMPAT_OPS or "fact" in cond:
        if has_field and not in_item:
            errs.append(f"{where}: 'field' is only allowed inside 'where' of {', '.join(ITEM_OPS)}")
        if not has_fact and not has_field:
            errs.append(f"{where}: needs 'fact' (or 'field' inside 'where')")
        if has_fact and has_field:
            errs.append(f"{where}: give 'fact' or 'field', not both")
    if op in NEEDS_VALUE and "value" not in cond and "value_fact" not in cond:
        errs.append(f"{where}: op {op} needs 'value' or 'value_fact'")
    if "value_fact" in cond and not isinstance(cond["value_fact"], str):
        errs.append(f"{where}: 'value_fact' must be a fact key")
    val = cond.get("value")
    if op in ("in", "not_in") and "value" in cond and not isinstance(val, list):
        errs.append(f"{where}: op {op} needs a list value")
    if op in ("matches", "not_matches"):
        try:
            _regex(val)
        except (re.error, TypeError) as exc:
            errs.append(f"{where}: bad regex {val!r}: {exc}")
    if op == "status_in":
        vals = val if isinstance(val, list) else [val]
        bad = [v for v in vals if v not in STATUSES]
        if bad:
            errs.append(f"{where}: unknown status(es) {bad}; use {list(STATUSES)}")
    family = cond.get("family") or (VERSION_FAMILY.get(cond.get("fact", "")) if has_fact else None)
    if op in VERSION_OPS and "value" in cond:
        try:
            parse(val, family)
        except VersionError as exc:
            errs.append(f"{where}: {exc}")
    if op in ("version_in", "version_not_in") and "value" in cond:
        for spec in (val if isinstance(val, list) else [val]):
            try:
                parse_spec(spec, family)
            except VersionError as exc:
                errs.append(f"{where}: {exc}")
    if op in (set(CMP_OPS) | set(LEN_OPS)) and "value" in cond and (
            isinstance(val, bool) or not isinstance(val, (int, float))):
        errs.append(f"{where}: op {op} needs a number value")
    if op in ITEM_OPS:
        if "where" not in cond:
            errs.append(f"{where}: op {op} needs 'where'")
        else:
            errs += validate(cond["where"], f"{where}.where", in_item=True)
    if op in COMPAT_OPS:
        if not isinstance(cond.get("matrix"), str):
            errs.append(f"{where}: op {op} needs 'matrix'")
        if not isinstance(cond.get("column"), str):
            errs.append(f"{where}: op {op} needs 'column'")
        row, select = cond.get("row", {}), cond.get("select", {})
        if not isinstance(row, Mapping) or not isinstance(select, Mapping) or not (row or select):
            errs.append(f"{where}: op {op} needs 'row' (column = fact key) and/or 'select' (column = value)")
        if cond.get("if_no_row", "unknown") not in ("unknown", True, False):
            errs.append(f"{where}: 'if_no_row' must be \"unknown\", true or false")
        if "line" in cond and (not isinstance(cond["line"], int) or isinstance(cond["line"], bool) or cond["line"] < 1):
            errs.append(f"{where}: 'line' must be a positive integer (release fields to compare)")
    if "if_unknown" in cond and not isinstance(cond["if_unknown"], bool):
        errs.append(f"{where}: 'if_unknown' must be true or false")
    return errs


@lru_cache(maxsize=512)
def _regex(pattern: str) -> re.Pattern:
    if not isinstance(pattern, str):
        raise TypeError("regex must be a string")
    return re.compile(pattern)


# -- evaluation ------------------------------------------------------------------------------------
def evaluate(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    if "all" in cond:
        subs = [evaluate(c, ctx) for c in cond["all"]]
        if any(s.value is False for s in subs):
            return Outcome(False, [n for s in subs if s.value is False for n in s.notes])
        if any(s.unknown for s in subs):
            return Outcome(None, [n for s in subs for n in s.notes], [r for s in subs for r in s.reasons])
        return Outcome(True, [n for s in subs for n in s.notes])
    if "any" in cond:
        subs = [evaluate(c, ctx) for c in cond["any"]]
        if any(s.value is True for s in subs):
            return Outcome(True, [n for s in subs if s.value is True for n in s.notes])
        if any(s.unknown for s in subs):
            return Outcome(None, [n for s in subs for n in s.notes], [r for s in subs for r in s.reasons])
        return Outcome(False, [n for s in subs for n in s.notes])
    if "not" in cond:
        sub = evaluate(cond["not"], ctx)
        return Outcome(None if sub.unknown else not sub.value, sub.notes, sub.reasons)
    return _predicate(cond, ctx)


def _lookup(cond: Mapping[str, Any], ctx: Context) -> tuple[bool, Any, str, Any]:
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


def _operand(cond: Mapping[str, Any], ctx: Context) -> tuple[bool, Any, str]:
    if "value_fact" in cond:
        key = cond["value_fact"]
        fact = ctx.facts.get(key)
        if fact is None or not fact.ok:
            return False, None, _describe_status(key, fact)
        return True, fact.value, ""
    return True, cond.get("value"), ""


def _predicate(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    out = _predicate_raw(cond, ctx)
    if out.unknown and "if_unknown" in cond:
        # the rule says what an unavailable fact means here (e.g. npu_smi.dcmi_error is absent when
        # npu-smi printed no DCMI code); used only for such documented cases
        return Outcome(bool(cond["if_unknown"]), out.notes + [f"{r} (taken as {str(bool(cond['if_unknown'])).lower()})"
                                                              for r in out.reasons])
    return out


def _predicate_raw(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    op = cond["op"]
    if op in STATUS_OPS:
        return _status_pred(cond, ctx)
    if op in COMPAT_OPS:
        return _compat(cond, ctx)
    found, value, label, fact = _lookup(cond, ctx)
    if not found:
        if "field" in cond:
            return Outcome(None, reasons=[f"{label}: no value"])
        if fact is not None and fact.ok:      # the dict key is absent
            return Outcome(None, reasons=[f"{label}: key not present in {cond['fact']}"])
        return Outcome(None, reasons=[_describe_status(cond["fact"], fact)])
    ok, operand, why = _operand(cond, ctx)
    if not ok:
        return Outcome(None, reasons=[why])
    note = f"{label} = {show(value)}"
    try:
        result = _apply(op, value, operand, cond, ctx, label)
    except _Unknown as exc:
        return Outcome(None, [note], [f"{label}: {exc}"])
    if isinstance(result, tuple):
        result, extra = result
        note = f"{note} ({extra})" if extra else note
    return Outcome(result, [note])


class _Unknown(Exception):
    """The predicate cannot be decided from this value (not a number, not a version...)."""


def _number(v: Any) -> float:
    if isinstance(v, bool):
        raise _Unknown(f"{v!r} is not a number")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            pass
    raise _Unknown(f"{show(v)!r} is not a number")


def _version(v: Any, family: str | None) -> Version:
    try:
        return parse(v if not isinstance(v, (int, float)) else str(v), family)
    except VersionError as exc:
        raise _Unknown(f"cannot read a version: {exc}") from None


def _apply(op: str, v: Any, operand: Any, cond: Mapping[str, Any], ctx: Context, label: str):
    if op == "eq":
        return v == operand
    if op == "ne":
        return v != operand
    if op == "in":
        return v in (operand or [])
    if op == "not_in":
        return v not in (operand or [])
    if op in ("contains", "not_contains"):
        if isinstance(v, Mapping):
            hit = operand in v
        elif isinstance(v, (list, tuple)):
            hit = operand in v
        elif isinstance(v, str):
            hit = str(operand) in v
        else:
            raise _Unknown(f"cannot look inside {type(v).__name__}")
        return hit if op == "contains" else not hit
    if op in ("matches", "not_matches"):
        rx = _regex(operand)
        items = v if isinstance(v, (list, tuple)) else [v]
        hit = any(rx.search(str(x)) for x in items if x is not None)
        return hit if op == "matches" else not hit
    if op == "is_int":
        ok = isinstance(v, int) and not isinstance(v, bool) or isinstance(v, str) and bool(re.fullmatch(r"\s*-?\d+\s*", v))
        return ok == bool(operand)
    if op in CMP_OPS:
        return CMP_OPS[op](_number(v), _number(operand))
    if op in LEN_OPS:
        if not isinstance(v, (list, tuple, str, Mapping)):
            raise _Unknown(f"{type(v).__name__} has no length")
        return LEN_OPS[op](len(v), _number(operand)), f"{len(v)} item(s)" if not isinstance(v, str) else ""
    family = cond.get("family") or VERSION_FAMILY.get(cond.get("fact", ""), "pypi" if str(cond.get("fact", "")).startswith("pkg.") else None)
    if op in VERSION_OPS:
        a, b = _version(v, family), _version(operand, family)
        try:
            c = a.cmp(b, strict=False)
        except VersionError as exc:
            raise _Unknown(str(exc)) from None
        return VERSION_OPS[op](c)
    if op in ("version_in", "version_not_in"):
        ver = _version(v, family)
        specs = operand if isinstance(operand, list) else [operand]
        try:
            hit = any(parse_spec(s, family).matches(ver) for s in specs)
        except VersionError as exc:
            raise _Unknown(str(exc)) from None
        return hit if op == "version_in" else not hit
    if op in ITEM_OPS:
        return _items(op, v, cond, ctx, label)
    if op == "device_list_bad":
        return _device_list_bad(v, operand)
    raise ConditionError(f"unknown op {op!r}")  # pragma: no cover - validate() rejects it first


def _status_pred(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    key = cond.get("fact") or ""
    if "field" in cond:
        found, value, label, _ = _lookup(cond, ctx)
        present = found
        if cond["op"] == "exists":
            return Outcome(present, [f"{label} = {show(value)}" if present else f"{label}: absent"])
        if cond["op"] == "missing":
            return Outcome(not present, [f"{label}: absent" if not present else f"{label} = {show(value)}"])
        raise ConditionError("status_in needs a fact")
    fact = ctx.facts.get(key)
    if fact is None:
        return Outcome(None, reasons=[f"{key}: not collected"])
    note = f"{key} = {show(fact.value)}" if fact.ok else _describe_status(key, fact)
    op = cond["op"]
    if op == "status_in":
        wanted = cond["value"] if isinstance(cond["value"], list) else [cond["value"]]
        return Outcome(fact.status in wanted, [note])
    if op == "exists":
        if fact.ok:
            return Outcome(True, [note])
        if fact.status == MISSING:
            return Outcome(False, [note])
        return Outcome(None, [note], [_describe_status(key, fact)])
    # missing
    if fact.status == MISSING:
        return Outcome(True, [note])
    if fact.ok:
        return Outcome(False, [note])
    return Outcome(None, [note], [_describe_status(key, fact)])


def _item_label(item: Any, label: str, i: int) -> str:
    if isinstance(item, Mapping):
        ids = [f"{k} {item[k]}" for k in ("npu_id", "chip_id", "pid", "name") if item.get(k) is not None]
        if ids:
            return f"{label}[{', '.join(ids)}]"
    return f"{label}[{i}]"


def _items(op: str, v: Any, cond: Mapping[str, Any], ctx: Context, label: str):
    if not isinstance(v, (list, tuple)):
        raise _Unknown(f"{type(v).__name__} is not a list")
    outs = [(evaluate(cond["where"], ctx.with_item(it, _item_label(it, label, i))), it)
            for i, it in enumerate(v)]
    trues = [o for o, _ in outs if o.value is True]
    unknown = [o for o, _ in outs if o.unknown]
    if op == "any_item" or op == "no_item":
        if trues:
            hit: bool | None = True
        elif unknown:
            hit = None
        else:
            hit = False
        notes = [n for o in trues for n in o.notes]
        if hit is None:
            raise _Unknown("; ".join(r for o in unknown for r in o.reasons))
        if op == "no_item":
            return (not hit), "; ".join(notes) if notes else f"{len(v)} item(s), none matching"
        return hit, "; ".join(notes) if notes else f"{len(v)} item(s), none matching"
    # all_items
    falses = [o for o, _ in outs if o.value is False]
    if falses:
        return False, "; ".join(n for o in falses for n in o.notes)
    if unknown:
        raise _Unknown("; ".join(r for o in unknown for r in o.reasons))
    return True, f"all {len(v)} item(s)"


def _device_list_bad(v: Any, count: Any):
    """A device list the CANN runtime reads as comma-separated ascending ids, stopping at the first bad one."""
    text = str(v)
    if isinstance(v, (int,)) and not isinstance(v, bool):
        text = str(v)
    n = None
    if count is not None:
        n = int(_number(count))
    parts = text.split(",")
    ids: list[int] = []
    for p in parts:
        if not re.fullmatch(r"\d+", p):
            return True, f"'{p}' is not a device id (the runtime stops reading there)" if p.strip() else "empty entry"
        ids.append(int(p))
    for a, b in zip(ids, ids[1:]):
        if b <= a:
            return True, f"ids must be ascending and distinct: {a} then {b}"
    if n is not None:
        bad = [i for i in ids if i >= n]
        if bad:
            return True, f"no device {', '.join(map(str, bad))}: {n} device(s) present (ids 0-{n - 1})"
    return False, ""


# -- compatibility matrices --------------------------------------------------------------------------
def _family_for(key: str) -> str | None:
    if key in VERSION_FAMILY:
        return VERSION_FAMILY[key]
    return "pypi" if key.startswith("pkg.") else None


def _cell_values(cell: Any) -> list[str]:
    if cell is None:
        return []
    if isinstance(cell, list):
        return [str(c) for c in cell]
    return [str(cell)]


def cell_matches(cell: Any, value: Any, family: str | None) -> bool:
    """True when a matrix cell (a value, a version, a range, a series, or a list of them) covers ``value``."""
    sval = str(value).strip()
    for c in _cell_values(cell):
        if c.strip().lower() == sval.lower():
            return True
        try:
            if parse_spec(c, family).matches(sval, family):
                return True
        except VersionError:
            continue
    return False


def _same_release(cell: Any, value: Any, family: str | None, fields: int | None = None) -> bool:
    """A cell version with the same release numbers as ``value`` (the first ``fields`` of them if given)."""
    try:
        v = parse(str(value), family)
    except VersionError:
        return False
    for c in _cell_values(cell):
        try:
            cv = parse(c, family)
        except VersionError:
            continue
        if not cv.vrc and not v.vrc:
            if fields:
                if cv.line(fields) == v.line(fields):
                    return True
                continue
            w = max(len(cv.release), len(v.release))
            same_kind = cv.is_prerelease == v.is_prerelease and (not v.is_prerelease or cv.quals[0] == v.quals[0])
            if same_kind and cv.release + (0,) * (w - len(cv.release)) == v.release + (0,) * (w - len(v.release)):
                return True
    return False


def _compat(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    """``compat_has``: a selected row's ``column`` covers the fact's value (``compat_lacks``: it does not).

    Rows are chosen by ``select`` (column = literal) and ``row`` (column = fact key whose value the
    cell must cover). When no row covers a version exactly, rows of the same release are used
    (torch_npu 2.9.0.post3 -> the 2.9.0 rows) and the note says so. With no row at all the
    result is unknown, unless ``if_no_row`` says true/false (no row = no constraint).
    """
    matrix = cond["matrix"]
    column = cond["column"]
    if ctx.compat is None:
        return Outcome(None, reasons=[f"compatibility matrix {matrix}: knowledge base not available"])
    rows = ctx.compat(matrix)
    if not rows:
        return Outcome(None, reasons=[f"compatibility matrix {matrix}: no rows in the knowledge base"])
    reasons: list[str] = []
    row_vals: dict[str, Any] = {}
    for col, key in (cond.get("row") or {}).items():
        fact = ctx.facts.get(key)
        if fact is None or not fact.ok:
            reasons.append(_describe_status(key, fact))
        else:
            row_vals[col] = (key, fact.value)
    subject = None
    if "fact" in cond:
        found, subject, label, fact = _lookup(cond, ctx)
        if not found:
            reasons.append(_describe_status(cond["fact"], fact) if fact is None or not fact.ok
                           else f"{label}: no value")
    if reasons:
        return Outcome(None, reasons=reasons)
    selected = [r for r in rows if all(str(r.get(c, "")).lower() == str(v).lower()
                                       for c, v in (cond.get("select") or {}).items())]
    picked = [r for r in selected
              if all(cell_matches(r.get(c), v, _family_for(k)) for c, (k, v) in row_vals.items())]
    approx = ""
    if not picked and row_vals:
        picked = [r for r in selected
                  if all(cell_matches(r.get(c), v, _family_for(k)) or _same_release(r.get(c), v, _family_for(k))
                         for c, (k, v) in row_vals.items())]
        if picked:
            approx = " (no exact row; rows of the same release)"
    want = ", ".join(f"{c}={show(v)}" for c, (_, v) in row_vals.items())
    sel = ", ".join(f"{c}={v}" for c, v in (cond.get("select") or {}).items())
    where = ", ".join(x for x in (sel, want) if x)
    if not picked:
        policy = cond.get("if_no_row", "unknown")
        note = f"{matrix}: no row for {where}"
        if policy == "unknown":
            return Outcome(None, [note], [f"{note} in the knowledge base, so this cannot be checked"])
        return Outcome(bool(policy), [note])
    fam = _family_for(cond.get("fact", "")) if "fact" in cond else None
    cells = [(r, r.get(column)) for r in picked if r.get(column) not in (None, [], "")]
    if subject is None:       # no fact: "the row has a non-empty column"
        has = bool(cells)
        hits = [r for r, _ in cells]
    else:
        line = cond.get("line")
        hits = [r for r, cell in cells if cell_matches(cell, subject, fam)
                or (line and _same_release(cell, subject, fam, line))]
        has = bool(hits)
    shown = hits if has else [r for r, _ in cells] or picked
    listed = "; ".join(f"{show(r.get(column)) if r.get(column) not in (None, []) else '(none)'}"
                       f" [{r.get('source', '')}]" for r in shown[:4])
    subj = f"{cond['fact']} = {show(subject)}; " if subject is not None else ""
    note = f"{subj}{matrix} rows for {where}{approx}: {column} = {listed}"
    return Outcome(has if cond["op"] == "compat_has" else not has, [note])


def known_fact_statuses() -> tuple[str, ...]:
    return STATUSES


__all__ = ["Context", "Outcome", "ConditionError", "evaluate", "validate", "facts_used", "show", "cell_matches",
           "OPS", "VERSION_FAMILY", "OK"]


_WORDS = {"eq": "=", "ne": "≠", "in": "is one of", "not_in": "is none of", "contains": "contains",
          "not_contains": "does not contain", "matches": "matches", "not_matches": "does not match",
          "version_lt": "<", "version_le": "≤", "version_gt": ">", "version_ge": "≥", "version_eq": "=",
          "version_ne": "≠", "version_in": "is in", "version_not_in": "is not in", "status_in": "status is one of",
          "exists": "is known", "missing": "is missing", "lt": "<", "le": "≤", "gt": ">", "ge": "≥"}


def describe(cond: Any) -> str:
    """A condition tree in words, for people: ``npu_smi.path is known and not (npu_smi.info status is
    one of timeout)``. Operators it has no word for are shown by name."""
    if not isinstance(cond, dict):
        return str(cond)
    for key, joiner in (("all", " and "), ("any", " or ")):
        if key in cond and isinstance(cond[key], list):
            parts = [describe(c) for c in cond[key]]
            return joiner.join(f"({p})" if (" and " in p or " or " in p) else p for p in parts)
    if "not" in cond:
        return f"not ({describe(cond['not'])})"
    fact = cond.get("fact") or cond.get("matrix") or "?"
    if cond.get("field"):
        fact = f"{fact}.{cond['field']}"
    op = str(cond.get("op", ""))
    word = _WORDS.get(op, op.replace("_", " "))
    value = cond.get("value", cond.get("value_fact", ""))
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    return f"{fact} {word} {value}".rstrip()
