"""Condition trees: ``all`` / ``any`` / ``not`` over predicates ``{fact, op, value}``; validated and evaluated.

Conditions are data (TOML tables); nothing here evaluates code. Evaluation is three-valued: ``True``,
``False`` or unknown (``None``) when a fact the predicate needs was not collected (status not ``ok``,
or never probed). ``all`` / ``any`` / ``not`` follow Kleene logic, so ``any`` is true as soon as one
branch is true even if another is unknown, and an unknown is never turned into a pass: the engine
reports it as ERROR with the reasons gathered here.

Predicate keys (the operators are in ``ops.py``; for people: docs/conditions.md)::

    fact        fact key (fact_keys.toml); inside ``where`` of an item op, ``field`` names a key of the item
    key         optional key into a dict value  (mounts.present + key "/usr/local/Ascend/driver/lib64")
    op          an operator of OPS
    value       literal operand;  value_fact: take the operand from another fact instead
    family      version family for version ops (default: from the fact key)
    if_unknown  what an unavailable fact means here (true / false), for documented cases only
"""
from __future__ import annotations

import difflib
from typing import Any, Callable, Mapping

from ..facts import MISSING, describe_status, show
from ..version import FAMILIES
from . import compat
from .model import ConditionError, Context, Outcome, family_of, lookup
from .ops import OPS, Undecided, check_value

PRED_KEYS = {"fact", "field", "key", "op", "value", "value_fact", "family", "where", "if_unknown", *compat.KEYS}
ITEM_OPS = tuple(name for name, op in OPS.items() if op.kind == "items")


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


def validate(cond: Any, where: str = "condition", in_item: bool = False,
             known_fact: Callable[[str], bool] | None = None) -> list[str]:
    """Problems with a condition table (empty when it follows the grammar). With ``known_fact``, a
    fact key it does not know is a problem too."""
    if not isinstance(cond, Mapping):
        return [f"{where}: must be a table"]
    branches = [k for k in ("all", "any", "not") if k in cond]
    if branches:
        if len(cond) != 1:
            return [f"{where}: '{branches[0]}' must be alone in its table (found {sorted(cond)})"]
        k = branches[0]
        if k == "not":
            return validate(cond["not"], f"{where}.not", in_item, known_fact)
        subs = cond[k]
        if not isinstance(subs, list) or not subs:
            return [f"{where}.{k}: must be a non-empty list of conditions"]
        return [e for i, sub in enumerate(subs) for e in validate(sub, f"{where}.{k}[{i}]", in_item, known_fact)]
    return _validate_predicate(cond, where, in_item, known_fact)


def _validate_predicate(cond: Mapping[str, Any], where: str, in_item: bool,
                        known_fact: Callable[[str], bool] | None) -> list[str]:
    errs: list[str] = []
    unknown = set(cond) - PRED_KEYS
    if unknown:
        errs.append(f"{where}: unknown key(s) {sorted(unknown)}")
    name = cond.get("op")
    op = OPS.get(name) if isinstance(name, str) else None
    if op is None:
        near = difflib.get_close_matches(name, list(OPS), n=1, cutoff=0.6) if isinstance(name, str) else []
        hint = f" (did you mean {near[0]}?)" if near else ""
        return errs + [f"{where}: unknown op {name!r}{hint}"]
    if op.kind == "fleet":
        return errs + [f"{where}: op {name} compares nodes: it belongs in a fleet rule's 'aggregate', "
                              "not in a condition on one machine"]
    fact = cond.get("fact")
    has_fact = isinstance(fact, str) and bool(fact)
    has_field = isinstance(cond.get("field"), str) and bool(cond["field"])
    if op.kind != "compat" or "fact" in cond:
        if has_field and not in_item:
            errs.append(f"{where}: 'field' is only allowed inside 'where' of {', '.join(ITEM_OPS)}")
        if not has_fact and not has_field:
            errs.append(f"{where}: needs 'fact' (or 'field' inside 'where')")
        if has_fact and has_field:
            errs.append(f"{where}: give 'fact' or 'field', not both")
    keys = [k for k in (fact if has_fact else None, cond.get("value_fact")) if isinstance(k, str)]
    keys += [k for k in (cond.get("row") or {}).values() if isinstance(k, str)] if isinstance(cond.get("row"), Mapping) else []
    if known_fact is not None:
        errs += [f"{where}: unknown fact key {k!r} (the fact keys are listed in docs/facts.md)"
                 for k in keys if not known_fact(k)]
    if "value_fact" in cond and not isinstance(cond["value_fact"], str):
        errs.append(f"{where}: 'value_fact' must be a fact key")
    family = cond.get("family")
    if family is not None and family not in FAMILIES:
        errs.append(f"{where}: unknown version family {family!r}; use one of {list(FAMILIES)}")
        family = None
    family = family or (family_of(fact) if has_fact else None)
    if "value" in cond:
        why = check_value(op, cond["value"], family)
        if why:
            errs.append(f"{where}: {why}")
    elif op.needs_value and "value_fact" not in cond:
        errs.append(f"{where}: op {op.name} needs 'value' or 'value_fact'")
    if op.kind == "items":
        if "where" not in cond:
            errs.append(f"{where}: op {op.name} needs 'where'")
        else:
            errs += validate(cond["where"], f"{where}.where", True, known_fact)
    elif "where" in cond:
        errs.append(f"{where}: 'where' is only for {', '.join(ITEM_OPS)}")
    if op.kind == "compat":
        errs += compat.validate(cond, where)
    elif set(compat.KEYS) & set(cond):
        errs.append(f"{where}: {sorted(set(compat.KEYS) & set(cond))} only for the compatibility-matrix operators (compat_has, compat_lacks, compat_superseded)")
    if "if_unknown" in cond and not isinstance(cond["if_unknown"], bool):
        errs.append(f"{where}: 'if_unknown' must be true or false")
    return errs


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
    out = _predicate(cond, ctx)
    if out.unknown and "if_unknown" in cond:
        # the condition says what an unavailable fact means here (e.g. npu_smi.dcmi_error is absent when
        # npu-smi printed no DCMI code); used only for such documented cases
        taken = str(bool(cond["if_unknown"])).lower()
        return Outcome(bool(cond["if_unknown"]), out.notes + [f"{r} (taken as {taken})" for r in out.reasons])
    return out


def _predicate(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    op = OPS.get(cond.get("op"))
    if op is None:
        raise ConditionError(f"unknown op {cond.get('op')!r}")
    if op.kind == "status":
        return _status(cond, ctx)
    if op.kind == "compat":
        return compat.evaluate(cond, ctx)
    if op.kind == "fleet":
        raise ConditionError(f"op {op.name} compares nodes: only in a fleet rule's aggregate")
    found, value, label, fact = lookup(cond, ctx)
    if not found:
        if "field" in cond:
            return Outcome(None, reasons=[f"{label}: no value"])
        if fact is not None and fact.ok:      # the dict key is absent
            return Outcome(None, reasons=[f"{label}: key not present in {cond['fact']}"])
        return Outcome(None, reasons=[describe_status(cond["fact"], fact)])
    operand = cond.get("value")
    if "value_fact" in cond:
        other = ctx.facts.get(cond["value_fact"])
        if other is None or not other.ok:
            return Outcome(None, reasons=[describe_status(cond["value_fact"], other)])
        operand = other.value
    note = f"{label} = {show(value)}"
    family = cond.get("family") or family_of(cond.get("fact", ""))
    try:
        result = _items(op.name, value, cond, ctx, label) if op.kind == "items" else op.apply(value, operand, family)
    except Undecided as exc:
        return Outcome(None, [note], [f"{label}: {exc}"])
    if isinstance(result, tuple):
        result, extra = result
        note = f"{note} ({extra})" if extra else note
    return Outcome(result, [note])


def _status(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    name = cond["op"]
    if "field" in cond:
        found, value, label, _ = lookup(cond, ctx)
        shown = f"{label} = {show(value)}" if found else f"{label}: absent"
        if name == "exists":
            return Outcome(found, [shown])
        if name == "missing":
            return Outcome(not found, [shown])
        raise ConditionError("status_in needs a fact")
    key = cond.get("fact") or ""
    fact = ctx.facts.get(key)
    if fact is None:
        return Outcome(None, reasons=[f"{key}: not collected"])
    note = f"{key} = {show(fact.value)}" if fact.ok else describe_status(key, fact)
    if name == "status_in":
        wanted = cond["value"] if isinstance(cond["value"], list) else [cond["value"]]
        return Outcome(fact.status in wanted, [note])
    present = {"exists": True, "missing": False}[name]
    if fact.ok:
        return Outcome(present, [note])
    if fact.status == MISSING:
        return Outcome(not present, [note])
    return Outcome(None, [note], [describe_status(key, fact)])


def _item_label(item: Any, label: str, i: int) -> str:
    if isinstance(item, Mapping):
        ids = [f"{k} {item[k]}" for k in ("npu_id", "chip_id", "pid", "name") if item.get(k) is not None]
        if ids:
            return f"{label}[{', '.join(ids)}]"
    return f"{label}[{i}]"


def _items(op: str, v: Any, cond: Mapping[str, Any], ctx: Context, label: str):
    if not isinstance(v, (list, tuple)):
        raise Undecided(f"{type(v).__name__} is not a list")
    outs = [evaluate(cond["where"], ctx.with_item(it, _item_label(it, label, i))) for i, it in enumerate(v)]
    trues = [o for o in outs if o.value is True]
    unknown = [o for o in outs if o.unknown]
    if op in ("any_item", "no_item"):
        if not trues and unknown:
            raise Undecided("; ".join(r for o in unknown for r in o.reasons))
        notes = "; ".join(n for o in trues for n in o.notes) or f"{len(v)} item(s), none matching"
        return (bool(trues) if op == "any_item" else not trues), notes
    falses = [o for o in outs if o.value is False]
    if falses:
        return False, "; ".join(n for o in falses for n in o.notes)
    if unknown:
        raise Undecided("; ".join(r for o in unknown for r in o.reasons))
    return True, f"all {len(v)} item(s)"


def op_kind(cond: Mapping[str, Any]) -> str:
    op = OPS.get(cond.get("op")) if isinstance(cond.get("op"), str) else None
    return op.kind if op else ""


def describe(cond: Any) -> str:
    """A condition tree in words, for people: ``npu_smi.path is known and not (npu_smi.info status is
    one of timeout)``."""
    if not isinstance(cond, dict):
        return str(cond)
    for key, joiner in (("all", " and "), ("any", " or ")):
        if key in cond and isinstance(cond[key], list):
            parts = [describe(c) for c in cond[key]]
            return joiner.join(f"({p})" if (" and " in p or " or " in p) else p for p in parts)
    if "not" in cond:
        return f"not ({describe(cond['not'])})"
    fact = cond.get("fact") or cond.get("field") or cond.get("matrix") or cond.get("prefix") or \
        (", ".join(cond["facts"]) if isinstance(cond.get("facts"), list) else None) or \
        ("nodes" if op_kind(cond) == "fleet" else "?")
    name = str(cond.get("op", ""))
    op = OPS.get(name)
    word = op.words if op else name.replace("_", " ")
    value = cond.get("value", cond.get("value_fact", ""))
    if isinstance(value, list):
        value = ", ".join(str(v) for v in value)
    if op and op.kind == "items" and isinstance(cond.get("where"), dict):
        value = f"({describe(cond['where'])})"
    if op and op.kind == "fleet":
        what = f"{fact}.{cond['field']}" if cond.get("field") else fact
        where = f" ({describe(cond['where'])})" if isinstance(cond.get("where"), dict) else ""
        return f"{what} {word}{(' ' + str(cond['value'])) if 'value' in cond else ''}{where}".rstrip()
    return f"{fact} {word} {value}".rstrip()
