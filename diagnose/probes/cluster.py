"""What a node brings to a cluster, for the fleet check: its NPU NICs (``hccn_tool``, ``/etc/hccn.conf``),
the rank table it was given (``RANK_TABLE_FILE``), its clock and NTP state, its host addresses and the
two listen-backlog sysctls. Read-only like every probe: only ``-g`` (get) queries are run."""
from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

from ..parsers import cluster as cluster_parsers
from ..parsers import hccn as hccn_parsers
from ..parsers import host_net
from ..system import CommandResult
from .base import DENIED, ERROR, MISSING, OK, UNPARSED, ProbeContext, Fact, bad, command_status, ok, read_text

HCCN_LOCATIONS = ("/usr/local/Ascend/driver/tools/hccn_tool",)
HCCN_CONF = "/etc/hccn.conf"
SYSCTLS = {"sysctl.somaxconn": "/proc/sys/net/core/somaxconn",
           "sysctl.tcp_max_syn_backlog": "/proc/sys/net/ipv4/tcp_max_syn_backlog"}
HCCN_FIELDS = ("ipaddr", "netmask", "link", "net_health", "tls_switch", "tls_preconfigured", "netdetect", "gateway")


def run_side_by_side(ctx: ProbeContext, argvs: list[list[str]], workers: int = 8,
                     budget: float | None = None) -> list[CommandResult]:
    """Run commands concurrently within one shared budget of ``budget`` (default ``ctx.timeout``) seconds,
    each within ``ctx.timeout`` (a machine whose 16 NPUs all hang still answers in seconds); the time
    noted is the longest command's."""
    budget = ctx.timeout if budget is None else budget
    deadline = time.monotonic() + budget

    def one(argv: list[str]) -> tuple[CommandResult, float]:
        left = deadline - time.monotonic()
        if left <= 0.05:
            return CommandResult(argv=tuple(argv), timed_out=True,
                                 error=f"not run: the queries used up their {budget:g} s budget"), 0.0
        r = ctx.system.run(argv, timeout=min(ctx.timeout, left))
        return r, ctx.system.take_duration_ms()

    if not argvs:
        return []
    with ThreadPoolExecutor(max_workers=min(workers, len(argvs))) as pool:
        done = list(pool.map(one, argvs))
    ctx.system._note(max(ms for _, ms in done))
    return [r for r, _ in done]


def locate_hccn_tool(ctx: ProbeContext) -> Fact:
    path_dirs = [d for d in ctx.system.env().get("PATH", "").split(":") if d.startswith("/")]
    for c in dict.fromkeys(list(HCCN_LOCATIONS) + [f"{d.rstrip('/')}/hccn_tool" for d in path_dirs]):
        try:
            if ctx.system.stat(c).kind == "file":
                return ok("hccn.tool_path", c, c)
        except OSError:
            continue
    return bad("hccn.tool_path", MISSING, ",".join(HCCN_LOCATIONS) + ",PATH",
               "hccn_tool not found (no RoCE NICs on this machine, or the driver tools are not installed or mounted)")


def device_ids(ctx: ProbeContext) -> list[int]:
    """NPU ids from the device nodes (``/dev/davinciN``), which is what ``hccn_tool -i`` takes."""
    try:
        names = ctx.system.list_dir("/dev")
    except OSError:
        return []
    return sorted(int(n[7:]) for n in names if re.fullmatch(r"davinci\d+", n))


def hccn(ctx: ProbeContext) -> list[Fact]:
    facts = [locate_hccn_tool(ctx)]
    tool = facts[0]
    conf_text, st, detail = read_text(ctx.system, HCCN_CONF)
    if st != OK:
        facts.append(bad("hccn.conf", st, HCCN_CONF, detail))
    else:
        res = hccn_parsers.parse_conf(conf_text)
        facts.append(ok("hccn.conf", res.value["devices"], HCCN_CONF) if res.ok
                     else bad("hccn.conf", UNPARSED, HCCN_CONF, res.reason))
    if not tool.ok:
        facts.append(Fact("hccn.devices", None, tool.status, tool.source, tool.detail))
        return facts
    ids = device_ids(ctx)
    src = f"{tool.value} -i <id> -ip|-link|-net_health|-tls|-netdetect|-gateway -g"
    if not ids:
        facts.append(bad("hccn.devices", MISSING, "/dev", "no /dev/davinciN device node: no NPU to query"))
        return facts
    jobs = [(d, q, [tool.value, "-i", str(d), f"-{q}", "-g"]) for d in ids for q in hccn_parsers.QUERIES]
    results = run_side_by_side(ctx, [a for _, _, a in jobs])
    devices = {d: {"device": d, **{k: None for k in HCCN_FIELDS}, "errors": {}} for d in ids}
    answered, first_failure = 0, None
    for (d, q, _), r in zip(jobs, results):
        status, why = command_status(r)
        item = devices[d]
        if status != OK:
            item["errors"][q] = f"{status}: {why}"
            first_failure = first_failure or (status, why)
            continue
        parsed = hccn_parsers.QUERIES[q](r.stdout)
        if not parsed.ok:
            item["errors"][q] = f"{UNPARSED}: {parsed.reason}"
            first_failure = first_failure or (UNPARSED, parsed.reason)
            continue
        answered += 1
        for k, v in parsed.value.items():
            if k in item:
                item[k] = v
    if not answered and first_failure:
        facts.append(bad("hccn.devices", first_failure[0], src, f"no hccn_tool query answered: {first_failure[1]}"))
        return facts
    failed = sum(1 for it in devices.values() for _ in it["errors"])
    facts.append(ok("hccn.devices", list(devices.values()), src,
                    f"{failed} of {len(jobs)} queries gave no answer (see each device's errors)" if failed else ""))
    return facts


def _host_addrs(ctx: ProbeContext) -> Fact:
    argv = ["ip", "-o", "addr", "show"]
    r = ctx.system.run(argv, timeout=ctx.timeout)
    status, why = command_status(r)
    if status != OK:
        return bad("net.host_addrs", status, " ".join(argv), why)
    res = host_net.parse_ip_addr(r.stdout)
    return ok("net.host_addrs", res.value["addresses"], " ".join(argv)) if res.ok else \
        bad("net.host_addrs", UNPARSED, " ".join(argv), res.reason)


def host_network(ctx: ProbeContext) -> list[Fact]:
    facts = [_host_addrs(ctx)]
    try:
        facts.append(ok("net.ifaces", sorted(ctx.system.list_dir("/sys/class/net")), "/sys/class/net"))
    except OSError as exc:
        facts.append(bad("net.ifaces", MISSING if isinstance(exc, FileNotFoundError) else ERROR, "/sys/class/net",
                         str(exc.strerror or exc)))
    for key, path in SYSCTLS.items():
        text, st, detail = read_text(ctx.system, path)
        if st != OK:
            facts.append(bad(key, st, path, detail))
        elif re.fullmatch(r"\s*\d+\s*", text):
            facts.append(ok(key, int(text), path))
        else:
            facts.append(bad(key, UNPARSED, path, f"not a number: {text[:40]!r}"))
    return facts


def clock(ctx: ProbeContext) -> list[Fact]:
    """Host clock (``date +%s.%N``) and NTP state: chrony when it runs, else systemd's timedatectl."""
    facts = []
    r = ctx.system.run(["date", "+%s.%N"], timeout=ctx.timeout)
    status, why = command_status(r)
    try:
        facts.append(ok("clock.epoch_s", float(r.stdout.strip()), "date +%s.%N") if status == OK
                     else bad("clock.epoch_s", status, "date +%s.%N", why))
    except ValueError:
        facts.append(bad("clock.epoch_s", UNPARSED, "date +%s.%N", f"not a time: {r.stdout.strip()[:40]!r}"))
    chrony = ctx.system.run(["chronyc", "-c", "tracking"], timeout=ctx.timeout)
    cst, cwhy = command_status(chrony)
    parsed = host_net.parse_chrony_tracking(chrony.stdout) if cst == OK else None
    if parsed is not None and parsed.ok:
        v = parsed.value
        src = "chronyc -c tracking"
        facts += [ok("clock.ntp_synchronized", v["synchronized"], src, f"leap status {v['leap']}"),
                  ok("clock.offset_s", v["offset_s"], src), ok("clock.source", "chrony", src)]
        return facts
    td = ctx.system.run(["timedatectl", "show"], timeout=ctx.timeout)
    tst, twhy = command_status(td)
    tparsed = host_net.parse_timedatectl(td.stdout) if tst == OK else None
    reasons = f"chronyc: {cwhy or (parsed.reason if parsed else '')}; timedatectl: " \
              f"{twhy or (tparsed.reason if tparsed else '')}"
    if tparsed is not None and tparsed.ok and tparsed.value["ntp_synchronized"] is not None:
        src = "timedatectl show"
        facts += [ok("clock.ntp_synchronized", tparsed.value["ntp_synchronized"], src),
                  bad("clock.offset_s", MISSING, src, "timedatectl reports no offset (chrony is not running)"),
                  ok("clock.source", "timedatectl", src)]
        return facts
    status = MISSING if (chrony.not_found and (td.not_found or tst != OK)) else (tst if tst != OK else UNPARSED)
    facts += [bad("clock.ntp_synchronized", status, "chronyc -c tracking,timedatectl show", reasons),
              bad("clock.offset_s", status, "chronyc -c tracking", reasons),
              bad("clock.source", status, "chronyc -c tracking,timedatectl show", reasons)]
    return facts


def rank_table(ctx: ProbeContext) -> list[Fact]:
    """The rank table named by RANK_TABLE_FILE: its hash, its own problems, and this node's entry (found by
    the host's addresses). Only this node's entry is kept, so a 1,024-server table does not grow every
    snapshot; the fleet check compares hashes and each node's entry with its live device addresses."""
    path = ctx.system.env().get("RANK_TABLE_FILE", "").strip()
    if not path:
        return [bad("rank_table", MISSING, "environment", "RANK_TABLE_FILE is not set")]
    try:
        data = ctx.system.read_file(path, limit=64 * 1024 * 1024)
    except FileNotFoundError:
        return [bad("rank_table", ERROR, path, f"RANK_TABLE_FILE names {path}, which does not exist")]
    except PermissionError:
        return [bad("rank_table", DENIED, path, f"permission denied reading {path}")]
    except OSError as exc:
        return [bad("rank_table", ERROR, path, f"cannot read {path}: {exc.strerror or exc}")]
    text = data.decode("utf-8", errors="replace")
    res = cluster_parsers.parse_rank_table(text)
    if not res.ok:
        return [bad("rank_table", UNPARSED, path, res.reason)]
    v = res.value
    addrs = _host_addrs(ctx)
    mine = {a["address"] for a in (addrs.value or []) if a["family"] == "inet"} if addrs.ok else set()
    self_entry, by = None, None
    for s in v["servers"]:
        for field in ("host_ip", "container_ip", "server_id"):
            if s.get(field) and s[field] in mine:
                self_entry, by = s, field
                break
        if self_entry:
            break
    value = {"path": path, "sha256": cluster_parsers.sha256(data), "version": v["version"], "status": v["status"],
             "server_count": v["server_count"], "servers": len(v["servers"]), "ranks": v["ranks"],
             "problems": v["problems"], "server_ids": [s["server_id"] for s in v["servers"]],
             "super_pods": [{"super_pod_id": p["super_pod_id"], "servers": len(p["server_ids"])} for p in v["super_pods"]],
             "self": self_entry, "self_by": by}
    return [ok("rank_table", value, path, "" if self_entry else
               "this node's addresses are not in the rank table (by host_ip, container_ip or server_id)")]
