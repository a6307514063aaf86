"""Simulated fleets: many nodes made from one bundled profile, with drift, as data.

A fleet is ``diagnose/profiles/fleets/<name>.toml``::

    description = "64 Atlas 800I A2 nodes; the last rack got CANN 8.3.RC1"
    base = "healthy-a2-host"                 # the profile every node starts from
    nodes = "node[001-064]"
    expect = true                            # the fleet check is told which nodes to expect
    rank_table = true                        # every node gets RANK_TABLE_FILE: one table over all nodes
    labels = { rack = "r{rack:02d}" }        # {index}, {rack} = (index - 1) // 8 + 1, {node}
    env = { HCCL_CONNECT_TIMEOUT = "1200" }  # on every node

    [[drift]]                                # applied in order to the listed nodes
    nodes = "node[057-064]"
    op = "replace"
    file = "/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info"
    old = "version=8.2.RC1"
    new = "version=8.3.RC1"

    [expected.fleet]                         # what the fleet check must find, nothing more
    "AD-FLEET-004" = { status = "FAIL", outliers = "node[057-064]" }
    [expected.nodes]                         # per-node rules that must warn or fail, on exactly these nodes
    "AD-CANN-004" = { status = "FAIL", nodes = "node[057-064]" }

How a node is made: the base profile is recorded once (``take_snapshot``); each node gets a copy of the
**raw recorded answers**, its own addresses (the product's NPU NIC plan: A2 one /24 per node, A3 the two dies
of an NPU in different subnets; its host address; on A3 its server index and SDIDs), the fleet's env, the
rank table, then its drift; its facts are computed again from those answers by the real parsers
(``collect(ReplaySystem(...))``), exactly as ``--replay`` would.

Drift operators: ``replace`` (text in a file or a command's output: ``file`` or ``command``, ``old``,
``new``), ``command`` (a command's answer: ``command`` with ``{dev}`` for every NPU NIC, ``stdout`` or
``stdout_file``, ``exit_code``, ``devices``), ``timeout`` (a command hangs), ``env`` (``set``, ``unset``),
``clock`` (chrony: ``offset_s``, ``synchronized``), ``spod`` (A3 ``server_index``), ``rank_table``
(the shared table lies: ``server`` node, ``device``, ``device_ip``), ``tool_version``, ``drop`` (no
snapshot), ``corrupt`` (a truncated file), ``base`` (another profile for these nodes).
"""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from ascend_doctor.kb.language.facts import FactSet
from ascend_doctor.kb.toml import tomllib
from ascend_doctor.rules.nodeset import NodeSetError, expand

from .snapshot import Snapshot
from .system import PROFILES_DIR, ProfileError, ReplaySystem, SimulatedSystem, call_key, command_key

FLEETS_DIR = PROFILES_DIR / "fleets"
DRIFT_OPS = ("replace", "command", "timeout", "env", "clock", "spod", "rank_table", "tool_version", "drop", "corrupt",
             "base")
RANK_TABLE_PATH = "/home/job/rank_table.json"
_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
TIMEOUT = 10.0


@dataclass
class SimFleet:
    name: str
    description: str
    base: str
    nodes: list[str]
    expect: bool = False
    rank_table: bool = False
    labels: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    superpod_id: int = 1
    drift: list[dict[str, Any]] = field(default_factory=list)
    expected: dict[str, dict[str, Any]] = field(default_factory=dict)


def list_fleets(base: Path = FLEETS_DIR) -> list[str]:
    return sorted(p.stem for p in base.glob("*.toml")) if base.is_dir() else []


def load_fleet(name: str, base: Path = FLEETS_DIR) -> SimFleet:
    if not _NAME.match(name or ""):
        raise ProfileError(f"invalid fleet name {name!r}")
    path = base / f"{name}.toml"
    if not path.is_file():
        raise ProfileError(f"unknown simulated fleet {name!r} (known: {', '.join(list_fleets(base))})")
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
        nodes = expand(str(data["nodes"]))
    except (OSError, tomllib.TOMLDecodeError, KeyError, NodeSetError) as exc:
        raise ProfileError(f"{path}: {exc}") from exc
    drift = [dict(d) for d in data.get("drift", [])]
    for d in drift:
        if d.get("op") not in DRIFT_OPS:
            raise ProfileError(f"{path}: unknown drift op {d.get('op')!r} (ops: {', '.join(DRIFT_OPS)})")
        try:
            d["_nodes"] = set(expand(str(d.get("nodes", ""))))
        except NodeSetError as exc:
            raise ProfileError(f"{path}: {exc}") from exc
        if not d["_nodes"] <= set(nodes):
            raise ProfileError(f"{path}: drift names nodes outside the fleet: {sorted(d['_nodes'] - set(nodes))[:3]}")
    return SimFleet(name=name, description=str(data.get("description", "")), base=str(data["base"]), nodes=nodes,
                    expect=bool(data.get("expect", False)), rank_table=bool(data.get("rank_table", False)),
                    labels={str(k): str(v) for k, v in data.get("labels", {}).items()},
                    env={str(k): str(v) for k, v in data.get("env", {}).items()},
                    superpod_id=int(data.get("superpod_id", 1)), drift=drift, expected=dict(data.get("expected", {})))


# -- the base recording ----------------------------------------------------------------------------------
@dataclass
class Base:
    snapshot: Snapshot
    facts: FactSet
    family: str
    devices: list[int]
    host_ip: str


@lru_cache(maxsize=8)
def _base(profile: str) -> Base:
    from .snapshot import take_snapshot

    system = SimulatedSystem(profile)
    python = system.profile.python.get("executable") or "python3"
    snap = take_snapshot(system, python=python, timeout=TIMEOUT)
    facts = FactSet.from_list(snap.facts)
    devices = [d["device"] for d in facts.value("hccn.devices") or []]
    host = next((a["address"] for a in facts.value("net.host_addrs") or []
                 if a["family"] == "inet" and not a["address"].startswith("127.") and a["ifname"] != "docker0"), "")
    return Base(snapshot=snap, facts=facts, family=str(facts.value("hardware.family") or ""), devices=devices,
                host_ip=host)


# -- the address plan ------------------------------------------------------------------------------------
def device_ip(family: str, index: int, dev: int) -> str:
    hi, lo = divmod(index, 256)
    if family == "a3":       # the two dies of NPU k (devices 2k, 2k+1) in two subnets
        return f"10.{40 + 2 * hi + dev % 2}.{lo}.{11 + dev // 2}"
    return f"10.{20 + hi}.{lo}.{11 + dev}"


def gateway(family: str, index: int, dev: int) -> str:
    return device_ip(family, index, dev).rsplit(".", 1)[0] + ".254"


def host_ip(index: int) -> str:
    hi, lo = divmod(index, 250)
    return f"172.16.{hi + 1}.{lo + 1}"


def _runs(calls: dict, pattern: str) -> list[str]:
    """Keys of the recorded commands whose command key (program base name + arguments) matches."""
    rx = re.compile("^" + re.escape(pattern).replace(r"\*", ".*") + "$")
    return [k for k in calls if k.startswith('["run"') and rx.match(command_key(json.loads(k)[1:]))]


def _set_out(calls: dict, key: str, stdout: str, exit_code: int | None = 0) -> None:
    v = calls[key]["value"]
    v.update(stdout=stdout, stderr="", exit_code=exit_code, timed_out=False, error="")


def _spod_text(sdid: int, index: int, pod: int) -> str:
    return "".join(f"\t{k:<30} : {v}\n" for k, v in (("SDID", sdid), ("Super Pod Size", 384), ("Super Pod ID", pod),
                                                      ("Server Index", index)))


def _set_spod(calls: dict, index: int, pod: int) -> None:
    for key in _runs(calls, "npu-smi info -t spod-info -i * -c *"):
        argv = json.loads(key)[1:]
        npu, chip = int(argv[argv.index("-i") + 1]), int(argv[argv.index("-c") + 1])
        sdid = (index << 22) | (npu << 18) | (chip << 16) | (npu * 2 + chip)
        _set_out(calls, key, _spod_text(sdid, index, pod))


def _plan(calls: dict, base: Base, index: int, pod: int) -> None:
    fam = base.family
    for d in base.devices:
        for key in _runs(calls, f"hccn_tool -i {d} -ip -g"):
            _set_out(calls, key, f"ipaddr:{device_ip(fam, index, d)}\nnetmask:255.255.255.0\n")
        for key in _runs(calls, f"hccn_tool -i {d} -gateway -g"):
            text = calls[key]["value"]["stdout"]
            _set_out(calls, key, re.sub(r"(default gateway:)[\d.]+", rf"\g<1>{gateway(fam, index, d)}", text))
        for key in _runs(calls, f"hccn_tool -i {d} -netdetect -g"):
            _set_out(calls, key, f"netdetect address: {gateway(fam, index, d)}\n")
    conf_key = call_key("read_file", "/etc/hccn.conf")
    if conf_key in calls and "text" in calls[conf_key].get("value", {}):
        calls[conf_key]["value"]["text"] = "".join(
            f"address_{d}={device_ip(fam, index, d)}\nnetmask_{d}=255.255.255.0\nnetdetect_{d}={gateway(fam, index, d)}\n"
            f"gateway_{d}={gateway(fam, index, d)}\nsend_arp_status_{d}=1\n" for d in base.devices)
    for key in _runs(calls, "ip -o addr show"):
        v = calls[key]["value"]
        v["stdout"] = v["stdout"].replace(f" {base.host_ip}/", f" {host_ip(index)}/")
    if fam == "a3":
        _set_spod(calls, index, pod)


def _rank_table(fleet: SimFleet, bases: dict[str, Base]) -> dict[str, Any]:
    servers, rank = [], 0
    a3 = any(b.family == "a3" for b in bases.values())
    for i, node in enumerate(fleet.nodes, 1):
        b = bases[node]
        devices = []
        for d in b.devices:
            entry = {"device_id": str(d), "device_ip": device_ip(b.family, i, d), "rank_id": str(rank)}
            if a3:
                entry["super_device_id"] = str((i << 22) | ((d // 2) << 18) | ((d % 2) << 16) | d)
            devices.append(entry)
            rank += 1
        servers.append({"server_id": host_ip(i), "host_ip": host_ip(i), "device": devices} if a3 else
                       {"server_id": host_ip(i), "device": devices})
    table: dict[str, Any] = {"status": "completed", "version": "1.2" if a3 else "1.0",
                             "server_count": str(len(servers)), "server_list": servers}
    if a3:
        table["super_pod_list"] = [{"super_pod_id": str(fleet.superpod_id),
                                    "server_list": [{"server_id": s["server_id"]} for s in servers]}]
    return table


# -- drift -----------------------------------------------------------------------------------------------
def _drift(calls: dict, d: dict[str, Any], base: Base, index: int, pod: int, meta: dict[str, Any]) -> None:
    op = d["op"]
    if op == "replace":
        keys = [call_key("read_file", d["file"])] if "file" in d else _runs(calls, d["command"])
        done = False
        for key in keys:
            v = calls.get(key, {}).get("value", {})
            slot = "text" if "file" in d else "stdout"
            if isinstance(v, dict) and d["old"] in v.get(slot, ""):
                v[slot] = v[slot].replace(d["old"], d["new"])
                done = True
        if not done:
            raise ProfileError(f"drift replace: {d['old']!r} not found in {d.get('file') or d.get('command')}")
    elif op in ("command", "timeout"):
        devs = d.get("devices", base.devices) if "{dev}" in d["command"] else [None]
        for dev in devs:
            pattern = d["command"].replace("{dev}", str(dev))
            keys = _runs(calls, pattern)
            if not keys:
                raise ProfileError(f"drift {op}: no recorded command {pattern!r}")
            for key in keys:
                if op == "timeout":
                    calls[key]["value"].update(stdout="", stderr="", exit_code=None, timed_out=True,
                                               error=f"no answer within {TIMEOUT:g} s; process group killed")
                    calls[key]["ms"] = TIMEOUT * 1000
                    continue
                text = d.get("stdout")
                if "stdout_file" in d:
                    text = (FLEETS_DIR / d["stdout_file"]).read_text(encoding="utf-8")
                _set_out(calls, key, str(text).replace("{dev}", str(dev)), int(d.get("exit_code", 0)))
    elif op == "env":
        env = calls[call_key("env")]["value"]
        env.update({str(k): str(v) for k, v in d.get("set", {}).items()})
        for k in d.get("unset", []):
            env.pop(k, None)
    elif op == "clock":
        synced = bool(d.get("synchronized", False))
        line = (f"0A140001,10.20.0.1,3,1773105180.104862315,{float(d['offset_s']):.9f},0.000009311,0.000031057,"
                "-2.871,0.001,0.036,0.000487221,0.000198630,64.3,Normal\n" if synced else
                f"00000000,,0,0.000000000,{float(d['offset_s']):.9f},0.000000000,0.000000000,0.000,0.000,0.000,"
                "1.000000000,1.000000000,0.0,Not synchronised\n")
        for key in _runs(calls, "chronyc -c tracking"):
            _set_out(calls, key, line)
    elif op == "spod":
        _set_spod(calls, int(d["server_index"]), pod)
    elif op == "tool_version":
        meta["tool_version"] = str(d["value"])


def _node_calls(fleet: SimFleet, node: str, index: int, base: Base, table_text: str | None,
                meta: dict[str, Any]) -> dict:
    calls = copy.deepcopy(base.snapshot.calls)
    _plan(calls, base, index, fleet.superpod_id)
    env = calls[call_key("env")]["value"]
    env.update(fleet.env)
    if table_text is not None:
        env["RANK_TABLE_FILE"] = RANK_TABLE_PATH
        calls[call_key("read_file", RANK_TABLE_PATH)] = {"value": {"text": table_text}, "ms": 0.2}
    for d in fleet.drift:
        if node in d["_nodes"] and d["op"] not in ("drop", "corrupt", "base", "rank_table"):
            _drift(calls, d, base, index, fleet.superpod_id, meta)
    return calls


def _label(template: str, node: str, index: int) -> str:
    return template.format(index=index, rack=(index - 1) // 8 + 1, node=node)


def generate(fleet: SimFleet) -> Iterator[tuple[str, str, Any]]:
    """(node, kind, payload) for every node: ``("node001", "snapshot", Snapshot)``, ``("node006", "corrupt",
    text)`` (a truncated file) or ``("node004", "drop", None)`` (no snapshot at all)."""
    from ascend_doctor import __version__

    from .probes import collect

    bases = {}
    for node in fleet.nodes:
        profile = next((d["profile"] for d in fleet.drift if d["op"] == "base" and node in d["_nodes"]), fleet.base)
        bases[node] = _base(profile)
    table_text = None
    if fleet.rank_table:
        table = _rank_table(fleet, bases)
        for d in (d for d in fleet.drift if d["op"] == "rank_table"):
            server = table["server_list"][fleet.nodes.index(d["server"])]
            entry = next(e for e in server["device"] if e["device_id"] == str(d["device"]))
            entry["device_ip"] = str(d["device_ip"])
        table_text = json.dumps(table, indent=4) + "\n"
    for index, node in enumerate(fleet.nodes, 1):
        kinds = {d["op"] for d in fleet.drift if node in d["_nodes"]}
        if "drop" in kinds:
            yield node, "drop", None
            continue
        base = bases[node]
        meta = {"tool_version": __version__, "created": "2026-03-10T09:14:02+0800",
                "python": base.snapshot.python, "timeout": TIMEOUT, "origin": f"sim-fleet:{fleet.name}",
                "include_hostname": False, "collected_at": 1773105242.0 + index * 0.05,
                "holds": base.snapshot.meta.get("holds", ""), "node": node,
                "labels": {k: _label(t, node, index) for k, t in fleet.labels.items()}}
        calls = _node_calls(fleet, node, index, base, table_text, meta)
        facts = collect(ReplaySystem(calls, origin=f"sim-fleet:{fleet.name}:{node}"), python=base.snapshot.python,
                        timeout=TIMEOUT)
        snap = Snapshot(meta=meta, calls=calls, facts=facts.to_list(), path=f"{node}.json")
        if "corrupt" in kinds:
            text = snap.to_json()
            yield node, "corrupt", text[: len(text) // 3]
            continue
        yield node, "snapshot", snap
