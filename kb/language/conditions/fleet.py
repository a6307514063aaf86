"""The fleet operators: what a cross-node rule's ``aggregate`` says, over the FactSets of many nodes.

A fleet rule compares nodes instead of testing one. Its ``aggregate`` is one table::

    aggregate = { op = "uniform", fact = "cann.version" }                          # one value per node
    aggregate = { op = "uniform", fact = "hccn.devices", field = "tls_switch" }    # one value per device
    aggregate = { op = "uniform", facts = ["pkg.torch", "pkg.torch_npu"] }         # each fact on its own
    aggregate = { op = "uniform", prefix = "env.HCCL_", except = ["env.HCCL_IF_IP"] }
    aggregate = { op = "unique", fact = "hccn.devices", field = "ipaddr" }
    aggregate = { op = "each", where = { fact = "clock.ntp_synchronized", op = "eq", value = false } }
    aggregate = { op = "on_root", value = 32, where = { ... } }
    aggregate = { op = "coverage" }  /  { op = "subnet_plan" }  /  { op = "rank_table_matches" }

The operators are in the operator table (``ops.py``, kind ``fleet``), with their value check, words, doc and
example; their evaluation is here. Every evaluation returns :class:`Verdict` s, one per compared subject:

- the **reference** value of a "should be identical" subject is the ``--baseline`` value when one is given,
  else the value of a strict majority of the compared units (nodes, or devices with ``field``), else there is
  none and the result is a **split** that names every cohort and blames no one;
- **outliers** are the nodes that differ from the reference (or hold a duplicate, or fail ``where``);
- **missing** are nodes in scope whose facts could not be read: such a node is never a pass.

A fact whose status is ``missing`` (the thing does not exist: CANN not installed, a variable unset) is a
value, *absent*, and compared like any other; any other status (timeout, error, denied, not collected) is
missing data.
"""
from __future__ import annotations

import difflib
import ipaddress
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping

from ..facts import MISSING, FactSet, describe_status, show
from .model import Context
from .ops import OPS, check_value
from .tree import evaluate, validate

AGG_KEYS = {"op", "fact", "facts", "key", "field", "prefix", "except", "where", "value", "measure", "per"}
MEASURES = ("value", "nonempty")
ABSENT = "(absent)"


@dataclass
class FleetContext:
    """What a fleet operator may need besides the members: the desired state (``--baseline``), the nodes
    expected, those whose snapshot could not be read, and a rank table given to the fleet check."""

    baseline: Mapping[str, Any] = field(default_factory=dict)
    expected: list[str] | None = None
    received: list[str] = field(default_factory=list)
    unreadable: Mapping[str, str] = field(default_factory=dict)
    rank_table: Mapping[str, Any] | None = None          # parsed (parsers.cluster.parse_rank_table)


@dataclass
class Verdict:
    """The comparison of one subject (a fact, a fact's field, or a check) over the members in scope."""

    subject: str
    reference: dict[str, Any] | None = None     # {"value", "from": "baseline" | "majority" | "all", "units"}
    cohorts: list[dict[str, Any]] = field(default_factory=list)    # {"value", "nodes", "units"}
    outliers: list[dict[str, Any]] = field(default_factory=list)   # {"node", "value", "detail"}
    missing: list[dict[str, str]] = field(default_factory=list)    # {"node", "reason"}
    split: bool = False
    compared: int = 0                           # nodes with data
    notes: list[str] = field(default_factory=list)
    skip: str = ""                              # why nothing could be compared (fewer than two nodes...)

    @property
    def drift(self) -> bool:
        return bool(self.outliers) or self.split

    def to_dict(self) -> dict[str, Any]:
        return {"subject": self.subject, "reference": self.reference, "cohorts": self.cohorts,
                "outliers": self.outliers, "missing": self.missing, "split": self.split,
                "compared": self.compared, "notes": self.notes, "skip": self.skip}


Member = "tuple[str, FactSet]"


# -- helpers -------------------------------------------------------------------------------------------
def natural(name: str) -> list:
    """Sort key that puts node2 before node10."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(name))]


def canon(value: Any) -> str:
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return str(value)


def shown(value: Any) -> str:
    return "absent" if value == ABSENT else show(value, 80)


def _env_probed(facts: FactSet) -> bool:
    return any(k.startswith("env.") for k in facts.facts)


def _read(facts: FactSet, key: str, sub: str | None = None) -> tuple[bool, Any, str]:
    """(has data, value, reason): status missing is the value ABSENT; any other failure is no data. The
    environment probe reports every allow-listed variable that is set, so an ``env.*`` fact it did not
    report (while it reported others) is an unset variable: ABSENT too."""
    f = facts.get(key)
    if f is None:
        if key.startswith("env.") and _env_probed(facts):
            return True, ABSENT, ""
        return False, None, f"{key}: not collected"
    if f.status == MISSING:
        return True, ABSENT, ""
    if not f.ok:
        return False, None, describe_status(key, f)
    if sub is not None:
        if not isinstance(f.value, Mapping) or sub not in f.value:
            return True, ABSENT, ""
        return True, f.value[sub], ""
    return True, f.value, ""


def _item_label(item: Mapping[str, Any], i: int) -> str:
    for k in ("device", "device_id"):
        if item.get(k) is not None:
            return f"dev{item[k]}"
    if item.get("npu_id") is not None:
        return f"npu{item['npu_id']}" + (f".{item['chip_id']}" if item.get("chip_id") is not None else "")
    return f"#{i}"


def _units(members: Iterable, key: str, agg: Mapping[str, Any]) -> tuple[list[tuple[str, str, Any]], list[dict]]:
    """((node, unit label, value) for every compared unit, missing nodes). With ``field`` a list fact gives
    one unit per item; ``measure = "nonempty"`` compares whether the value is non-empty."""
    units, missing = [], []
    for name, facts in members:
        has, value, why = _read(facts, key, agg.get("key"))
        if not has:
            missing.append({"node": name, "reason": why})
            continue
        fld = agg.get("field")
        if fld and value != ABSENT:
            if not isinstance(value, list):
                missing.append({"node": name, "reason": f"{key} is not a list"})
                continue
            gaps = []
            for i, item in enumerate(value):
                v = item.get(fld) if isinstance(item, Mapping) else None
                label = _item_label(item, i) if isinstance(item, Mapping) else f"#{i}"
                if v is None:
                    errs = item.get("errors") if isinstance(item, Mapping) else None
                    gaps.append(f"{label}: " + (next(iter(errs.values())) if errs else "no value"))
                else:
                    units.append((name, f"{name} {label}", v))
            if gaps:
                missing.append({"node": name, "reason": f"{key}.{fld}: " + "; ".join(gaps[:3])
                                + (f" (+{len(gaps) - 3})" if len(gaps) > 3 else "")})
            continue
        if agg.get("measure") == "nonempty":
            value = bool(value) and value != ABSENT
        units.append((name, name, value))
    return units, missing


def _subject(key: str, agg: Mapping[str, Any]) -> str:
    s = key + (f"[{agg['key']}]" if agg.get("key") else "")
    return s + (f".{agg['field']}" if agg.get("field") else "") + (" (non-empty)" if agg.get("measure") == "nonempty" else "")


def _cohorts(units: list[tuple[str, str, Any]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for node, label, value in units:
        c = out.setdefault(canon(value), {"value": value, "nodes": [], "units": 0, "parts": {}})
        c["units"] += 1
        if node not in c["nodes"]:
            c["nodes"].append(node)
        if label != node:
            c["parts"].setdefault(node, []).append(label[len(node) + 1:])
    return out


def fold_parts(parts: list[str]) -> str:
    """``["dev0", "dev1", "dev2", "dev5"]`` -> ``"dev0-2,5"``."""
    nums = [(re.match(r"^(\D+)(\d+)$", p) or None) for p in parts]
    if not parts or any(m is None for m in nums) or len({m.group(1) for m in nums}) != 1:
        return ",".join(parts)
    prefix = nums[0].group(1)
    values = sorted({int(m.group(2)) for m in nums})
    out, start, prev = [], values[0], values[0]
    for n in values[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        out.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return prefix + ",".join(out)


# -- the operators -------------------------------------------------------------------------------------
def uniform(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """The value is identical on every node (or every device with ``field``)."""
    return [_uniform_one(members, key, agg, fctx) for key in subjects(members, agg)]


def subjects(members: list, agg: Mapping[str, Any]) -> list[str]:
    if "prefix" in agg:
        skip = set(agg.get("except") or [])
        keys = sorted({f.key for _, fs in members for f in fs if f.key.startswith(agg["prefix"]) and f.key not in skip})
        return keys
    return list(agg["facts"]) if "facts" in agg else [agg["fact"]]


def _uniform_one(members: list, key: str, agg: Mapping[str, Any], fctx: FleetContext) -> Verdict:
    subject = _subject(key, agg)
    units, missing = _units(members, key, agg)
    v = Verdict(subject=subject, missing=missing, compared=len({u[0] for u in units}))
    groups = _cohorts(units)
    v.cohorts = sorted(({"value": shown(c["value"]), "nodes": sorted(c["nodes"], key=natural), "units": c["units"],
                         "parts": {n: fold_parts(p) for n, p in c["parts"].items()}}
                        for c in groups.values()), key=lambda c: (-c["units"], c["value"]))
    base_key = next((k for k in (subject, key) if k in fctx.baseline), None)
    if base_key is not None:
        want = canon(fctx.baseline[base_key])
        ref = {"value": shown(fctx.baseline[base_key]), "from": "baseline",
               "units": groups[want]["units"] if want in groups else 0}
    elif not groups:
        v.skip = "no node has data to compare"
        return v
    elif len(groups) == 1:
        want = next(iter(groups))
        ref = {"value": shown(groups[want]["value"]), "from": "all", "units": len(units)}
    else:
        want, top = max(groups.items(), key=lambda kv: (kv[1]["units"], -len(kv[0])))
        if top["units"] * 2 > len(units):
            ref = {"value": shown(top["value"]), "from": "majority", "units": top["units"]}
        else:
            v.split = True
            v.notes.append(f"no value is held by more than half of the {len(units)} compared "
                           f"{'devices' if agg.get('field') else 'nodes'}: no side is blamed")
            return v
    v.reference = ref
    by_node: dict[str, list[str]] = {}
    for node, label, value in units:
        if canon(value) != want:
            by_node.setdefault(node, []).append((label[len(node) + 1:] if label != node else "", shown(value)))
    for node in sorted(by_node, key=natural):
        parts = by_node[node]
        vals = sorted({val for _, val in parts})
        where = fold_parts([p for p, _ in parts if p])
        v.outliers.append({"node": node, "value": "; ".join(vals), "detail": where})
    if len(members) - len(missing) < 2 and ref["from"] != "baseline" and not v.outliers:
        v.skip = "fewer than two nodes to compare"
    return v


def unique(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """No value repeats across the fleet (nor within a node). ``per = "node"``: each node has one value
    (its items must agree) and no two nodes share it."""
    key = agg["fact"]
    units, missing = _units(members, key, agg)
    units = [u for u in units if u[2] not in (ABSENT, "", "0.0.0.0")]
    v = Verdict(subject=_subject(key, agg), missing=missing, compared=len({u[0] for u in units}))
    if agg.get("per") == "node":
        per_node: dict[str, set] = {}
        for node, _l, value in units:
            per_node.setdefault(node, set()).add(canon(value))
        for node in sorted(per_node, key=natural):
            if len(per_node[node]) > 1:
                v.outliers.append({"node": node, "value": ", ".join(sorted(per_node[node])),
                                   "detail": "differs between the node's own chips"})
        units = [(n, n, next(iter(vals))) for n, vals in per_node.items() if len(vals) == 1]
    holders: dict[str, list[tuple[str, str]]] = {}
    for node, label, value in units:
        holders.setdefault(canon(value), []).append((node, label))
    dups = {val: hs for val, hs in holders.items() if len(hs) > 1}
    blamed: dict[str, list[str]] = {}
    others: dict[str, set[str]] = {}
    for val, hs in sorted(dups.items()):
        v.cohorts.append({"value": val, "nodes": sorted({n for n, _ in hs}, key=natural), "units": len(hs),
                          "holders": [lbl for _, lbl in sorted(hs, key=lambda h: natural(h[1]))]})
        for node, label in hs:
            part = label[len(node) + 1:]
            blamed.setdefault(node, []).append(f"{val}" + (f" on {part}" if part else ""))
            others.setdefault(node, set()).update(n for n, _ in hs if n != node)
    known = {o["node"] for o in v.outliers}
    for node in sorted(blamed, key=natural):
        if node not in known:
            also = sorted(others.get(node, ()), key=natural)
            v.outliers.append({"node": node, "value": "; ".join(blamed[node][:4]),
                               "detail": ("also on " + ", ".join(also[:6])) if also else "twice on this node"})
    if not units and not v.outliers:
        v.skip = "no node has a value"
    return [v]


def each(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """Every node is tested alone with ``where`` (the condition language); a node where it holds is an
    outlier, one where it cannot be decided is missing data."""
    v = Verdict(subject="each node")
    for name, facts in members:
        out = evaluate(agg["where"], Context(facts))
        if out.unknown:
            v.missing.append({"node": name, "reason": "; ".join(dict.fromkeys(out.reasons)) or "no data"})
        elif out.value:
            v.outliers.append({"node": name, "value": "; ".join(dict.fromkeys(out.notes))[:300], "detail": ""})
        v.compared += 0 if out.unknown else 1
    if not members:
        v.skip = "no node in scope"
    return [v]


def on_root(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """``where`` on the node that hosts the job's root (``MASTER_ADDR``, else rank 0 of the rank table),
    only when the fleet has at least ``value`` nodes."""
    v = Verdict(subject="root node")
    minimum = int(agg.get("value", 0) or 0)
    if len(members) < minimum:
        v.skip = f"{len(members)} node(s), fewer than {minimum}: the root's listen backlog is not at risk"
        return [v]
    root, why = None, ""
    masters = [fs.value("env.MASTER_ADDR") for _, fs in members if fs.value("env.MASTER_ADDR")]
    if masters:
        master = max(set(masters), key=masters.count)
        for name, fs in members:
            if master in {a.get("address") for a in fs.value("net.host_addrs") or []}:
                root, why = (name, fs), f"MASTER_ADDR={master}"
                break
    if root is None:
        for name, fs in members:
            entry = (fs.value("rank_table") or {}).get("self") or {}
            if any(d.get("rank_id") == 0 for d in entry.get("devices") or []):
                root, why = (name, fs), "rank 0 of the rank table"
                break
    if root is None:
        v.skip = "no node hosts MASTER_ADDR or rank 0"
        return [v]
    v.notes.append(f"root node {root[0]} ({why})")
    out = evaluate(agg["where"], Context(root[1]))
    v.compared = 1
    if out.unknown:
        v.missing.append({"node": root[0], "reason": "; ".join(out.reasons)})
    elif out.value:
        v.outliers.append({"node": root[0], "value": "; ".join(dict.fromkeys(out.notes)), "detail": why})
    return [v]


def coverage(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """Every expected node sent a readable snapshot (a node without data is never a pass)."""
    v = Verdict(subject="snapshots")
    received = set(fctx.received)
    for name, why in sorted(fctx.unreadable.items(), key=lambda kv: natural(kv[0])):
        v.outliers.append({"node": name, "value": "unreadable", "detail": why})
    if fctx.expected is not None:
        for name in sorted(set(fctx.expected) - received - set(fctx.unreadable), key=natural):
            v.outliers.append({"node": name, "value": "no snapshot", "detail": "expected, not received"})
        extra = sorted(received - set(fctx.expected), key=natural)
        if extra:
            v.notes.append(f"{len(extra)} node(s) not in --expect-nodes: " + ", ".join(extra[:20]))
        v.reference = {"value": f"{len(set(fctx.expected) & received)}/{len(set(fctx.expected))}", "from": "expected",
                       "units": len(set(fctx.expected))}
    v.compared = len(members)
    if not members and not fctx.unreadable and fctx.expected is None:
        v.skip = "no snapshot to check"
    return [v]


def _network(ip: str | None, mask: str | None):
    try:
        return ipaddress.ip_network(f"{ip}/{mask}", strict=False)
    except (ValueError, TypeError):
        return None


def subnet_plan(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """The NPU NIC address plan of the product (MindCluster Ascend Deployer): A2, one subnet for the 8 ports
    of a node; A3, the two dies of one NPU (devices 2k and 2k+1) in different subnets; first-generation
    910, devices i and i+4 paired in one subnet, same-position devices of every server in one subnet."""
    v = Verdict(subject="NPU NIC subnet plan")
    position: dict[int, list[tuple[str, Any]]] = {}
    for name, fs in members:
        family = fs.value("hardware.family")
        has, devices, why = _read(fs, "hccn.devices")
        if not has or devices == ABSENT:
            if not has:
                v.missing.append({"node": name, "reason": why})
            continue
        nets = {d["device"]: _network(d.get("ipaddr"), d.get("netmask")) for d in devices if isinstance(d, Mapping)}
        if any(n is None for n in nets.values()):
            bad = [f"dev{k}" for k, n in nets.items() if n is None]
            v.missing.append({"node": name, "reason": "no address or netmask on " + ", ".join(bad)})
            continue
        v.compared += 1
        if family == "a2":
            distinct = sorted({str(n) for n in nets.values()})
            if len(distinct) > 1:
                v.outliers.append({"node": name, "value": f"{len(distinct)} subnets: " + ", ".join(distinct),
                                   "detail": "A2: the 8 NPU ports of a node use one subnet"})
        elif family == "a3":
            same = [f"dev{k}/dev{k + 1}" for k in sorted(nets) if k % 2 == 0 and k + 1 in nets and nets[k] == nets[k + 1]]
            if same:
                v.outliers.append({"node": name, "value": "both dies in one subnet: " + ", ".join(same),
                                   "detail": "A3: the two dies of one NPU must be in different subnets"})
        elif family == "910":
            pairs = [f"dev{k}/dev{k + 4}" for k in range(4) if k in nets and k + 4 in nets and nets[k] != nets[k + 4]]
            if pairs:
                v.outliers.append({"node": name, "value": "pair in two subnets: " + ", ".join(pairs),
                                   "detail": "910: NPU i and i+4 share a subnet"})
            for k, n in nets.items():
                position.setdefault(k, []).append((name, n))
    for k, holders in sorted(position.items()):
        counts: dict[str, int] = {}
        for _, n in holders:
            counts[str(n)] = counts.get(str(n), 0) + 1
        top = max(counts.items(), key=lambda kv: kv[1])
        if top[1] * 2 > len(holders):
            for name, n in holders:
                if str(n) != top[0] and name not in {o["node"] for o in v.outliers}:
                    v.outliers.append({"node": name, "value": f"dev{k} in {n}", "detail": f"the others' dev{k} use {top[0]}"})
    if not v.compared and not v.missing:
        v.skip = "no node reports NPU NIC addresses"
    return [v]


def _live_ips(fs: FactSet) -> dict[int, str]:
    return {d["device"]: d.get("ipaddr") for d in fs.value("hccn.devices") or [] if isinstance(d, Mapping)}


def _check_entry(name: str, fs: FactSet, entry: Mapping[str, Any], version: str | None) -> list[str]:
    """What differs between one server entry of a rank table and the node's live devices."""
    live = _live_ips(fs)
    probs = []
    for d in entry.get("devices") or []:
        dev = d.get("device_id")
        if dev not in live:
            probs.append(f"device_id {dev}: no such NIC on the node (devices {', '.join(map(str, sorted(live))) or 'none'})")
        elif live[dev] is not None and d.get("device_ip") != live[dev]:
            probs.append(f"device_id {dev}: rank table {d.get('device_ip')}, NIC {live[dev]}")
    spod = fs.value("npu.spod") or []
    if spod:
        sdids = {s.get("sdid") for s in spod}
        if version != "1.2":
            probs.append(f"A3 SuperPoD node in a rank table of version {version} (1.2 needed)")
        wrong = [f"device_id {d.get('device_id')}: super_device_id {d.get('super_device_id')}"
                 for d in entry.get("devices") or [] if d.get("super_device_id") is not None
                 and d.get("super_device_id") not in sdids]
        if wrong:
            probs.append("super_device_id is not an SDID of this node: " + "; ".join(wrong[:4]))
    return probs


def rank_table_matches(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    """The rank table matches reality: its own problems (duplicate ranks or addresses, rank ids not 0..N-1,
    server_count, status), each node's entry found and its ``device_ip`` equal to the live NIC address, and on
    A3 version 1.2 with ``super_device_id`` = the SDID. With a table given to the fleet check, every server of
    it is matched to a node (by name, host_ip, container_ip or server_id)."""
    v = Verdict(subject="rank table vs NICs")
    central = fctx.rank_table
    if central is not None:
        by_addr: dict[str, str] = {}
        for name, fs in members:
            by_addr[name] = name
            for a in fs.value("net.host_addrs") or []:
                by_addr.setdefault(a.get("address"), name)
        table_probs = list(central.get("problems") or [])
        if table_probs:
            v.notes.append("the rank table: " + "; ".join(table_probs))
        fs_of = dict(members)
        for s in central.get("servers") or []:
            node = next((by_addr[k] for k in (s.get("server_id"), s.get("host_ip"), s.get("container_ip"))
                         if k and k in by_addr), None)
            if node is None:
                v.outliers.append({"node": str(s.get("server_id")), "value": "no node", "detail":
                                   "server of the rank table matches no node's name or address"})
                continue
            probs = _check_entry(node, fs_of[node], s, central.get("version"))
            v.compared += 1
            if probs:
                v.outliers.append({"node": node, "value": "; ".join(probs[:4]), "detail": f"server {s.get('server_id')}"})
        if table_probs:
            v.outliers.insert(0, {"node": "(rank table)", "value": "; ".join(table_probs), "detail": "the file itself"})
        return [v]
    for name, fs in members:
        has, table, why = _read(fs, "rank_table")
        if not has:
            v.missing.append({"node": name, "reason": why})
            continue
        if table == ABSENT:
            continue
        v.compared += 1
        probs = list(table.get("problems") or [])
        entry = table.get("self")
        if entry is None:
            probs.append("this node is not in its rank table (no server with its host_ip, container_ip or server_id)")
        else:
            probs += _check_entry(name, fs, entry, table.get("version"))
        if probs:
            v.outliers.append({"node": name, "value": "; ".join(probs[:4]), "detail": table.get("path", "")})
    if not v.compared and not v.missing:
        v.skip = "no node has a rank table"
    return [v]


#: op name -> evaluation over the members in scope
AGGREGATES: dict[str, Callable[[list, Mapping[str, Any], FleetContext], list[Verdict]]] = {
    "uniform": uniform, "unique": unique, "each": each, "on_root": on_root, "coverage": coverage,
    "subnet_plan": subnet_plan, "rank_table_matches": rank_table_matches,
}
#: operators that compare values between nodes: with fewer than two nodes in scope there is nothing to compare
COMPARING = ("uniform",)


def aggregate(members: list, agg: Mapping[str, Any], fctx: FleetContext) -> list[Verdict]:
    return AGGREGATES[agg["op"]](members, agg, fctx)


def facts_used(agg: Mapping[str, Any]) -> list[str]:
    from .tree import facts_used as cond_facts

    keys = [agg["fact"]] if isinstance(agg.get("fact"), str) else []
    keys += [k for k in agg.get("facts") or [] if isinstance(k, str)]
    if isinstance(agg.get("prefix"), str):
        keys.append(agg["prefix"] + "*")
    if isinstance(agg.get("where"), Mapping):
        keys += cond_facts(agg["where"])
    return list(dict.fromkeys(keys))


def validate_aggregate(agg: Any, where: str = "aggregate", known_fact: Callable[[str], bool] | None = None) -> list[str]:
    """Problems with an ``aggregate`` table (empty when it follows the grammar above)."""
    if not isinstance(agg, Mapping):
        return [f"{where}: must be a table"]
    errs = [f"{where}: unknown key(s) {sorted(set(agg) - AGG_KEYS)}"] if set(agg) - AGG_KEYS else []
    name = agg.get("op")
    op = OPS.get(name) if isinstance(name, str) else None
    if op is None or op.kind != "fleet":
        fleet_ops = [n for n, o in OPS.items() if o.kind == "fleet"]
        near = difflib.get_close_matches(str(name), fleet_ops, n=1, cutoff=0.6)
        return errs + [f"{where}: unknown fleet op {name!r}" + (f" (did you mean {near[0]}?)" if near else "")
                       + f"; fleet ops: {', '.join(fleet_ops)}"]
    subjects_given = [k for k in ("fact", "facts", "prefix") if k in agg]
    if name in ("uniform", "unique"):
        if len(subjects_given) != 1:
            errs.append(f"{where}: op {name} needs exactly one of 'fact', 'facts' or 'prefix'")
        if name == "unique" and "fact" not in agg:
            errs.append(f"{where}: op unique needs 'fact'")
    elif subjects_given:
        errs.append(f"{where}: op {name} takes no {subjects_given}")
    if ("field" in agg or "key" in agg) and "fact" not in agg:
        errs.append(f"{where}: 'field' and 'key' go with 'fact'")
    if "except" in agg and "prefix" not in agg:
        errs.append(f"{where}: 'except' goes with 'prefix'")
    if "facts" in agg and (not isinstance(agg["facts"], list) or not agg["facts"]
                           or not all(isinstance(k, str) for k in agg["facts"])):
        errs.append(f"{where}: 'facts' must be a non-empty list of fact keys")
    keys = ([agg["fact"]] if isinstance(agg.get("fact"), str) else []) + \
           [k for k in agg.get("facts") or [] if isinstance(k, str)] + \
           [k for k in agg.get("except") or [] if isinstance(k, str)]
    if known_fact is not None:
        errs += [f"{where}: unknown fact key {k!r} (the fact keys are listed in docs/facts.md)"
                 for k in keys if not known_fact(k)]
        if isinstance(agg.get("prefix"), str) and not known_fact(agg["prefix"] + "X"):
            errs.append(f"{where}: no fact key starts with {agg['prefix']!r}")
    if "measure" in agg and agg["measure"] not in MEASURES:
        errs.append(f"{where}: measure must be one of {MEASURES}")
    if "per" in agg and (agg["per"] != "node" or name != "unique"):
        errs.append(f"{where}: per = \"node\" is for op unique only")
    if name in ("each", "on_root"):
        if "where" not in agg:
            errs.append(f"{where}: op {name} needs 'where' (a condition on one node)")
        else:
            errs += validate(agg["where"], f"{where}.where", known_fact=known_fact)
    elif "where" in agg:
        errs.append(f"{where}: 'where' is only for each / on_root")
    if "value" in agg:
        why = check_value(op, agg["value"], None)
        if why:
            errs.append(f"{where}: {why}")
    elif op.needs_value:
        errs.append(f"{where}: op {name} needs 'value'")
    return errs
