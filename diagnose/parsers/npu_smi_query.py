"""``npu-smi info -t board|health|usages|memory|common|ecc -i N [-c C]`` ("Key : value" outputs) and
``npu-smi info -m`` (card/chip -> logical id mapping)."""
from __future__ import annotations

import re
from typing import Any

from .base import ParseResult, norm_key, null_or, number, unparsed

KV_LINE = re.compile(r"^\s*(?P<key>[A-Za-z][A-Za-z0-9 ()%/_.+-]*?)\s*:\s*(?P<value>.*?)\s*$")
COMPAT_VALUES = ("OK", "NOK", "UNKNOWN", "NOT SUPPORT")


def kv_pairs(text: str) -> list[tuple[str, str, int]]:
    """(key, value, line number) of every ``Key : value`` line; other lines are skipped."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if ":" not in line:
            continue
        m = KV_LINE.match(line)
        if m:
            out.append((m["key"].strip(), m["value"], n))
    return out


def _typed(key: str, value: str) -> Any:
    n = number(value)
    if n is not None:
        return n
    return null_or(value)


def _flat(pairs: list[tuple[str, str, int]]) -> dict[str, Any]:
    d: dict[str, Any] = {}
    for k, v, _ in pairs:
        d[norm_key(k)] = _typed(k, v)
    return d


def parse_board(text: str) -> ParseResult:
    kind = "npu-smi-board"
    pairs = kv_pairs(text)
    raw = _flat(pairs)
    known = {"software_version", "firmware_version", "compatibility", "chip_type", "chip_name", "npu_name",
             "board_id", "pcie_bus_info"}
    if not (known & raw.keys()):
        return unparsed(kind, "no board fields (Software Version, Firmware Version, Compatibility, Chip Name ...)")
    notes = []
    compat = raw.get("compatibility")
    if compat is not None and str(compat).upper() not in COMPAT_VALUES:
        notes.append(f"unexpected Compatibility value {compat!r}")
    def s(key):
        v = raw.get(key)
        return None if v is None else str(v)
    value = {
        "npu_id": raw.get("npu_id") if isinstance(raw.get("npu_id"), int) else None,
        "chip_id": raw.get("chip_id") if isinstance(raw.get("chip_id"), int) else None,
        "driver_version": s("software_version"), "firmware_version": s("firmware_version"),
        "compatibility": None if compat is None else str(compat).upper(),
        "chip_type": s("chip_type"), "chip_name": s("chip_name"), "npu_name": s("npu_name"),
        "board_id": s("board_id"), "bus_id": s("pcie_bus_info"),
        "pci_device_id": s("pci_device_id"), "chip_count": raw.get("chip_count"),
        "raw": raw,
    }
    return ParseResult(kind, value=value, notes=notes)


def parse_health(text: str) -> ParseResult:
    kind = "npu-smi-health"
    raw = _flat(kv_pairs(text))
    if "health_status" not in raw:
        return unparsed(kind, "no 'Health Status' line")
    code = raw.get("error_code")
    codes = [c for c in re.split(r"[\s,]+", str(code)) if c] if code is not None else []
    return ParseResult(kind, value={"health": None if raw["health_status"] is None else str(raw["health_status"]),
                                    "error_codes": codes, "error_information": raw.get("error_information"),
                                    "raw": raw})


def _simple(kind: str, must: set[str], what: str):
    def parse(text: str) -> ParseResult:
        raw = _flat(kv_pairs(text))
        if not (must & raw.keys()):
            return unparsed(kind, f"no {what} fields")
        return ParseResult(kind, value={"npu_id": raw.get("npu_id"), "chip_id": raw.get("chip_id"), **raw})
    return parse


parse_usages = _simple("npu-smi-usages", {"hbm_usage_rate_pct", "ddr_usage_rate_pct", "aicpu_usage_rate_pct"},
                       "usage-rate")
parse_memory = _simple("npu-smi-memory", {"hbm_capacity_mb", "ddr_capacity_mb", "hbm_clock_speed_mhz"},
                       "memory capacity")
parse_ecc = _simple("npu-smi-ecc", {"hbm_single_bit_error_count", "ddr_single_bit_error_count",
                                    "hbm_double_bit_error_count"}, "ECC")


def parse_common(text: str) -> ParseResult:
    """``-t common``: possibly several invocations; each NPU has chips and an ``mcu`` sub-block."""
    kind = "npu-smi-common"
    pairs = kv_pairs(text)
    npus: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    block: dict[str, Any] | None = None
    for k, v, _ in pairs:
        key = norm_key(k)
        if key == "npu_id":
            cur = {"npu_id": number(v), "chips": [], "mcu": None}
            npus.append(cur)
            block = cur
            continue
        if cur is None:
            cur = {"npu_id": None, "chips": [], "mcu": None}
            npus.append(cur)
            block = cur
        if key == "chip_id":
            block = {"chip_id": number(v)}
            cur["chips"].append(block)
            continue
        if key == "chip_name" and str(v).strip().lower() == "mcu":
            block = {"chip_name": "mcu"}
            cur["mcu"] = block
            continue
        assert block is not None
        block[key] = _typed(k, v)
    if not any(c for n in npus for c in n["chips"]) and not any("aicore_freq_mhz" in n for n in npus):
        return unparsed(kind, "no 'Chip ID' / 'Aicore Freq' fields")
    return ParseResult(kind, value={"npus": npus})


MAP_HEADER = re.compile(r"^\s*NPU ID\s{2,}Chip ID\s{2,}Chip Logic ID(?:\s{2,}Chip Phy-ID)?\s{2,}Chip Name\s*$", re.I)


def find_map_header(lines: list[str], start: int = 0) -> int | None:
    for i in range(start, len(lines)):
        if MAP_HEADER.match(lines[i]):
            return i
    return None


def parse_map(text: str) -> ParseResult:
    """``npu-smi info -m``: NPU ID, Chip ID, Chip Logic ID, [Chip Phy-ID], Chip Name; ``Mcu`` rows have ``-``."""
    kind = "npu-smi-map"
    lines = text.splitlines()
    h = find_map_header(lines)
    if h is None:
        return unparsed(kind, "no 'NPU ID  Chip ID  Chip Logic ID ... Chip Name' header")
    has_phy = "phy-id" in lines[h].lower()
    chips = []
    notes = []
    for n in range(h + 1, len(lines)):
        line = lines[n].strip()
        if not line:
            continue
        parts = re.split(r"\s{2,}", line)
        if len(parts) < (5 if has_phy else 4) or not re.fullmatch(r"\d+", parts[0]):
            if re.match(r"^\d", line):
                notes.append(f"line {n + 1}: unrecognised row")
                continue
            break
        npu, chip, logic = number(parts[0]), number(parts[1]), number(parts[2])
        phy = number(parts[3]) if has_phy else None
        name = " ".join(parts[4 if has_phy else 3:]).strip()
        chips.append({"npu_id": npu, "chip_id": chip, "logic_id": logic if isinstance(logic, int) else None,
                      "phy_id": phy if isinstance(phy, int) else None, "chip_name": name,
                      "mcu": name.lower() == "mcu"})
    return ParseResult(kind, value={"chips": chips}, notes=notes)
