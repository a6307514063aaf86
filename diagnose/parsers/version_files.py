"""Version and install files of the Ascend stack.

``key=value`` files: driver ``version.info``, firmware ``version.info``, ``/etc/ascend_install.info``,
CANN ``ascend_toolkit_install.info`` (both layouts), toolkit/opp ``version.info`` and ``version.cfg``.
``Key : value`` files: NNAL ATB and MindIE / atb-models ``version.info``. Lines may be indented and
preceded by the ``cat`` command that printed them.
"""
from __future__ import annotations

import re
from typing import Any

from .base import ParseResult, unparsed

KV_EQ = re.compile(r"^\s*(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(?P<value>.*?)\s*$")
KV_COLON = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z0-9 _./-]*?)\s*:\s*(?P<value>.*?)\s*$")


def eq_pairs(text: str) -> dict[str, str]:
    d: dict[str, str] = {}
    for line in text.splitlines():
        m = KV_EQ.match(line)
        if m:
            v = m["value"]
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
                v = v[1:-1]
            d[m["key"]] = v
    return d


def colon_pairs(text: str) -> dict[str, str]:
    d: dict[str, str] = {}
    for line in text.splitlines():
        if line.lstrip().startswith(("#", "$", ">")):
            continue
        m = KV_COLON.match(line)
        if m:
            d[m["key"].strip()] = m["value"]
    return d


def _bracket_list(v: str | None) -> list[str]:
    return re.findall(r"\[([^\]]*)\]", v or "")


def _lower_keys(d: dict[str, str]) -> dict[str, str]:
    return {k.lower(): v for k, v in d.items()}


def parse_driver_version_info(text: str) -> ParseResult:
    kind = "driver-version-info"
    raw = eq_pairs(text)
    low = _lower_keys(raw)
    if "version" not in low or not ("ascendhal_version" in low or "compatible_version_fw" in low
                                    or "innerversion" in low):
        return unparsed(kind, "no Version= / ascendhal_version= / compatible_version_fw= lines")
    fw = _bracket_list(low.get("compatible_version_fw"))
    fw_range = fw[0].split(",") if fw else None
    value = {"version": low.get("package_version") or low["version"], "file_version": low["version"],
             "package_version": low.get("package_version"), "innerversion": low.get("innerversion"),
             "compatible_version": _bracket_list(low.get("compatible_version")),
             "compatible_firmware": [x.strip() for x in fw_range] if fw_range and len(fw_range) == 2 else None,
             "raw": raw}
    return ParseResult(kind, value=value)


def parse_firmware_version_info(text: str) -> ParseResult:
    kind = "firmware-version-info"
    raw = eq_pairs(text)
    low = _lower_keys(raw)
    if "version" not in low or "compatible_version_drv" not in low and "firmware_version" not in low:
        return unparsed(kind, "no Version= / compatible_version_drv= lines")
    ranges = [[x.strip() for x in r.split(",")] for r in _bracket_list(low.get("compatible_version_drv"))]
    return ParseResult(kind, value={"version": low["version"], "package_version": low.get("package_version"),
                                    "compatible_driver": ranges, "raw": raw})


def parse_ascend_install_info(text: str) -> ParseResult:
    kind = "ascend-install-info"
    raw = eq_pairs(text)
    if not any(k.startswith(("Driver_", "Firmware_", "UserName", "UserGroup")) for k in raw):
        return unparsed(kind, "no Driver_* / Firmware_* / UserName= lines")
    return ParseResult(kind, value={"user": raw.get("UserName"), "group": raw.get("UserGroup"),
                                    "driver_install_path": raw.get("Driver_Install_Path_Param"), "raw": raw})


def parse_toolkit_install_info(text: str) -> ParseResult:
    kind = "toolkit-install-info"
    raw = eq_pairs(text)
    if "version" not in raw or "package_name" not in raw and "innerversion" not in raw:
        return unparsed(kind, "no package_name= / version= / innerversion= lines")
    path = raw.get("path", "")
    layout = "cann" if re.search(r"/cann(?:-[^/]*)?/", path + "/") else "toolkit" if "ascend-toolkit" in path else None
    return ParseResult(kind, value={"package_name": raw.get("package_name"), "version": raw["version"],
                                    "innerversion": raw.get("innerversion"), "arch": raw.get("arch"),
                                    "path": raw.get("path"), "layout": layout,
                                    "compatible_version": _bracket_list(raw.get("compatible_version")), "raw": raw})


def parse_cann_version_info(text: str) -> ParseResult:
    """toolkit/ or opp_kernel/ ``version.info``: Version=8.2.0.0.201, version_dir=8.2.RC1, required_package_*."""
    kind = "cann-version-info"
    raw = eq_pairs(text)
    low = _lower_keys(raw)
    if "version_dir" not in low and not any(k.startswith("required_package_") for k in low):
        return unparsed(kind, "no version_dir= / required_package_*= lines")
    required = {k[len("required_package_"):-len("_version")]: v for k, v in low.items()
                if k.startswith("required_package_") and k.endswith("_version")}
    return ParseResult(kind, value={"version": low.get("version_dir"), "inner_version": low.get("version"),
                                    "required_packages": required, "raw": raw})


def parse_version_cfg(text: str) -> ParseResult:
    """``latest/version.cfg``: ``runtime_running_version=[7.6.0.1.220:8.0.0]`` per component."""
    kind = "cann-version-cfg"
    comps: dict[str, dict[str, Any]] = {}
    for k, v in eq_pairs(text).items():
        m = re.fullmatch(r"(?P<comp>\w+?)_(?P<what>running|upgrade|installed)_version", k)
        if not m:
            continue
        entries = [e.split(":", 1) for e in _bracket_list(v)]
        if entries and len(entries[0]) == 2:
            comps.setdefault(m["comp"], {})[m["what"]] = {"inner": entries[0][0], "version": entries[0][1]}
    if not comps:
        return unparsed(kind, "no <component>_running_version=[inner:version] lines")
    running = [c["running"]["version"] for c in comps.values() if "running" in c]
    version = max(set(running), key=running.count) if running else None
    return ParseResult(kind, value={"version": version, "components": comps,
                                    "consistent": len(set(running)) <= 1})


def parse_nnal_version_info(text: str) -> ParseResult:
    kind = "nnal-version-info"
    raw = colon_pairs(text)
    low = {k.lower(): v for k, v in raw.items()}
    if "ascend-cann-atb" not in low and "ascend-cann-atb version" not in low:
        return unparsed(kind, "no 'Ascend-cann-atb : <version>' line")
    return ParseResult(kind, value={"version": low.get("ascend-cann-atb") or low.get("ascend-cann-atb version"),
                                    "full_version": low.get("ascend-cann-atb version"),
                                    "platform": low.get("platform"), "raw": raw})


def parse_mindie_version_info(text: str) -> ParseResult:
    """MindIE ``version.info`` (``Ascend-mindie : MindIE 2.0.T3.B010``, components) and atb-models'."""
    kind = "mindie-version-info"
    raw = colon_pairs(text)
    low = {k.lower(): v for k, v in raw.items()}
    version = low.get("ascend-mindie")
    if version is not None:
        version = re.sub(r"^MindIE\s+", "", version, flags=re.I) or None
    comps = {k: v for k, v in low.items() if re.fullmatch(r"mindie-[a-z]+", k) and v}
    atb_models = low.get("atb-models version")
    if version is None and not comps and atb_models is None:
        return unparsed(kind, "no 'Ascend-mindie :', 'mindie-*:' or 'ATB-Models Version :' line")
    return ParseResult(kind, value={"version": version, "components": comps, "atb_models_version": atb_models or None,
                                    "raw": raw})


def parse_component_version_info(text: str) -> ParseResult:
    """``share/info/<component>/version.info`` of a CANN install (``hccl``, ``hcomm``): ``Version=8.5.1``."""
    kind = "cann-component-version-info"
    low = _lower_keys(eq_pairs(text))
    if not low.get("version"):
        return unparsed(kind, "no Version= line")
    return ParseResult(kind, value={"version": low["version"]})
