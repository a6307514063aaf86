"""Version and install files: driver, firmware, /etc/ascend_install.info, CANN (both layouts), NNAL, MindIE."""
from __future__ import annotations

from ..parsers import version_files as vf
from .base import MISSING, OK, UNPARSED, ProbeContext, Fact, bad, ok, read_text

ASCEND = "/usr/local/Ascend"
DRIVER_INFO = f"{ASCEND}/driver/version.info"
FIRMWARE_INFO = f"{ASCEND}/firmware/version.info"
INSTALL_INFO = "/etc/ascend_install.info"
NNAL_INFO = f"{ASCEND}/nnal/atb/latest/version.info"
MINDIE_INFO = f"{ASCEND}/mindie/latest/version.info"


def _file_fact(ctx: ProbeContext, key: str, path: str, parser, pick=lambda v: v) -> tuple[Fact, dict | None]:
    text, status, detail = read_text(ctx.system, path)
    if status != OK:
        return bad(key, status, path, detail), None
    res = parser(text)
    if not res.ok:
        return bad(key, UNPARSED, path, res.reason), None
    return ok(key, pick(res.value), path, detail), res.value


def driver(ctx: ProbeContext) -> list[Fact]:
    facts = []
    info_fact, value = _file_fact(ctx, "driver.version_info", DRIVER_INFO, vf.parse_driver_version_info,
                                  lambda v: v["raw"])
    facts.append(info_fact)
    if value:
        facts.append(ok("driver.version", value["version"], DRIVER_INFO))
    else:
        facts.append(Fact("driver.version", None, info_fact.status, DRIVER_INFO, info_fact.detail))
    installed = ctx.system.exists(f"{ASCEND}/driver") and info_fact.status != MISSING
    facts.append(ok("driver.installed", installed, DRIVER_INFO,
                    "" if installed else f"{DRIVER_INFO} does not exist"))
    # firmware
    fw_fact, fw = _file_fact(ctx, "firmware.version", FIRMWARE_INFO, vf.parse_firmware_version_info,
                             lambda v: v["version"])
    facts.append(fw_fact)
    # /etc/ascend_install.info
    facts.append(_file_fact(ctx, "install_info", INSTALL_INFO, vf.parse_ascend_install_info, lambda v: v["raw"])[0])
    return facts


def _cann_candidates(ctx: ProbeContext, arch: str) -> list[tuple[str, str]]:
    """(install info path, layout) in the order they are tried."""
    env = ctx.system.env()
    out: list[tuple[str, str]] = []
    for var in ("ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH"):
        home = env.get(var, "").rstrip("/")
        if home.startswith("/"):
            layout = "toolkit" if "ascend-toolkit" in home else "cann"
            out.append((f"{home}/{arch}-linux/ascend_toolkit_install.info", layout))
    out.append((f"{ASCEND}/cann/{arch}-linux/ascend_toolkit_install.info", "cann"))
    try:
        for name in ctx.system.list_dir(ASCEND):
            if name.startswith("cann-"):
                out.append((f"{ASCEND}/{name}/{arch}-linux/ascend_toolkit_install.info", "cann"))
    except OSError:
        pass
    out.append((f"{ASCEND}/ascend-toolkit/latest/{arch}-linux/ascend_toolkit_install.info", "toolkit"))
    return list(dict.fromkeys(out))


def cann(ctx: ProbeContext) -> list[Fact]:
    arch = ctx.system.uname().machine or "aarch64"
    tried = []
    for path, layout in _cann_candidates(ctx, arch):
        text, status, detail = read_text(ctx.system, path)
        tried.append(path)
        if status == MISSING:
            continue
        if status != OK:
            f = bad("cann.version", status, path, detail)
            return [f, bad("cann.install_info", status, path, detail), bad("cann.layout", status, path, detail),
                    bad("cann.path", status, path, detail)]
        res = vf.parse_toolkit_install_info(text)
        if not res.ok:
            return [bad(k, UNPARSED, path, res.reason) for k in ("cann.version", "cann.install_info", "cann.layout",
                                                                  "cann.path")]
        v = res.value
        base = path.rsplit("/", 2)[0]
        return [ok("cann.version", v["version"], path), ok("cann.install_info", v["raw"], path),
                ok("cann.layout", v["layout"] or layout, path), ok("cann.path", base, path),
                *_component_versions(ctx, base)]
    # no install info: try version.cfg of the toolkit layout
    cfg = f"{ASCEND}/ascend-toolkit/latest/version.cfg"
    text, status, detail = read_text(ctx.system, cfg)
    if status == OK:
        res = vf.parse_version_cfg(text)
        if res.ok and res.value["version"]:
            return [ok("cann.version", res.value["version"], cfg),
                    bad("cann.install_info", MISSING, ",".join(tried), "no ascend_toolkit_install.info found"),
                    ok("cann.layout", "toolkit", cfg), ok("cann.path", f"{ASCEND}/ascend-toolkit/latest", cfg)]
    detail = "no CANN install found (looked for ascend_toolkit_install.info in: " + ", ".join(tried) + ")"
    return [bad(k, MISSING, ",".join(tried), detail) for k in ("cann.version", "cann.install_info", "cann.layout",
                                                              "cann.path")]


#: split HCCL packages whose versions HCCL compares between ranks at link setup (EI0008)
COMPONENTS = {"cann.hccl_version": "hccl", "cann.hcomm_version": "hcomm"}


def _component_versions(ctx: ProbeContext, base: str) -> list[Fact]:
    return [_file_fact(ctx, key, f"{base}/share/info/{name}/version.info", vf.parse_component_version_info,
                       lambda v: v["version"])[0] for key, name in COMPONENTS.items()]


def nnal_mindie(ctx: ProbeContext) -> list[Fact]:
    return [_file_fact(ctx, "nnal.atb.version", NNAL_INFO, vf.parse_nnal_version_info, lambda v: v["version"])[0],
            _file_fact(ctx, "mindie.version", MINDIE_INFO, vf.parse_mindie_version_info, lambda v: v["version"])[0]]
