"""Facts derived from other facts once every probe has run: hardware family, SoC, and fall-backs for
the driver / firmware versions when their files are absent (e.g. inside a container)."""
from __future__ import annotations

import re

from ascend_doctor.kb.language.facts import FactSet
from .base import MISSING, OK, Fact, ok, same_status

FAMILIES = (  # (pattern on the SoC or the npu-smi Name, family)
    (re.compile(r"^(?:Ascend)?910B\d", re.I), "a2"),
    (re.compile(r"^(?:Ascend)?910_?93\d\d", re.I), "a3"),
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
    return out
