"""``npu-smi info``: the device table and the process table, in every layout seen in the wild.

Layouts (detected from the header, never from the values):

``narrow``   23.0.rc1 era, first column 22 characters wide, HBM column present
``classic``  23.0 - 25.x, first column 27 characters wide, HBM column (A2 910B, A3 with ``Chip Phy-ID``)
``no-hbm``   310 / 310P / 310B: ``Chip Device`` column, no HBM column (memory is DDR)
``wide``     26.0: a wider third column; the process table may carry ``Process id in container``
``a5``       Ascend 950 (A5): ``NPU ID | Name | Health`` with separate columns and ``NPU Util(%)``

The parser copes with trailing spaces, ``NA`` / ``-`` values, ``...`` elisions, masked values
(``xxx``), pasted shell prompts, two chips sharing a Bus-Id (300I Duo) and truncation. A value it
cannot read is ``None`` with a note; an unknown header makes the whole result ``unparsed``.
"""
from __future__ import annotations

import re
from typing import Any

from .base import ParseResult, null_or, number, unparsed

KIND = "npu-smi-info"
TITLE = re.compile(r"^\|\s*npu-smi\s+(?P<tool>\S+)\s+Version:\s*(?P<driver>\S+)\s*\|")
HEADER_A5 = re.compile(r"^\|\s*NPU\s+ID\s*\|\s*Name\s*\|\s*Health\s*\|", re.I)
HEADER_CLASSIC = re.compile(r"^\|\s*NPU\s+Name\s*\|\s*Health\s*\|", re.I)
BORDER = re.compile(r"^\+[-=+]+\+?$")
ELISION = re.compile(r"^\s*(?:\.{3,}|…+)\s*$")
NO_PROC = re.compile(r"No running processes found in NPU\s+(\d+)", re.I)
FIRST_VALUES = re.compile(r"^(?P<power>\S+)\s+(?P<temp>\S+)\s+(?P<hp_used>\S+)\s*/\s*(?P<hp_total>\S+)$")
SECOND_VALUES = re.compile(r"^(?P<util>\S+)\s+(?P<m_used>\S+)\s*/\s*(?P<m_total>\S+)"
                           r"(?:\s+(?P<h_used>\S+)\s*/\s*(?P<h_total>\S+))?$")


def _cells(line: str) -> list[str]:
    body = line.strip()
    if body.startswith("|"):
        body = body[1:]
    if body.endswith("|"):
        body = body[:-1]
    return [c.strip() for c in body.split("|")]


BUS_ID = re.compile(r"^[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-7]$")
HEALTH_WORD = re.compile(r"^(?:OK|Warning|Alarm|Critical|NA|Unknown|Normal|Minor|Major|Fault)$", re.I)


def find_table_start(lines: list[str], start: int = 0) -> int | None:
    """Index of the first line of an npu-smi info table (its title or column header, or for an excerpt
    without them the first device row whose shape names its columns, see ``headerless_layout``), or None."""
    for i in range(start, len(lines)):
        s = lines[i].strip()
        if _title_or_header(s):
            return i
        if s.startswith("|") and headerless_layout(lines, i) is not None:
            return i
    return None


def _title_or_header(line: str) -> bool:
    return bool(TITLE.match(line) or HEADER_A5.match(line) or HEADER_CLASSIC.match(line))


def headerless_layout(lines: list[str], i: int) -> tuple[str, dict[str, Any]] | None:
    """(layout, shape) when line ``i`` and the next are an npu-smi info device row pair whose cells leave
    no doubt about the columns without a header: an NPU id (and name), a health word, power / temperature
    / hugepages; then the chip id, a PCI bus id, AI Core / memory (/ HBM) usage. None otherwise."""
    if i + 1 >= len(lines):
        return None
    first, second = _cells(lines[i].strip()), _cells(lines[i + 1].strip())
    if len(first) == 3 and len(second) == 3:                           # classic: "0  910B3 | OK | ..."
        head, health, values = first
        ids, bus, values2 = second
        layout_of_cells = "classic"
    elif len(first) == 4 and len(second) == 4:                         # A5: "0 | 950PR | OK | ..."
        head, _name, health, values = first
        ids, bus, values2 = second[0], second[2], second[3]
        layout_of_cells = "a5"
    else:
        return None
    if not re.match(r"^\d+(?:\s|$)", head) or not HEALTH_WORD.match(health) or not FIRST_VALUES.match(values):
        return None
    if not re.match(r"^\d+(?:\s+\d+)?$", ids) or not BUS_ID.match(bus):
        return None
    m2 = SECOND_VALUES.match(values2)
    if not m2:
        return None
    shape: dict[str, Any] = {"has_hbm": m2["h_used"] is not None, "chip_col": None}
    if layout_of_cells == "a5":
        return "a5", shape
    return ("classic" if shape["has_hbm"] else "no-hbm"), shape


def table_end(lines: list[str], header: int) -> int:
    """Index of the last line belonging to the table that has its header/title at ``header``."""
    last = header
    i = header + 1
    while i < len(lines):
        s = lines[i].strip()
        if s.startswith(("|", "+")) or ELISION.match(s):
            if TITLE.match(s) and i > header + 1:
                break            # the next table starts
            last = i
        elif s:
            break
        else:                    # a blank line: the table goes on only if a border follows
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j < len(lines) and BORDER.match(lines[j].strip()):
                i = j
                continue
            break
        i += 1
    return last


def _layout(title_border: str | None, hdr1: list[str], hdr2: list[str]) -> tuple[str | None, dict[str, Any], str]:
    """(layout, shape, reason-if-unknown)."""
    shape: dict[str, Any] = {"has_hbm": False, "chip_col": None}
    if len(hdr1) >= 4 and re.fullmatch(r"NPU\s+ID", hdr1[0], re.I) and hdr1[1].lower() == "name":
        if len(hdr2) < 4 or "bus-id" not in hdr2[2].lower():
            return None, shape, "A5-style header without its second line (Bus-Id)"
        shape["has_hbm"] = "hbm-usage" in hdr2[3].lower()
        return "a5", shape, ""
    if len(hdr1) < 3 or "power" not in hdr1[2].lower():
        return None, shape, f"unknown column header: {' | '.join(hdr1)}"
    if len(hdr2) < 3 or not hdr2[0].lower().startswith("chip") or "bus-id" not in hdr2[1].lower():
        return None, shape, f"unknown second header line: {' | '.join(hdr2)}"
    words = hdr2[0].split()
    shape["chip_col"] = words[1].lower() if len(words) > 1 else None      # "device" / "phy-id"
    shape["has_hbm"] = "hbm-usage" in hdr2[2].lower()
    if "memory-usage" not in hdr2[2].lower():
        return None, shape, f"no Memory-Usage column in: {hdr2[2]}"
    if not shape["has_hbm"]:
        return "no-hbm", shape, ""
    width = len(title_border or "")
    plus = [i for i, ch in enumerate(title_border or "") if ch == "+"]
    first_col = plus[1] - plus[0] - 1 if len(plus) > 1 else 27
    if first_col < 25:
        return "narrow", shape, ""
    if width >= 110:
        return "wide", shape, ""
    return "classic", shape, ""


def _device_from_rows(first: list[str], second: list[str] | None, layout: str, shape: dict[str, Any],
                      notes: list[str], lineno: int) -> dict[str, Any]:
    dev: dict[str, Any] = {"npu_id": None, "chip_id": None, "logic_id": None, "phy_id": None, "name": None,
                           "health": None, "power_w": None, "temp_c": None, "hugepages_used": None,
                           "hugepages_total": None, "aicore_pct": None, "memory_used_mb": None,
                           "memory_total_mb": None, "hbm_used_mb": None, "hbm_total_mb": None, "bus_id": None}
    if layout == "a5":
        npu, name, health, values = (first + ["", "", "", ""])[:4]
    else:
        head, health, values = (first + ["", "", ""])[:3]
        parts = head.split(None, 1)
        npu, name = (parts + ["", ""])[:2]
    dev["npu_id"] = number(npu) if isinstance(number(npu), int) else None
    if dev["npu_id"] is None:
        notes.append(f"line {lineno}: NPU id {npu!r} is not a number")
    name = name.strip()
    if name and not null_or(name):
        notes.append(f"line {lineno}: chip name is masked ({name!r})")
    dev["name"] = null_or(name)
    dev["health"] = null_or(health)
    m = FIRST_VALUES.match(values)
    if m:
        dev["power_w"], dev["temp_c"] = number(m["power"]), number(m["temp"])
        dev["hugepages_used"], dev["hugepages_total"] = number(m["hp_used"]), number(m["hp_total"])
    elif values:
        notes.append(f"line {lineno}: unrecognised values {values!r}")
    if second is None:
        notes.append(f"line {lineno}: NPU {npu} has no second row (truncated?)")
        return dev
    if layout == "a5":
        _, _, bus, values2 = (second + ["", "", "", ""])[:4]
    else:
        head2, bus, values2 = (second + ["", "", ""])[:3]
        ids = head2.split()
        if ids:
            dev["chip_id"] = number(ids[0]) if isinstance(number(ids[0]), int) else None
        if len(ids) > 1:
            other = number(ids[1]) if isinstance(number(ids[1]), int) else None
            if shape.get("chip_col") == "device":
                dev["logic_id"] = other
            elif shape.get("chip_col") == "phy-id":
                dev["phy_id"] = other
    dev["bus_id"] = null_or(bus)
    m2 = SECOND_VALUES.match(values2)
    if m2:
        dev["aicore_pct"] = number(m2["util"])
        dev["memory_used_mb"], dev["memory_total_mb"] = number(m2["m_used"]), number(m2["m_total"])
        if m2["h_used"] is not None:
            if shape["has_hbm"]:
                dev["hbm_used_mb"], dev["hbm_total_mb"] = number(m2["h_used"]), number(m2["h_total"])
            else:
                notes.append(f"line {lineno + 1}: a second usage pair under a header without HBM")
        elif shape["has_hbm"]:
            notes.append(f"line {lineno + 1}: HBM usage missing")
    elif values2:
        notes.append(f"line {lineno + 1}: unrecognised values {values2!r}")
    return dev


def _bare_process_row(cells: list[str], layout: str) -> bool:
    """A process row where a device row could stand: 'NPU [Chip] | pid | name | memory' has four cells where
    a classic device row has three, and its second cell is a whole number (a device row's is a health word)."""
    return (layout != "a5" and len(cells) in (4, 5) and re.fullmatch(r"\d+(?:\s+\d+)?", cells[0]) is not None
            and cells[1].isdigit() and not HEALTH_WORD.match(cells[1]))


def _process(cells: list[str], layout: str, has_cpid: bool, notes: list[str], lineno: int) -> dict[str, Any] | None:
    if len(cells) < 4:
        notes.append(f"line {lineno}: short process row")
        return None
    ids = cells[0].split()
    proc: dict[str, Any] = {"npu_id": None, "chip_id": None, "pid": None, "name": None, "memory_mb": None,
                            "container_pid": None}
    if ids:
        proc["npu_id"] = number(ids[0]) if isinstance(number(ids[0]), int) else None
    if len(ids) > 1:
        proc["chip_id"] = number(ids[1]) if isinstance(number(ids[1]), int) else None
    pid = number(cells[1])
    proc["pid"] = pid if isinstance(pid, int) else None
    proc["name"] = cells[2] or None
    proc["memory_mb"] = number(cells[3])
    if has_cpid and len(cells) > 4:
        cp = number(cells[4])
        proc["container_pid"] = cp if isinstance(cp, int) else None
    if proc["npu_id"] is None or proc["pid"] is None:
        notes.append(f"line {lineno}: unrecognised process row")
        return None
    return proc


def parse(text: str) -> ParseResult:
    lines = [ln.rstrip() for ln in text.splitlines()]
    start = find_table_start(lines)
    if start is None:
        return unparsed(KIND, "no npu-smi info table: no 'npu-smi <ver> Version: <ver>' title, no column header, and "
                              "no pair of rows shaped like device rows (NPU id | health | power temp hugepages, "
                              "then chip | bus id | AI Core and memory usage) to read the columns from")
    notes: list[str] = []
    tool = driver = None
    i = start
    bare = None if _title_or_header(lines[i].strip()) else headerless_layout(lines, i)
    if bare is not None:
        layout, shape = bare
        notes.append(f"no title or column header: the columns were read as the {layout} layout from the rows' "
                     "shape (NPU id, health word, PCI bus id); the chip's second id column is unknown")
        return _rows(lines, i, table_end(lines, i), layout, shape, notes, tool, driver)
    m = TITLE.match(lines[i].strip())
    if m:
        tool, driver = m["tool"], m["driver"]
        i += 1
    # column header: the two rows after the border that follows the title
    title_border = None
    while i < len(lines) and BORDER.match(lines[i].strip()):
        title_border = lines[i].strip()
        i += 1
    if i + 1 >= len(lines) or not lines[i].strip().startswith("|"):
        if tool:
            return ParseResult(KIND, value={"layout": None, "npu_smi_version": tool, "driver_version": driver,
                                            "devices": [], "processes": [], "elided": False, "truncated": True,
                                            "has_container_pid": False},
                               notes=["the output stops after the title line"])
        return unparsed(KIND, "table header is incomplete")
    hdr1, hdr2 = _cells(lines[i]), _cells(lines[i + 1])
    layout, shape, reason = _layout(title_border, hdr1, hdr2)
    if layout is None:
        return unparsed(KIND, reason)
    return _rows(lines, i + 2, table_end(lines, i), layout, shape, notes, tool, driver)


def _rows(lines: list[str], i: int, end: int, layout: str, shape: dict[str, Any], notes: list[str],
          tool: str | None, driver: str | None) -> ParseResult:
    """The device and process rows from line ``i`` to ``end`` (the header, if any, already read)."""
    devices: list[dict[str, Any]] = []
    processes: list[dict[str, Any]] = []
    idle_npus: list[int] = []
    elided = False
    in_proc = False
    has_cpid = False
    pending: tuple[list[str], int] | None = None
    while i <= end:
        s = lines[i].strip()
        lineno = i + 1
        i += 1
        if not s:
            continue
        if ELISION.match(s):
            elided = True
            continue
        if BORDER.match(s):
            if pending is not None:
                devices.append(_device_from_rows(pending[0], None, layout, shape, notes, pending[1]))
                pending = None
            continue
        cells = _cells(s)
        if not in_proc and any("process id" in c.lower() for c in cells):
            if pending is not None:
                devices.append(_device_from_rows(pending[0], None, layout, shape, notes, pending[1]))
                pending = None
            in_proc = True
            has_cpid = any("container" in c.lower() for c in cells)
            continue
        if not in_proc and pending is None and _bare_process_row(cells, layout):
            in_proc = True           # an excerpt that lost the process table's header: a process row starts it
        if not in_proc and NO_PROC.search(s):
            # an excerpt that lost the process table's header: this row starts it, it is no device
            if pending is not None:
                devices.append(_device_from_rows(pending[0], None, layout, shape, notes, pending[1]))
                pending = None
            in_proc = True
        if in_proc:
            mnp = NO_PROC.search(s)
            if mnp:
                idle_npus.append(int(mnp.group(1)))
                continue
            p = _process(cells, layout, has_cpid, notes, lineno)
            if p:
                processes.append(p)
            continue
        if pending is None:
            pending = (cells, lineno)
        else:
            devices.append(_device_from_rows(pending[0], cells, layout, shape, notes, pending[1]))
            pending = None
    truncated = False
    if pending is not None:
        devices.append(_device_from_rows(pending[0], None, layout, shape, notes, pending[1]))
        truncated = True
    if not in_proc and not any(str(d.get("name") or "").upper().startswith("310B") for d in devices):
        # every complete 'npu-smi info' ends with its process table ("Process id" header, or "No running
        # processes found"), except on 310B boards (Atlas 200I DK A2), whose npu-smi prints none: a table
        # without one was cut, even when the cut fell on a row boundary
        truncated = True
    if end + 1 < len(lines) and not in_proc and lines[end].strip().startswith("|"):
        truncated = True
    if truncated:
        notes.append("the table looks truncated")
    if elided:
        notes.append("rows were elided with '...'")
    value = {"layout": layout, "npu_smi_version": tool, "driver_version": driver, "devices": devices,
             "processes": processes, "idle_npus": idle_npus, "elided": elided, "truncated": truncated,
             "has_container_pid": has_cpid}
    return ParseResult(KIND, value=value, notes=notes)
