"""Operating system, kernel, architecture, driver modules, /dev/shm, container, device nodes, driver
mounts, user and groups, environment variables, processes holding NPUs."""
from __future__ import annotations

import re

from ..parsers import os_info
from ..parsers.base import size_bytes
from ..system.replay import scrub_value
from .base import DENIED, ERROR, MISSING, OK, UNPARSED, ProbeContext, Fact, bad, ok, read_text

DRIVER_MOUNTS = ("/usr/local/Ascend/driver/lib64", "/usr/local/dcmi", "/usr/local/bin/npu-smi",
                 "/usr/local/sbin/npu-smi", "/etc/ascend_install.info", "/usr/local/Ascend/driver/version.info")
DEV_NAMES = re.compile(r"^(?:v?davinci\d+|davinci_manager(?:_docker)?|devmm_svm|hisi_hdc|ascend_manager|user_config|"
                       r"svm0|ts_aisle|upgrade|sys|vdec|vpc|pngd|venc|dvpp_cmdlist|log_drv|acodec|ai|ao|vo|hdmi)$")
MODULES = re.compile(r"^(?:drv_\w+|ascend\w*|davinci\w*|\w*devdrv\w*|\w*hdc\w*|dbl_\w+)$")

# Environment variables read (and kept in snapshots): these names and prefixes, nothing else.
ENV_NAMES = ("LD_LIBRARY_PATH", "PATH", "PYTHONPATH", "PYTORCH_NPU_ALLOC_CONF", "PYTORCH_ALLOC_CONF",
             "TASK_QUEUE_ENABLE", "SOC_VERSION", "RANK_TABLE_FILE", "TORCH_DEVICE_BACKEND_AUTOLOAD",
             "TOOLCHAIN_HOME", "ACL_DEVICE_SYNC_TIMEOUT", "TORCH_HCCL_ASYNC_ERROR_HANDLING",
             "TORCH_NPU_COMPACT_ERROR_OUTPUT", "OMP_NUM_THREADS", "KUBERNETES_SERVICE_HOST", "CUDA_VISIBLE_DEVICES",
             "GLOO_SOCKET_IFNAME", "MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "TP_SOCKET_IFNAME",
             "RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES")
ENV_PREFIXES = ("ASCEND_", "HCCL_", "LCCL_", "ATB_", "ASDOPS_", "NPU_", "TORCH_NPU_", "VLLM_", "SGLANG_", "MINDIE_",
                "MIES_", "HCCN_")
SECRET = re.compile(r"KEY|TOKEN|SECRET|PASS|PWD|CREDENTIAL|AUTH|LOGIN|LICEN[CS]E|PRIVATE|COOKIE|SESSION|CERT",
                    re.I)
# Reported even when unset (status missing), because rules ask about them.
ENV_ALWAYS = ("ASCEND_RT_VISIBLE_DEVICES", "ASCEND_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "ASCEND_TOOLKIT_HOME",
              "ASCEND_HOME_PATH", "ASCEND_OPP_PATH", "ASCEND_AICPU_PATH", "PYTORCH_NPU_ALLOC_CONF",
              "HCCL_CONNECT_TIMEOUT", "HCCL_EXEC_TIMEOUT", "HCCL_IF_IP", "HCCL_SOCKET_IFNAME", "HCCL_BUFFSIZE",
              "HCCL_OP_EXPANSION_MODE", "TASK_QUEUE_ENABLE", "ASCEND_GLOBAL_LOG_LEVEL", "ASCEND_LAUNCH_BLOCKING",
              "ASCEND_CUSTOM_OPP_PATH", "ATB_HOME_PATH", "SOC_VERSION", "ASCEND_RUNTIME_OPTIONS", "MASTER_ADDR",
              "MASTER_PORT", "WORLD_SIZE")


def env_allowed(name: str) -> bool:
    """May this environment variable be read and kept in a snapshot?"""
    if SECRET.search(name):
        return False
    return name in ENV_NAMES or name.startswith(ENV_PREFIXES)


def os_kernel(ctx: ProbeContext) -> list[Fact]:
    facts = []
    text, status, detail = read_text(ctx.system, "/etc/os-release")
    path = "/etc/os-release"
    if status == MISSING:
        text, status, detail = read_text(ctx.system, "/usr/lib/os-release")
        path = "/usr/lib/os-release" if status != MISSING else path
    if status == OK:
        res = os_info.parse_os_release(text)
        if res.ok:
            v = res.value
            for key, field in (("os.id", "id"), ("os.version_id", "version_id"), ("os.pretty_name", "pretty_name")):
                facts.append(ok(key, v[field], path) if v[field] is not None
                             else bad(key, MISSING, path, f"no {field.upper()}= line"))
        else:
            facts += [bad(k, UNPARSED, path, res.reason) for k in ("os.id", "os.version_id", "os.pretty_name")]
    else:
        facts += [bad(k, status, path, detail) for k in ("os.id", "os.version_id", "os.pretty_name")]
    u = ctx.system.uname()
    facts.append(ok("kernel.release", u.release, "uname") if u.release else bad("kernel.release", MISSING, "uname", "empty"))
    facts.append(ok("arch", u.machine, "uname") if u.machine else bad("arch", MISSING, "uname", "empty"))
    # loaded driver modules
    text, status, detail = read_text(ctx.system, "/proc/modules")
    if status == OK:
        mods = sorted({ln.split()[0] for ln in text.splitlines() if ln.split() and MODULES.match(ln.split()[0])})
        facts.append(ok("driver.modules", mods, "/proc/modules"))
    else:
        facts.append(bad("driver.modules", status, "/proc/modules", detail))
    # /dev/shm
    text, status, _ = read_text(ctx.system, "/proc/mounts")
    size = None
    if status == OK:
        for ln in text.splitlines():
            parts = ln.split()
            if len(parts) >= 4 and parts[1] == "/dev/shm":
                m = re.search(r"(?:^|,)size=(\d+[kmgKMG]?)", parts[3])
                if m:
                    size = size_bytes(m.group(1))
    if size is not None:
        facts.append(ok("shm.size_bytes", size, "/proc/mounts"))
    else:
        try:
            facts.append(ok("shm.size_bytes", ctx.system.fs_size("/dev/shm"), "statvfs /dev/shm"))
        except FileNotFoundError:
            facts.append(bad("shm.size_bytes", MISSING, "/dev/shm", "/dev/shm is not mounted"))
        except PermissionError:
            facts.append(bad("shm.size_bytes", DENIED, "/dev/shm", "permission denied"))
        except OSError as exc:
            facts.append(bad("shm.size_bytes", ERROR, "/dev/shm", str(exc)))
    return facts


def container(ctx: ProbeContext) -> list[Fact]:
    facts = []
    s = ctx.system
    env = s.env()
    cgroup, _, _ = read_text(s, "/proc/1/cgroup")
    cgroup = cgroup or ""
    kind, why = "none", "no container marker found"
    if env.get("KUBERNETES_SERVICE_HOST") or "kubepods" in cgroup:
        kind, why = "kubernetes", "KUBERNETES_SERVICE_HOST or kubepods cgroup"
    elif s.exists("/.dockerenv") or "/docker" in cgroup:
        kind, why = "docker", "/.dockerenv or docker cgroup"
    elif s.exists("/run/.containerenv"):
        kind, why = "podman", "/run/.containerenv"
    elif "containerd" in cgroup:
        kind, why = "containerd", "containerd cgroup"
    elif re.search(r"\b(lxc|libpod)\b", cgroup):
        kind, why = "unknown-container", "container cgroup"
    facts.append(ok("container.kind", kind, "/.dockerenv,/run/.containerenv,/proc/1/cgroup,env", why))
    try:
        names = s.list_dir("/dev")
        nodes = sorted((n for n in names if DEV_NAMES.match(n)),
                       key=lambda n: (not n.startswith("davinci") or not n[7:].isdigit(),
                                      int(n[7:]) if n.startswith("davinci") and n[7:].isdigit() else 0, n))
        facts.append(ok("dev.nodes", nodes, "/dev"))
    except PermissionError:
        facts.append(bad("dev.nodes", DENIED, "/dev", "permission denied listing /dev"))
    except OSError as exc:
        facts.append(bad("dev.nodes", ERROR, "/dev", str(exc)))
    present = {p: s.exists(p) for p in DRIVER_MOUNTS}
    facts.append(ok("mounts.present", present, ",".join(DRIVER_MOUNTS)))
    return facts


def user(ctx: ProbeContext) -> list[Fact]:
    i = ctx.system.identity()
    return [ok("user.uid", i.uid, "identity"), ok("user.name", i.user, "identity"),
            ok("user.groups", list(i.groups), "identity"),
            ok("user.hwhiaiuser_exists", ctx.system.user_exists("HwHiAiUser"), "/etc/passwd,/etc/group")]


def environment(ctx: ProbeContext) -> list[Fact]:
    env = ctx.system.env()
    facts = []
    names = sorted({n for n in env if env_allowed(n)} | set(ENV_ALWAYS))
    for n in names:
        if n in env:
            facts.append(ok(f"env.{n}", scrub_value(env[n]), "environment"))
        else:
            facts.append(bad(f"env.{n}", MISSING, "environment", f"{n} is not set"))
    return facts


def npu_holders(ctx: ProbeContext) -> list[Fact]:
    s = ctx.system
    try:
        pids = [p for p in s.list_dir("/proc") if p.isdigit()]
    except OSError as exc:
        return [bad("processes.npu_holders", ERROR, "/proc", str(exc))]
    holders, denied = [], 0
    for pid in pids:
        try:
            fds = s.list_dir(f"/proc/{pid}/fd")
        except PermissionError:
            denied += 1
            continue
        except OSError:
            continue
        devices = set()
        for fd in fds:
            try:
                target = s.read_link(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if re.fullmatch(r"/dev/v?davinci\d+", target):
                devices.add(target[5:])
        if devices:
            name_text, st, _ = read_text(s, f"/proc/{pid}/comm")
            holders.append({"pid": int(pid), "name": (name_text or "").strip() or None,
                            "devices": sorted(devices, key=lambda d: int(re.sub(r"\D", "", d) or 0))})
    if denied:
        # holders among the unreadable processes are unknown: never a clean "nobody holds an NPU"
        return [Fact("processes.npu_holders", holders, DENIED, "/proc/*/fd",
                     f"{denied} of {len(pids)} processes could not be inspected (permission denied; run as root "
                     f"to see them); {len(holders)} readable process(es) hold an NPU")]
    return [ok("processes.npu_holders", holders, "/proc/*/fd")]
