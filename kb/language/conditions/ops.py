"""The operators of the condition language, one object each.

An :class:`Op` holds everything about one operator: which kind of evaluation it needs, what its
``value`` must be (checked by :func:`check_value` when knowledge or rules are loaded), how it is
said in words, a one-line description and an example. ``docs/conditions.md`` is generated from this
table (``ascend-doctor kb docs``); :data:`OPS` is the only list of operators.

Kinds of evaluation:

``value``
    the fact's value against the operand (``value`` or ``value_fact``): :attr:`Op.apply` decides.
``status``
    about the fact's status (``exists``, ``missing``, ``status_in``); never unknown once probed.
``items``
    over a list (of dicts): ``where`` is a condition whose predicates use ``field``.
``compat``
    a row of a compatibility matrix of the knowledge base (see ``compat.py``).
``fleet``
    compares many nodes: only in a fleet rule's ``aggregate`` (evaluated in ``fleet.py``), never in a
    condition on one machine.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Mapping

from ..facts import STATUSES, show
from ..version import Version, VersionError, parse, parse_spec


class Undecided(Exception):
    """The predicate cannot be decided from this value (not a number, not a version...)."""


#: What an operator's ``value`` must be. Each maps to the words of an error and a check.
VALUE_KINDS = {
    "none": "no value",
    "any": "any value",
    "list": "a list",
    "scalar": "a string or a number",
    "regex": "a regular expression",
    "bool": "true or false",
    "number": "a number",
    "version": "a version",
    "versions": "a version range or a list of ranges",
    "statuses": f"a status or a list of statuses ({', '.join(STATUSES)})",
    "count": "a number (the device count)",
}


@dataclass(frozen=True)
class Op:
    name: str
    kind: str                  # value | status | items | compat | fleet
    value: str                 # a key of VALUE_KINDS
    words: str                 # how describe() says it: "npu.count < 8"
    doc: str                   # one line for docs/conditions.md
    example: str               # a predicate as written in TOML
    apply: Callable[..., Any] | None = None   # kind "value": (value, operand, family) -> bool | (bool, note)

    @property
    def needs_value(self) -> bool:
        return self.value not in ("none", "count")


# -- value checks --------------------------------------------------------------------------------
@lru_cache(maxsize=512)
def regex(pattern: str) -> re.Pattern:
    if not isinstance(pattern, str):
        raise TypeError("regex must be a string")
    return re.compile(pattern)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check_value(op: Op, val: Any, family: str | None) -> str:
    """Why ``val`` is not a valid ``value`` of ``op`` ("" when it is)."""
    kind = op.value
    want = VALUE_KINDS[kind]
    if kind == "none":
        return f"op {op.name} takes no 'value'"
    if kind in ("any",):
        return ""
    if kind == "list":
        return "" if isinstance(val, list) else f"op {op.name} needs {want}, not {show(val)!r}"
    if kind == "scalar":
        return "" if isinstance(val, (str, int, float)) and not isinstance(val, bool) else \
            f"op {op.name} needs {want}, not {show(val)!r}"
    if kind == "regex":
        try:
            regex(val)
        except (re.error, TypeError) as exc:
            return f"bad regex {val!r}: {exc}"
        return ""
    if kind == "bool":
        return "" if isinstance(val, bool) else f"op {op.name} needs {want}, not {show(val)!r}"
    if kind in ("number", "count"):
        return "" if _is_number(val) else f"op {op.name} needs {want}, not {show(val)!r}"
    if kind == "version":
        if not isinstance(val, (str, int, float)) or isinstance(val, bool):
            return f"op {op.name} needs {want}, not {show(val)!r}"
        try:
            parse(str(val), family)
        except VersionError as exc:
            return str(exc)
        return ""
    if kind == "versions":
        specs = val if isinstance(val, list) else [val]
        for spec in specs:
            if not isinstance(spec, str):
                return f"op {op.name} needs {want}, not {show(spec)!r}"
            try:
                parse_spec(spec, family)
            except VersionError as exc:
                return str(exc)
        return ""
    if kind == "statuses":
        vals = val if isinstance(val, list) else [val]
        bad = [v for v in vals if v not in STATUSES]
        return f"unknown status(es) {bad}; use {list(STATUSES)}" if bad else ""
    raise AssertionError(kind)  # pragma: no cover - every kind is listed above


# -- evaluation helpers --------------------------------------------------------------------------
def number(v: Any) -> float:
    if isinstance(v, bool):
        raise Undecided(f"{v!r} is not a number")
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            pass
    raise Undecided(f"{show(v)!r} is not a number")


def version(v: Any, family: str | None) -> Version:
    try:
        return parse(v if not isinstance(v, (int, float)) else str(v), family)
    except VersionError as exc:
        raise Undecided(f"cannot read a version: {exc}") from None


def _contains(v: Any, operand: Any) -> bool:
    if isinstance(v, (Mapping, list, tuple)):
        return operand in v
    if isinstance(v, str):
        return str(operand) in v
    raise Undecided(f"cannot look inside {type(v).__name__}")


def _matches(v: Any, operand: Any) -> bool:
    rx = regex(operand)
    items = v if isinstance(v, (list, tuple)) else [v]
    return any(rx.search(str(x)) for x in items if x is not None)


def _is_int(v: Any, operand: Any) -> bool:
    ok = (isinstance(v, int) and not isinstance(v, bool)) or (
        isinstance(v, str) and bool(re.fullmatch(r"\s*-?\d+\s*", v)))
    return ok == bool(operand)


def _length(v: Any) -> int:
    if not isinstance(v, (list, tuple, str, Mapping)):
        raise Undecided(f"{type(v).__name__} has no length")
    return len(v)


def _len_op(test: Callable[[int, float], bool]) -> Callable[..., Any]:
    def apply(v: Any, operand: Any, family: str | None):
        n = _length(v)
        return test(n, number(operand)), (f"{n} item(s)" if not isinstance(v, str) else "")
    return apply


def _version_cmp(test: Callable[[int], bool]) -> Callable[..., Any]:
    def apply(v: Any, operand: Any, family: str | None) -> bool:
        a, b = version(v, family), version(operand, family)
        try:
            if a.names_line_of(b):
                # '25.5' (as a report writes 'HDK25.5') is any release of that line: decided only when its first
                # and a late release of it answer alike ('25.5' < '25.5.1' is not known; < '26.0' is)
                first, late = a.line_bounds(len(b.release))
                low, high = test(first.cmp(b, strict=False)), test(late.cmp(b, strict=False))
                if low != high:
                    raise Undecided(f"{a.raw} names every release of its line, and {b.raw} is one of them")
                return low
            return test(a.cmp(b, strict=False))
        except VersionError as exc:
            raise Undecided(str(exc)) from None
    return apply


def _version_in(v: Any, operand: Any, family: str | None) -> bool:
    ver = version(v, family)
    specs = operand if isinstance(operand, list) else [operand]
    try:
        return any(parse_spec(s, family).matches(ver) for s in specs)
    except VersionError as exc:
        raise Undecided(str(exc)) from None


def device_list_bad(v: Any, count: Any, family: str | None = None):
    """A device list the CANN runtime reads as comma-separated ascending ids, stopping at the first bad one."""
    n = int(number(count)) if count is not None else None
    ids: list[int] = []
    for part in str(v).split(","):
        if not re.fullmatch(r"\d+", part):
            return True, (f"'{part}' is not a device id (the runtime stops reading there)" if part.strip()
                          else "empty entry")
        ids.append(int(part))
    for a, b in zip(ids, ids[1:]):
        if b <= a:
            return True, f"ids must be ascending and distinct: {a} then {b}"
    if n is not None:
        bad = [i for i in ids if i >= n]
        if bad:
            return True, f"no device {', '.join(map(str, bad))}: {n} device(s) present (ids 0-{n - 1})"
    return False, ""


def _negate(fn: Callable[..., Any]) -> Callable[..., Any]:
    return lambda v, operand, family: not fn(v, operand, family)


def _plain(fn: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    return lambda v, operand, family: fn(v, operand)


_contains3, _matches3 = _plain(_contains), _plain(_matches)

_TABLE = [
    Op("eq", "value", "any", "=", "the value equals `value`", '{ fact = "container.kind", op = "eq", value = "docker" }',
       _plain(lambda v, o: v == o)),
    Op("ne", "value", "any", "≠", "the value differs from `value`", '{ fact = "arch", op = "ne", value = "aarch64" }',
       _plain(lambda v, o: v != o)),
    Op("in", "value", "list", "is one of", "the value is one of the list", '{ fact = "hardware.family", op = "in", value = ["a2", "a3"] }',
       _plain(lambda v, o: v in (o or []))),
    Op("not_in", "value", "list", "is none of", "the value is none of the list", '{ fact = "os.id", op = "not_in", value = ["openEuler"] }',
       _plain(lambda v, o: v not in (o or []))),
    Op("contains", "value", "scalar", "contains", "a list or dict has the item / key, a string has the text",
       '{ fact = "user.groups", op = "contains", value = "HwHiAiUser" }', _contains3),
    Op("not_contains", "value", "scalar", "does not contain", "the opposite of `contains`",
       '{ fact = "driver.modules", op = "not_contains", value = "drv_devdrv" }', _negate(_contains3)),
    Op("matches", "value", "regex", "matches", "the regular expression finds the value (any item of a list)",
       '{ fact = "kernel.release", op = "matches", value = "^6\\\\." }', _matches3),
    Op("not_matches", "value", "regex", "does not match", "the opposite of `matches`",
       '{ fact = "os.pretty_name", op = "not_matches", value = "LTS" }', _negate(_matches3)),
    Op("is_int", "value", "bool", "is an integer:", "the value is (true) or is not (false) an integer or integer text",
       '{ fact = "env.ASCEND_RT_VISIBLE_DEVICES", op = "is_int", value = true }', _plain(_is_int)),
]
for _name, _word, _test in (("lt", "<", lambda a, b: a < b), ("le", "≤", lambda a, b: a <= b),
                            ("gt", ">", lambda a, b: a > b), ("ge", "≥", lambda a, b: a >= b)):
    _TABLE.append(Op(_name, "value", "number", _word, f"a number (or number text) {_word} `value`",
                     f'{{ fact = "shm.size_bytes", op = "{_name}", value = 1073741824 }}',
                     (lambda t: lambda v, o, f: t(number(v), number(o)))(_test)))
for _name, _word, _test in (("len_eq", "has length =", lambda a, b: a == b), ("len_lt", "has length <", lambda a, b: a < b),
                            ("len_le", "has length ≤", lambda a, b: a <= b), ("len_gt", "has length >", lambda a, b: a > b),
                            ("len_ge", "has length ≥", lambda a, b: a >= b)):
    _TABLE.append(Op(_name, "value", "number", _word, f"the length of a list, string or dict {_word.split()[-1]} `value`",
                     f'{{ fact = "npu.devices", op = "{_name}", value = 8 }}', _len_op(_test)))
for _name, _word, _test in (("version_lt", "<", lambda c: c < 0), ("version_le", "≤", lambda c: c <= 0),
                            ("version_gt", ">", lambda c: c > 0), ("version_ge", "≥", lambda c: c >= 0),
                            ("version_eq", "=", lambda c: c == 0), ("version_ne", "≠", lambda c: c != 0)):
    _TABLE.append(Op(_name, "value", "version", _word,
                     f"the version {_word} `value` in the Ascend version grammar of the fact's family",
                     f'{{ fact = "driver.version", op = "{_name}", value = "25.5.3" }}', _version_cmp(_test)))
_TABLE += [
    Op("version_in", "value", "versions", "is in", "the version is in a range (`>=8.3,<8.5`, `8.5.x`) or one of a list of ranges",
       '{ fact = "cann.version", op = "version_in", value = [">=8.2,<8.3", "8.5.*"] }', _version_in),
    Op("version_not_in", "value", "versions", "is not in", "the opposite of `version_in`",
       '{ fact = "kernel.release", op = "version_not_in", value = "<6.0" }', _negate(_version_in)),
    Op("device_list_bad", "value", "count", "is a bad device list for",
       "a device-id list (`0,1,2`) that is not comma-separated ascending distinct ids below `value` / `value_fact`",
       '{ fact = "env.ASCEND_RT_VISIBLE_DEVICES", op = "device_list_bad", value_fact = "npu.count" }', device_list_bad),
    Op("exists", "status", "none", "is known", "the fact was collected (status ok); false when missing",
       '{ fact = "npu_smi.path", op = "exists" }'),
    Op("missing", "status", "none", "is missing", "the thing does not exist (status missing); false when ok",
       '{ fact = "mounts.present", key = "/usr/local/Ascend/driver/lib64", op = "missing" }'),
    Op("status_in", "status", "statuses", "status is one of", "the fact's status is one of the list",
       '{ fact = "npu_smi.info", op = "status_in", value = ["timeout"] }'),
    Op("any_item", "items", "none", "has an item where", "some item of the list satisfies `where`",
       '{ fact = "npu.health", op = "any_item", where = { field = "health", op = "ne", value = "OK" } }'),
    Op("all_items", "items", "none", "has every item where", "every item of the list satisfies `where`",
       '{ fact = "npu.boards", op = "all_items", where = { field = "compatibility", op = "eq", value = "OK" } }'),
    Op("no_item", "items", "none", "has no item where", "no item of the list satisfies `where`",
       '{ fact = "npu.processes", op = "no_item", where = { field = "container_pid", op = "exists" } }'),
    Op("compat_has", "compat", "none", "lists", "a selected row of a compatibility matrix lists the fact's value in `column`",
       '{ fact = "driver.version", op = "compat_has", matrix = "hdk-cann", row = { cann = "cann.version" }, column = "hdk" }'),
    Op("compat_lacks", "compat", "none", "does not list", "the opposite of `compat_has`",
       '{ fact = "driver.version", op = "compat_lacks", matrix = "hdk-cann", row = { cann = "cann.version" }, column = "hdk", if_no_row = false }'),
    Op("compat_superseded", "compat", "none", "is a pre-release superseded in",
       "the fact's version is a pre-release (rcN, alpha, beta, dev) and `column` of the matrix lists a later release",
       '{ fact = "pkg.vllm_ascend", op = "compat_superseded", matrix = "vllm-ascend", column = "vllm_ascend" }'),
]

_TABLE += [
    Op("uniform", "fleet", "none", "is identical on every node:",
       "fleet: the value (of each fact, or of each item's `field`) is the same on every node in scope; the reference "
       "is the --baseline value, else a strict majority's (the others are outliers), else a split naming every cohort",
       '{ op = "uniform", fact = "hccn.devices", field = "tls_switch" }'),
    Op("unique", "fleet", "none", "is unique across the nodes:",
       "fleet: no value (of the fact, or of each item's `field`) repeats across the nodes in scope; `per = \"node\"`: "
       "one value per node, its items agreeing",
       '{ op = "unique", fact = "hccn.devices", field = "ipaddr" }'),
    Op("each", "fleet", "none", "holds on no node:",
       "fleet: `where` (a condition on one node) is tested on every node; the nodes where it holds are outliers",
       '{ op = "each", where = { fact = "clock.ntp_synchronized", op = "eq", value = false } }'),
    Op("on_root", "fleet", "number", "holds not on the root node of a fleet of at least",
       "fleet: `where` is tested on the node hosting MASTER_ADDR (else rank 0 of the rank table), when the fleet "
       "has at least `value` nodes",
       '{ op = "on_root", value = 32, where = { fact = "sysctl.somaxconn", op = "lt", value = 65535 } }'),
    Op("coverage", "fleet", "none", "every expected node sent a readable snapshot:",
       "fleet: every node of --expect-nodes sent a snapshot and every snapshot could be read",
       '{ op = "coverage" }'),
    Op("subnet_plan", "fleet", "none", "follows the product's NPU NIC subnet plan:",
       "fleet: NPU NIC addresses follow the product's plan (A2 one subnet per node; A3 the two dies of an NPU in "
       "different subnets; 910 devices i and i+4 paired)",
       '{ op = "subnet_plan" }'),
    Op("rank_table_matches", "fleet", "none", "matches every node's NICs:",
       "fleet: the rank table is sound and each node's entry matches its live NPU NIC addresses (and SDIDs on A3)",
       '{ op = "rank_table_matches" }'),
]

#: Every operator by name: the one list of the language's operators.
OPS: dict[str, Op] = {op.name: op for op in _TABLE}
