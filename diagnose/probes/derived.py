"""Facts derived from other facts once every probe has run: hardware family, SoC, and fall-backs for
the driver / firmware versions when their files are absent (e.g. inside a container)."""
from __future__ import annotations

import re

from ascend_doctor.kb.language.facts import FactSet
from .base import MISSING, OK, Fact, ok, same_status

FAMILIES = (  # (pattern on the SoC or the npu-smi Name, family)
    (re.compile(r"^(?:Ascend)?910B\d", re.I), "a2"),
    (re.compile(r"^(?:Ascend)?910_?93\d\d", re.I), "a3"),
    (re.compile(r"^(?:Ascend)?910C", re.I), "a3"),
    (re.compile(r"^(?:Ascend)?910(?:ProA|ProB|PremiumA|A|B)$", re.I), "910"),
    (re.compile(r"^(?:Ascend)?310P", re.I), "310p"),
    (re.compile(r"^(?:Ascend)?310B", re.I), "310b"),
    (re.compile(r"^(?:Ascend)?310$", re.I), "310"),
    (re.compile(r"^(?:Ascend)?950", re.I), "950"),
)


def soc_from_board(boards: list[dict]) -> str | None:
    """``Chip Type`` + ``Chip Name`` (A2, 310P: Ascend + 910B4) or ``Chip Name`` _ ``NPU Name`` (A3)."""
    for b in boards:
        name = b.get("chip_name")
        if not name or re.fullmatch(r"x+", str(name), re.I):
            continue
        if b.get("chip_type"):
            return f"{b['chip_type']}{name}"
        if b.get("npu_name"):
            return f"{name}_{b['npu_name']}"
    return None


def family_of(name: str | None, devices: list[dict] | None = None, layout: str | None = None) -> str | None:
    if not name:
        return None
    for pattern, fam in FAMILIES:
        if pattern.match(name):
            return fam
    if re.fullmatch(r"(?:Ascend)?910", name, re.I):
        # A3 shows "Ascend910" with two chips (Phy-ID 0/1) under each NPU id
        per_npu: dict = {}
        for d in devices or []:
            per_npu.setdefault(d.get("npu_id"), set()).add(d.get("chip_id"))
        if any(len(c) > 1 for c in per_npu.values()) or any(d.get("phy_id") is not None for d in devices or []):
            return "a3"
    return None


def derive(fs: FactSet) -> list[Fact]:
    out: list[Fact] = []
    boards = fs.value("npu.boards") or []
    soc = soc_from_board(boards)
    if soc:
        out.append(ok("npu.soc_version", soc, "derived", "from npu-smi info -t board (Chip Type/Name, NPU Name)"))
    name_fact = fs.get("npu.chip_name")
    devices = fs.value("npu.devices") or []
    info = fs.value("npu_smi.info") or {}
    fam = family_of(soc, devices) or family_of(fs.value("npu.chip_name"), devices, info.get("layout"))
    if fam:
        out.append(ok("hardware.family", fam, "derived", f"from {soc or fs.value('npu.chip_name')}"))
    elif name_fact is not None and name_fact.status != OK:
        out.append(same_status("hardware.family", name_fact))
    elif name_fact is not None:
        out.append(ok("hardware.family", "unknown", "derived", f"chip name {name_fact.value!r} is not a known family"))
    else:
        out.append(Fact("hardware.family", None, MISSING, "derived", "no npu-smi facts"))
    # driver version: version.info, else the npu-smi header
    dv = fs.get("driver.version")
    if (dv is None or not dv.ok) and info.get("driver_version"):
        out.append(ok("driver.version", info["driver_version"], fs.get("npu_smi.info").source,
                      "from the npu-smi info header (" + (dv.detail if dv else "no version.info") + ")"))
    fw = fs.get("firmware.version")
    if fw is None or not fw.ok:
        fws = [b.get("firmware_version") for b in boards if b.get("firmware_version")]
        if fws:
            out.append(ok("firmware.version", fws[0], "npu-smi info -t board",
                          "from npu-smi (" + (fw.detail if fw else "no firmware version.info") + ")"))
    out += [f for f in (hccn_conf_mismatch(fs), nic_problems(fs)) if f is not None]
    return out


def hccn_conf_mismatch(fs: FactSet) -> Fact | None:
    """``hccn.conf_mismatch``: devices whose live address or netmask (hccn_tool) differs from /etc/hccn.conf,
    the file rank-table generators and ``hccn_tool -a -cfg recovery`` read."""
    conf, live = fs.get("hccn.conf"), fs.get("hccn.devices")
    if conf is None or live is None:
        return None
    for f in (conf, live):
        if not f.ok:
            return same_status("hccn.conf_mismatch", f)
    out = []
    for item in live.value or []:
        entry = (conf.value or {}).get(str(item.get("device")))
        if entry is None:
            out.append({"device": item.get("device"), "field": "address", "conf": None, "live": item.get("ipaddr")})
            continue
        for field, live_key in (("address", "ipaddr"), ("netmask", "netmask")):
            if item.get(live_key) is not None and entry.get(field) != item.get(live_key):
                out.append({"device": item.get("device"), "field": field, "conf": entry.get(field),
                            "live": item.get(live_key)})
    return ok("hccn.conf_mismatch", out, "derived", "from /etc/hccn.conf and hccn_tool -ip -g")


#: environment variables that name the host NIC(s) a framework opens its sockets on
NIC_VARS = ("HCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME", "TP_SOCKET_IFNAME")


def nic_problems(fs: FactSet) -> Fact | None:
    """``net.nic_problems``: HCCL_IF_IP not an address of this host, or a *_SOCKET_IFNAME naming no NIC here
    (``eth0`` or ``eth`` is a prefix, ``=eth0`` exact, ``^docker`` excludes)."""
    addrs, ifaces = fs.get("net.host_addrs"), fs.get("net.ifaces")
    if addrs is None or ifaces is None:
        return None
    problems = []
    if_ip = fs.value("env.HCCL_IF_IP")
    if if_ip:
        if not addrs.ok:
            return same_status("net.nic_problems", addrs)
        if if_ip not in {a["address"] for a in addrs.value or []}:
            problems.append(f"HCCL_IF_IP={if_ip} is not an address of this host")
    for var in NIC_VARS:
        value = fs.value(f"env.{var}")
        if not value:
            continue
        if not ifaces.ok:
            return same_status("net.nic_problems", ifaces)
        names = list(ifaces.value or [])
        for part in (p.strip() for p in str(value).split(",")):
            if not part or part.startswith("^"):
                continue
            found = part[1:] in names if part.startswith("=") else any(n.startswith(part) for n in names)
            if not found:
                problems.append(f"{var}={value}: no NIC {'named' if part.startswith('=') else 'starting with'} "
                                f"{part.lstrip('=')!r} here (NICs: {', '.join(names) or 'none'})")
    return ok("net.nic_problems", problems, "derived", "from the environment, ip -o addr show and /sys/class/net")
