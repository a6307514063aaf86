"""``check`` as one line of at most 80 characters: the verdict a scheduler shows (a Slurm drain reason, a
node-problem-detector condition message, whose default ``max_output_length`` is 80)::

    OK: 21 passed, 28 skipped
    FAIL: AD-DRV-004 npu-smi answers (+2 more)
    ERROR: 3 check(s) could not run, first AD-DEV-001
"""
from __future__ import annotations

from .console import visible

LIMIT = 80


def check_oneline(report) -> str:
    rs = report.results
    fails = [r for r in rs if r.status == "FAIL"]
    warns = [r for r in rs if r.status == "WARN"]
    errors = [r for r in rs if r.status == "ERROR"]
    if fails or warns:
        worst = fails or warns
        first = worst[0]
        more = len(fails) + len(warns) - 1
        tail = f" (+{more} more)" if more else ""
        head = f"{'FAIL' if fails else 'WARN'}: {first.rule} "
        title = visible(first.text("title", "en"))
        room = LIMIT - len(head) - len(tail)
        line = head + (title if len(title) <= room else title[: max(0, room - 1)] + "…") + tail
    elif errors:
        line = f"ERROR: {len(errors)} check(s) could not run, first {errors[0].rule}"
    else:
        s = report.summary()
        line = f"OK: {s['pass']} passed, {s['skip']} skipped"
    return line[:LIMIT] + "\n"
