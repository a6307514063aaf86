"""npu-smi: where it is, ``info`` (devices, processes, DCMI failures), ``info -m``, and per NPU
``-t board``, ``-t health`` and ``-t usages``. A hung or failing npu-smi is itself a fact."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..parsers import dcmi, npu_smi_info, npu_smi_query
from ..system import CommandResult
from .base import ERROR, MISSING, OK, UNPARSED, ProbeContext, Fact, bad, command_status, ok, same_status

LOCATIONS = ("/usr/local/bin/npu-smi", "/usr/local/sbin/npu-smi")
COMPAT_ORDER = ("NOK", "NOT SUPPORT", "UNKNOWN", "OK")   # worst first


def locate(ctx: ProbeContext) -> Fact:
    """``npu_smi.path``: the first executable npu-smi on PATH or in the usual places."""
    path_dirs = [d for d in ctx.system.env().get("PATH", "").split(":") if d.startswith("/")]
    candidates = list(dict.fromkeys([f"{d.rstrip('/')}/npu-smi" for d in path_dirs] + list(LOCATIONS)))
    dirs_instead = []
    for c in candidates:
        try:
            st = ctx.system.stat(c)
        except OSError:
            continue
        if st.kind == "dir":
            dirs_instead.append(c)
            continue
        if st.kind == "file":
            return ok("npu_smi.path", c, c)
    if dirs_instead:
        return bad("npu_smi.path", ERROR, dirs_instead[0],
                   f"{dirs_instead[0]} is a directory, not the npu-smi program: the bind mount of the host's "
                   "npu-smi failed (on some hosts it lives in /usr/local/sbin, on others in /usr/local/bin)")
    return bad("npu_smi.path", MISSING, "PATH," + ",".join(LOCATIONS),
               "npu-smi is not on PATH nor in /usr/local/bin or /usr/local/sbin")


def _run(ctx: ProbeContext, argv: list[str], deadline: float) -> tuple[CommandResult, float]:
    """One per-NPU query within what is left of the queries' shared time budget."""
    left = deadline - time.monotonic()
    if left <= 0.05:
        return CommandResult(argv=tuple(argv), timed_out=True,
                             error=f"not run: the per-NPU queries used up their {ctx.timeout:g} s budget"), 0.0
    r = ctx.system.run(argv, timeout=min(ctx.timeout, left))
    return r, ctx.system.take_duration_ms()


def _worst(values: list[str | None]) -> str | None:
    seen = [str(v).upper() for v in values if v]
    for v in COMPAT_ORDER:
        if v in seen:
            return v
    return seen[0] if seen else None


def probe(ctx: ProbeContext) -> list[Fact]:
    facts: list[Fact] = []
    path_fact = locate(ctx)
    facts.append(path_fact)
    dependent = ["npu_smi.info", "npu.devices", "npu.count", "npu.chip_name", "npu.health", "npu.processes",
                 "npu.chip_map", "npu.boards", "npu.compatibility", "npu.usages", "npu.spod"]
    if not path_fact.ok:
        return facts + [same_status(k, path_fact) for k in dependent]
    exe = path_fact.value
    cmd = f"{exe} info"
    result = ctx.system.run([exe, "info"], timeout=ctx.timeout)
    status, detail = command_status(result)
    codes = dcmi.find(result.output)
    if codes:
        facts.append(ok("npu_smi.dcmi_error", codes[0]["code"], cmd, codes[0]["message"]))
    if status == OK or (status == ERROR and result.exit_code is not None and not codes):
        parsed = npu_smi_info.parse(result.stdout)
        if parsed.ok and (status == OK or parsed.value["devices"]):
            info = parsed.value
        elif status == OK:
            facts.append(bad("npu_smi.info", UNPARSED, cmd, parsed.reason))
            return facts + [same_status(k, facts[-1]) for k in dependent[1:]]
        else:
            info = None
    else:
        info = None
    if info is None:
        if codes:
            detail = f"DCMI error {codes[0]['code']}: {codes[0]['message']}"
        info_fact = bad("npu_smi.info", status if status != OK else ERROR, cmd, detail)
        facts.append(info_fact)
        return facts + [same_status(k, info_fact) for k in dependent[1:]]
    note = "; ".join(parsed.notes)
    facts.append(ok("npu_smi.info", info, cmd, note))
    devices = [{k: d[k] for k in ("npu_id", "chip_id", "logic_id", "phy_id", "name", "health", "power_w",
                                  "temp_c", "aicore_pct", "memory_used_mb", "memory_total_mb", "hbm_used_mb",
                                  "hbm_total_mb", "bus_id")} for d in info["devices"]]
    partial = " (the table was elided or truncated: fewer devices may be listed than exist)" \
        if info["elided"] or info["truncated"] else ""
    facts.append(ok("npu.devices", devices, cmd, partial.strip(" ()")))
    if info["truncated"]:
        # a cut table lists fewer devices than exist: the count is unknown, never a smaller number
        facts.append(bad("npu.count", UNPARSED, cmd, f"npu-smi info lists {len(devices)} device(s) but its "
                         "table is cut (no process section): the number of NPUs is unknown"))
    else:
        facts.append(ok("npu.count", len(devices), cmd, partial.strip(" ()")))
    names = [d["name"] for d in devices if d["name"]]
    if names:
        facts.append(ok("npu.chip_name", names[0], cmd))
    else:
        facts.append(bad("npu.chip_name", UNPARSED if devices else MISSING, cmd,
                         "chip names are masked or absent" if devices else "npu-smi lists no device"))
    facts.append(ok("npu.processes", info["processes"], cmd))

    # info -m, then per NPU board / health / usages, concurrently
    npu_ids = sorted({d["npu_id"] for d in devices if d["npu_id"] is not None})
    jobs: list[tuple[str, Any, list[str]]] = [("map", None, [exe, "info", "-m"])]
    for n in npu_ids:
        jobs += [("board", n, [exe, "info", "-t", "board", "-i", str(n)]),
                 ("health", n, [exe, "info", "-t", "health", "-i", str(n)]),
                 ("usages", n, [exe, "info", "-t", "usages", "-i", str(n)])]
    if npu_ids:
        jobs.append(("chipboard", npu_ids[0], [exe, "info", "-t", "board", "-i", str(npu_ids[0]), "-c", "0"]))
    # every per-NPU query shares one budget of --timeout seconds: with 16 NPUs whose queries hang, the
    # check still ends in seconds (not 16 x 3 x timeout / 8 workers); the time noted is the longest
    # query, since they run side by side
    deadline = time.monotonic() + ctx.timeout
    with ThreadPoolExecutor(max_workers=min(8, len(jobs))) as pool:
        done = list(pool.map(lambda j: (j, *_run(ctx, j[2], deadline)), jobs))
    ctx.system._note(max((ms for _, _, ms in done), default=0.0))
    failed_queries = {what: (st, det) for (what, _n, _a), r, _ in done
                      for st, det in [command_status(r)] if st != OK}
    boards, health, usages = [], {}, []
    chip_board = None
    map_fact = None
    for (what, n, argv), r, _ in done:
        src = " ".join(argv)
        st, det = command_status(r)
        if what == "map":
            if st != OK:
                map_fact = bad("npu.chip_map", st, src, det)
            else:
                pm = npu_smi_query.parse_map(r.stdout)
                map_fact = ok("npu.chip_map", pm.value["chips"], src) if pm.ok else bad("npu.chip_map", UNPARSED, src, pm.reason)
            continue
        if st != OK:
            if what == "board":
                boards.append({"npu_id": n, "chip_id": None, "driver_version": None, "firmware_version": None,
                               "compatibility": None, "chip_type": None, "chip_name": None, "npu_name": None,
                               "status": st, "detail": det})
            continue
        if what == "board":
            pb = npu_smi_query.parse_board(r.stdout)
            v = pb.value or {}
            boards.append({"npu_id": n, "chip_id": None, "driver_version": v.get("driver_version"),
                           "firmware_version": v.get("firmware_version"), "compatibility": v.get("compatibility"),
                           "chip_type": v.get("chip_type"), "chip_name": v.get("chip_name"),
                           "npu_name": v.get("npu_name"), "status": OK if pb.ok else UNPARSED,
                           "detail": pb.reason})
        elif what == "chipboard":
            pb = npu_smi_query.parse_board(r.stdout)
            if pb.ok:
                chip_board = {"npu_id": n, "chip_id": 0, **{k: pb.value.get(k) for k in
                              ("chip_type", "chip_name", "npu_name", "firmware_version")}}
        elif what == "health":
            ph = npu_smi_query.parse_health(r.stdout)
            if ph.ok:
                health[n] = ph.value
        elif what == "usages":
            pu = npu_smi_query.parse_usages(r.stdout)
            if pu.ok:
                usages.append({**{k: v for k, v in pu.value.items()}, "npu_id": n})
    facts.append(map_fact)
    facts.append(_spod(ctx, exe, map_fact, devices))
    src_board = f"{exe} info -t board -i <id>"
    if boards:
        for b in boards:
            if chip_board and b["npu_id"] == chip_board["npu_id"]:
                for k in ("chip_type", "chip_name", "npu_name"):
                    b[k] = b[k] or chip_board[k]
        if chip_board:
            boards.append({"npu_id": chip_board["npu_id"], "chip_id": 0, "driver_version": None,
                           "firmware_version": chip_board["firmware_version"], "compatibility": None,
                           "chip_type": chip_board["chip_type"], "chip_name": chip_board["chip_name"],
                           "npu_name": chip_board["npu_name"], "status": OK, "detail": ""})
        facts.append(ok("npu.boards", boards, src_board))
        worst = _worst([b["compatibility"] for b in boards])
        if worst:
            facts.append(ok("npu.compatibility", worst, src_board))
        else:
            failed = next((b for b in boards if b["status"] != OK), None)
            facts.append(bad("npu.compatibility", failed["status"] if failed else UNPARSED, src_board,
                             failed["detail"] if failed else "no Compatibility line in the board output"))
    else:
        facts.append(bad("npu.boards", MISSING, src_board, "no NPU to query"))
        facts.append(bad("npu.compatibility", MISSING, src_board, "no NPU to query"))
    hl = []
    for d in devices:
        h = health.get(d["npu_id"], {})
        hl.append({"npu_id": d["npu_id"], "chip_id": d["chip_id"], "health": d["health"],
                   "error_codes": h.get("error_codes", []), "board_health": h.get("health")})
    facts.append(_partial("npu.health", hl, cmd, failed_queries.get("health"), len(health), len(npu_ids)))
    facts.append(_partial("npu.usages", usages, f"{exe} info -t usages -i <id>", failed_queries.get("usages"),
                          len(usages), len(npu_ids)))
    return facts


def _spod(ctx: ProbeContext, exe: str, map_fact: Fact, devices: list[dict]) -> Fact:
    """``npu.spod``: SuperPoD identity of every chip of an A3 (other products do not have one and are not
    asked). The first chip is asked first; when it does not support the query the others are not asked."""
    from ..parsers.cluster import parse_spod_info
    from .cluster import run_side_by_side
    from .derived import family_of

    src = f"{exe} info -t spod-info -i <id> -c <chip>"
    names = [d["name"] for d in devices if d.get("name")]
    if family_of(names[0] if names else None, devices) != "a3":
        return bad("npu.spod", MISSING, src, "not an A3 NPU: no SuperPoD identity")
    if not map_fact.ok:
        return same_status("npu.spod", map_fact)
    chips = [(c["npu_id"], c["chip_id"]) for c in map_fact.value if not c.get("mcu") and c.get("npu_id") is not None
             and c.get("chip_id") is not None]
    if not chips:
        return bad("npu.spod", MISSING, src, "npu-smi info -m lists no chip")

    def argv(n, c):
        return [exe, "info", "-t", "spod-info", "-i", str(n), "-c", str(c)]

    results = run_side_by_side(ctx, [argv(*chips[0])])
    first = parse_spod_info(results[0].stdout) if results[0].stdout.strip() else None
    if first is not None and first.ok and not first.value["supported"]:
        return bad("npu.spod", MISSING, src, "this NPU does not support querying spod-info (not a SuperPoD product)")
    results += run_side_by_side(ctx, [argv(n, c) for n, c in chips[1:]])
    items, failure = [], None
    for (n, c), r in zip(chips, results):
        st, why = command_status(r)
        parsed = parse_spod_info(r.stdout) if st == OK else None
        if parsed is None or not parsed.ok:
            failure = failure or ((st, why) if st != OK else (UNPARSED, parsed.reason if parsed else ""))
            continue
        items.append({"npu_id": n, "chip_id": c, **{k: parsed.value[k] for k in
                                                    ("sdid", "super_pod_size", "super_pod_id", "server_index")}})
    if not items:
        return bad("npu.spod", failure[0] if failure else UNPARSED, src, failure[1] if failure else "")
    return _partial("npu.spod", items, src, failure, len(items), len(chips))


def _partial(key: str, value, source: str, failure: tuple[str, str] | None, got: int, wanted: int) -> Fact:
    """A fact built from per-NPU queries: ok only when every query answered; otherwise the failure's
    status (the data that did come is kept as the value), never a clean ok with data missing."""
    if failure is None or got >= wanted:
        return ok(key, value, source)
    status, detail = failure
    return Fact(key, value, status, source, f"{got} of {wanted} NPUs answered; {detail}")
