"""What ties nodes into a cluster: the HCCL rank table file (v1.0, and v1.2 for A3 SuperPoD) and the
SuperPoD identity from ``npu-smi info -t spod-info -i N -c C``.

Rank table fields (Huawei HCCL user guide): ``status`` (completed), ``version`` ("1.0" / "1.2"),
``server_count``, ``server_list[].server_id`` / ``host_ip`` / ``container_ip``,
``device[].device_id`` (physical id), ``device_ip`` (NPU NIC address, globally unique), ``rank_id``
(from 0, globally unique), and on v1.2 ``super_device_id`` (the SDID) and
``super_pod_list[].super_pod_id`` / ``server_list[].server_id``. All values are strings in the file.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from .base import ParseResult, unparsed

_INT = re.compile(r"^\s*-?\d+\s*$")


def _int(v: Any) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and _INT.match(v):
        return int(v)
    return None


def _str(v: Any) -> str | None:
    if v is None:
        return None
    return str(v).strip() if isinstance(v, (str, int, float)) and not isinstance(v, bool) else None


def sha256(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def parse_rank_table(text: str) -> ParseResult:
    """``{"version", "status", "server_count", "servers": [{"server_id", "host_ip", "container_ip",
    "devices": [{"device_id", "device_ip", "rank_id", "super_device_id"}]}], "super_pods":
    [{"super_pod_id", "server_ids"}], "ranks", "problems"}``. ``problems`` lists what the file itself gets
    wrong (duplicate rank ids or device addresses, rank ids not 0..N-1, a server_count that does not
    match the list, a status other than completed); ``sha256`` is added by the caller from the raw bytes."""
    kind = "rank-table"
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        return unparsed(kind, f"not JSON: {exc}")
    if not isinstance(data, dict) or not isinstance(data.get("server_list"), list):
        return unparsed(kind, "no server_list: not an HCCL rank table")
    problems: list[str] = []
    servers = []
    for i, s in enumerate(data["server_list"]):
        if not isinstance(s, dict):
            problems.append(f"server_list[{i}] is not an object")
            continue
        devices = []
        raw_devices = s.get("device")
        if not isinstance(raw_devices, list):
            problems.append(f"server_list[{i}] has no device list")
            raw_devices = []
        for j, d in enumerate(raw_devices):
            if not isinstance(d, dict):
                problems.append(f"server_list[{i}].device[{j}] is not an object")
                continue
            devices.append({"device_id": _int(d.get("device_id")), "device_ip": _str(d.get("device_ip")),
                            "rank_id": _int(d.get("rank_id")), "super_device_id": _int(d.get("super_device_id"))})
        servers.append({"server_id": _str(s.get("server_id")), "host_ip": _str(s.get("host_ip")),
                        "container_ip": _str(s.get("container_ip")), "devices": devices})
    pods = []
    raw_pods = data.get("super_pod_list")
    for p in raw_pods if isinstance(raw_pods, list) else []:
        members = p.get("server_list") if isinstance(p, dict) else None
        if isinstance(p, dict):
            pods.append({"super_pod_id": _str(p.get("super_pod_id")),
                         "server_ids": [_str(x.get("server_id")) for x in (members if isinstance(members, list) else [])
                                        if isinstance(x, dict)]})
    version, status = _str(data.get("version")), _str(data.get("status"))
    count = _int(data.get("server_count"))
    ranks = [d["rank_id"] for s in servers for d in s["devices"]]
    if status != "completed":
        problems.append(f"status is {status!r}, not 'completed'")
    if count is not None and count != len(servers):
        problems.append(f"server_count is {count} but server_list has {len(servers)} server(s)")
    known = [r for r in ranks if r is not None]
    if len(known) != len(ranks):
        problems.append("a device has no integer rank_id")
    dup = sorted({r for r in known if known.count(r) > 1})
    if dup:
        problems.append("rank_id repeated: " + ", ".join(map(str, dup)))
    elif known and sorted(known) != list(range(len(known))):
        problems.append(f"rank ids are not 0..{len(known) - 1}")
    ips = [d["device_ip"] for s in servers for d in s["devices"] if d["device_ip"]]
    dup_ip = sorted({ip for ip in ips if ips.count(ip) > 1})
    if dup_ip:
        problems.append("device_ip repeated: " + ", ".join(dup_ip))
    ids = [s["server_id"] for s in servers]
    dup_id = sorted({x for x in ids if x and ids.count(x) > 1})
    if dup_id:
        problems.append("server_id repeated: " + ", ".join(dup_id))
    if version == "1.2" and any(d["super_device_id"] is None for s in servers for d in s["devices"]):
        problems.append("version 1.2 but a device has no super_device_id")
    return ParseResult(kind, value={"version": version, "status": status, "server_count": count, "servers": servers,
                                    "super_pods": pods, "ranks": len(ranks), "problems": problems})


_SPOD_KEYS = {"sdid": "sdid", "super pod size": "super_pod_size", "super pod id": "super_pod_id",
              "server index": "server_index", "chassis id": "chassis_id"}
_KV = re.compile(r"^\s*(?P<k>[A-Za-z][A-Za-z ]*?)\s*:\s*(?P<v>\S+)\s*$", re.M)
NOT_SUPPORTED = re.compile(r"does not support querying spod-info", re.I)


def parse_spod_info(text: str) -> ParseResult:
    """``npu-smi info -t spod-info -i N -c C``: ``{"sdid", "super_pod_size", "super_pod_id", "server_index",
    "supported"}``; a chip without SuperPoD support says so (``supported`` false)."""
    kind = "npu-smi-spod-info"
    if NOT_SUPPORTED.search(text):
        return ParseResult(kind, value={"supported": False, "sdid": None, "super_pod_size": None,
                                        "super_pod_id": None, "server_index": None})
    out: dict[str, Any] = {}
    for m in _KV.finditer(text):
        key = _SPOD_KEYS.get(m["k"].strip().lower())
        if key and _int(m["v"]) is not None:
            out[key] = _int(m["v"])
    if "super_pod_id" not in out and "sdid" not in out:
        return unparsed(kind, "no 'SDID :' / 'Super Pod ID :' lines")
    value = {"supported": True, **{k: out.get(k) for k in ("sdid", "super_pod_size", "super_pod_id", "server_index")}}
    return ParseResult(kind, value=value)


def sdid_fields(sdid: int) -> dict[str, int]:
    """The SDID layout (DCMI): bits 22-31 server index, 18-21 chip id, 16-17 die id, 0-15 device id."""
    return {"server_index": (sdid >> 22) & 0x3FF, "chip_id": (sdid >> 18) & 0xF, "die_id": (sdid >> 16) & 0x3,
            "device_id": sdid & 0xFFFF}
