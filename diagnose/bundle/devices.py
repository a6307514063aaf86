"""``npu-smi info -t health|ecc|board|usages -i N`` for every device the snapshot found, and ``-c C`` for
every die of a device that has several (an A3 module's two dies, a 300I Duo card's two chips). The
queries run side by side within one time budget, each within the time-out, never through a shell."""
from __future__ import annotations

from ascend_doctor.kb.language.facts import FactSet

from ..probes.base import ProbeContext, command_status
from ..probes.cluster import run_side_by_side
from ..system import System
from .model import Entry, skipped
from .redact import Redactor

QUERIES = ("health", "ecc", "board", "usages")
#: every query within the time-out, all of them within this many time-outs (96 queries on an A3)
BUDGET = 3
_REASON = {"timeout": "timeout", "missing": "missing", "denied": "denied"}


def targets(facts: FactSet) -> tuple[str | None, list[tuple[int, int | None]], str]:
    """(npu-smi path, [(device, die or None)], why there is none). A device gets ``(n, None)``; a device
    with several dies (``npu-smi info -m`` without the Mcu rows, else the device table) also ``(n, c)``."""
    path = facts.get("npu_smi.path")
    if path is None or not path.ok:
        return None, [], f"npu-smi not found: {path.detail if path else 'not probed'}"
    devices = facts.get("npu.devices")
    if devices is None or not devices.ok or not devices.value:
        why = devices.detail if devices is not None and devices.detail else "npu-smi info lists no device"
        return path.value, [], f"no device list from npu-smi info ({devices.status if devices else 'missing'}): {why}"
    chips: dict[int, set[int]] = {}
    for d in devices.value:
        if isinstance(d.get("npu_id"), int):
            chips.setdefault(d["npu_id"], set())
            if isinstance(d.get("chip_id"), int):
                chips[d["npu_id"]].add(d["chip_id"])
    chip_map = facts.get("npu.chip_map")
    if chip_map is not None and chip_map.ok and chip_map.value:
        mapped: dict[int, set[int]] = {}
        for c in chip_map.value:
            if not c.get("mcu") and isinstance(c.get("npu_id"), int) and isinstance(c.get("chip_id"), int):
                mapped.setdefault(c["npu_id"], set()).add(c["chip_id"])
        for n in chips:
            chips[n] = mapped.get(n, chips[n])
    out: list[tuple[int, int | None]] = []
    for n in sorted(chips):
        out.append((n, None))
        if len(chips[n]) > 1:
            out += [(n, c) for c in sorted(chips[n])]
    return path.value, out, ""


def argv(exe: str, query: str, npu: int, chip: int | None) -> list[str]:
    return [exe, "info", "-t", query, "-i", str(npu)] + ([] if chip is None else ["-c", str(chip)])


def collect(system: System, facts: FactSet, timeout: float, redactor: Redactor) -> list[Entry]:
    exe, where, why = targets(facts)
    if not where:
        return [skipped("npu-smi", "npu-smi info -t health|ecc|board|usages -i <id>", "no_devices", why)]
    argvs = [argv(exe, q, n, c) for n, c in where for q in QUERIES]
    results = run_side_by_side(ProbeContext(system, timeout=timeout), argvs, budget=BUDGET * timeout)
    entries = []
    for args, r in zip(argvs, results):
        source = " ".join(["npu-smi", *args[1:]])
        n, c = args[5], (args[7] if len(args) > 7 else None)
        name = f"npu-smi/{args[3]}-i{n}" + (f"-c{c}" if c is not None else "") + ".txt"
        status, detail = command_status(r)
        output = r.output
        if not output.strip():
            entries.append(skipped("npu-smi", source, _REASON.get(status, "failed") if status != "ok" else "empty",
                                   detail, exit_code=r.exit_code))
            continue
        text, counts = redactor.redact(output)
        data = text.encode("utf-8")
        entries.append(Entry(kind="npu-smi", source=source, name=name, data=data, redactions=counts,
                             detail=detail, info={"exit_code": r.exit_code, "status": status}))
    return entries
