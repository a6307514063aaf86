"""The kernel's messages that concern Ascend (``dmesg -T``, kept only the lines of the NPU driver and its
modules: davinci, devmm, drv_*, hdcdrv, tsdrv, uda, svm, hccn, hisi, npu...). Other lines (disks, USB,
the network, audit) say nothing about the NPUs and can say much about the machine, so they stay out."""
from __future__ import annotations

import re

from ..probes.base import command_status
from ..system import System
from .model import Entry, skipped
from .redact import Redactor

COMMAND = ["dmesg", "-T"]
ASCEND_LINE = re.compile(r"(?i)davinci|ascend|devmm|devdrv|\bdrv|drv\b|drv_|hccl|hccn|hdc|\bsvm\b|\buda\b|dcmi|"
                         r"hisi|\bnpu|tsch")
_REASON = {"timeout": "timeout", "missing": "missing", "denied": "denied"}


def ascend_lines(text: str) -> tuple[str, int, int]:
    """(the Ascend-related lines, how many, of how many)."""
    lines = text.splitlines()
    kept = [ln for ln in lines if ASCEND_LINE.search(ln)]
    return "".join(ln + "\n" for ln in kept), len(kept), len(lines)


def collect(system: System, timeout: float, redactor: Redactor) -> list[Entry]:
    r = system.run(COMMAND, timeout=timeout)
    source = " ".join(COMMAND)
    status, detail = command_status(r)
    if status != "ok":
        first = next((ln.strip() for ln in r.output.splitlines() if ln.strip()), "")
        why = first if first and first not in detail else detail
        # dmesg refused (a container, kernel.dmesg_restrict) is the usual case: say so, keep nothing
        reason = "denied" if "not permitted" in r.output.lower() else _REASON.get(status, "failed")
        return [skipped("kernel", source, reason, why, exit_code=r.exit_code)]
    kept, n, total = ascend_lines(r.stdout)
    if not n:
        return [skipped("kernel", source, "not_ascend", f"none of the {total} kernel messages concerns Ascend",
                        lines_total=total)]
    text, counts = redactor.redact(kept)
    return [Entry(kind="kernel", source=source, name="kernel/dmesg-ascend.txt", data=text.encode("utf-8"),
                  redactions=counts, info={"lines_kept": n, "lines_total": total})]
