"""What the Environment screen's overview shows, from the facts alone (no widgets): a summary card
(product, NPUs, HDK, CANN, the Python stack, the system) and an ``npu-smi info``-like device table."""
from __future__ import annotations

from .words import w

#: the Python stack in the card, in this order: (name, fact key)
STACK = (("Python", "python.version"), ("torch", "pkg.torch"), ("torch_npu", "pkg.torch_npu"),
         ("vllm", "pkg.vllm"), ("vllm-ascend", "pkg.vllm_ascend"), ("sglang", "pkg.sglang"),
         ("MindIE", "mindie.version"), ("NNAL ATB", "nnal.atb.version"), ("numpy", "pkg.numpy"))

#: columns of the device table: (words key, how to show one device dict)
DEVICE_COLUMNS = (
    ("env.dev.npu", lambda d: _num(d.get("npu_id"))),
    ("env.dev.chip", lambda d: _num(d.get("chip_id"))),
    ("env.dev.name", lambda d: str(d.get("name") or "")),
    ("env.dev.health", lambda d: str(d.get("health") or "")),
    ("env.dev.power", lambda d: _num(d.get("power_w"))),
    ("env.dev.temp", lambda d: _num(d.get("temp_c"))),
    ("env.dev.aicore", lambda d: _num(d.get("aicore_pct"))),
    ("env.dev.hbm", lambda d: _used(d.get("hbm_used_mb"), d.get("hbm_total_mb"))),
    ("env.dev.memory", lambda d: _used(d.get("memory_used_mb"), d.get("memory_total_mb"))),
    ("env.dev.bus", lambda d: str(d.get("bus_id") or "")),
)


def _num(value) -> str:
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _used(used, total) -> str:
    if not total:
        return "-"
    return f"{_num(used)}/{_num(total)}"


def _value(facts, key: str):
    f = facts.get(key)
    return f.value if f is not None and f.ok and f.value not in (None, "", []) else None


def card(facts, lang: str) -> list[tuple[str, str]]:
    """(label, text) lines of the summary card, in ``lang``."""
    L = lang
    unknown = w("env.card.unknown", L)
    family = _value(facts, "hardware.family")
    chip = _value(facts, "npu.soc_version") or _value(facts, "npu.chip_name")
    known = {"a2", "a3", "310p", "310b", "910", "950"}
    product = w(f"env.family.{family}", L) if family in known else (str(family) if family else unknown)
    if chip:
        product += f" · {chip}"
    count = _value(facts, "npu.count")
    devices = _value(facts, "npu.devices") or []
    if count:
        health = sorted({str(d.get("health")) for d in devices if d.get("health")})
        npus = str(count) + (f" · {w('env.card.health', L)} {', '.join(health)}" if health else "")
    else:
        npus = w("env.card.not_found", L)
    hdk = _value(facts, "driver.version") or unknown
    firmware = _value(facts, "firmware.version")
    hdk += f" · {w('env.card.firmware', L)} {firmware}" if firmware else ""
    cann = _value(facts, "cann.version") or w("env.card.none", L)
    stack = " · ".join(f"{name} {_value(facts, key)}" for name, key in STACK if _value(facts, key)) or w("env.card.none", L)
    system = [str(v) for v in (_value(facts, "os.pretty_name"), _value(facts, "kernel.release"), _value(facts, "arch")) if v]
    container = _value(facts, "container.kind")
    if container and container != "none":
        system.append(f"{w('env.card.container', L)} {container}")
    return [(w("env.card.product", L), product), (w("env.card.npus", L), npus), (w("env.card.hdk", L), hdk),
            (w("env.card.cann", L), str(cann)), (w("env.card.stack", L), stack),
            (w("env.card.system", L), " · ".join(system) or unknown)]


def device_table(facts, lang: str) -> tuple[list[str], list[list[str]], str]:
    """(column headers, rows, why there is no row) of the device table; columns no device fills are left
    out (HBM on a 310P, memory on an A2)."""
    f = facts.get("npu.devices")
    devices = f.value if f is not None and f.ok and f.value else []
    if not devices:
        why = (f.detail or f.status) if f is not None else "npu.devices"
        return [], [], w("env.dev.none", lang, why=why)
    # a column no device fills is left out, and Chip when every NPU has one chip (numbered 0)
    columns = [(key, show) for key, show in DEVICE_COLUMNS
               if key == "env.dev.npu" or (key == "env.dev.chip" and any(show(d) not in ("0", "-") for d in devices))
               or key not in ("env.dev.npu", "env.dev.chip") and any(show(d) not in ("-", "") for d in devices)]
    rows = [[show(d) for _key, show in columns] for d in devices]
    return [w(key, lang) for key, _show in columns], rows, ""


def processes(facts, lang: str) -> str:
    """One line: the processes on the NPUs (npu-smi's process table), or that there is none."""
    procs = _value(facts, "npu.processes") or []
    if not procs:
        f = facts.get("npu.processes")
        return w("env.procs.none", lang) if f is not None and f.ok else ""
    items = [f"NPU {p.get('npu_id')}: {p.get('name') or '?'} ({p.get('pid')}, {_num(p.get('memory_mb'))} MB)"
             for p in procs[:6]]
    return w("env.procs", lang, list="; ".join(items) + (" …" if len(procs) > 6 else ""))
