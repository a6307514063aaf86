"""Probes: each looks at one part of a machine through a ``System`` and returns facts.

``collect(system, python=None, timeout=10)`` runs every probe concurrently (one thread each), so a run
takes about as long as its slowest probe; a probe that fails or hangs never stops the others. Each
fact carries the time its probe spent observing the machine (the sum of its System calls).
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import replace
from typing import Callable

from ascend_doctor.kb.language.facts import ERROR, Fact, FactSet
from ..system import System
from . import cluster, derived, host, npu_smi, python_stack, versions
from .base import ProbeContext

PROBES: dict[str, Callable[[ProbeContext], list[Fact]]] = {
    "npu_smi": npu_smi.probe,
    "driver": versions.driver,
    "cann": versions.cann,
    "nnal_mindie": versions.nnal_mindie,
    "python": python_stack.probe,
    "os": host.os_kernel,
    "container": host.container,
    "user": host.user,
    "env": host.environment,
    "npu_holders": host.npu_holders,
    "hccn": cluster.hccn,
    "host_network": cluster.host_network,
    "clock": cluster.clock,
    "rank_table": cluster.rank_table,
}


def _run_one(name: str, fn: Callable[[ProbeContext], list[Fact]], ctx: ProbeContext) -> list[Fact]:
    ctx.system.take_duration_ms()          # a reused thread starts from zero
    try:
        facts = fn(ctx)
    except Exception as exc:  # noqa: BLE001 - one broken probe must not stop the others
        ms = ctx.system.take_duration_ms()
        return [Fact(f"probe.{name}", None, ERROR, f"probe {name}", f"probe failed: {type(exc).__name__}: {exc}",
                     duration_ms=ms)]
    ms = ctx.system.take_duration_ms()
    return [replace(f, duration_ms=ms) for f in facts]


def collect(system: System, python: str | None = None, timeout: float = 10.0,
            only: list[str] | None = None, on_probe: Callable[[int, int, str], None] | None = None) -> FactSet:
    """Run the probes concurrently. ``on_probe(done, total, name)`` is called as each one finishes."""
    ctx = ProbeContext(system=system, python=python, timeout=timeout)
    chosen = {n: f for n, f in PROBES.items() if only is None or n in only}
    fs = FactSet(origin=system.origin)
    with ThreadPoolExecutor(max_workers=len(chosen) or 1, thread_name_prefix="probe") as pool:
        futures = {pool.submit(_run_one, name, fn, ctx): name for name, fn in chosen.items()}
        results: dict[str, list[Fact]] = {}
        for done, fut in enumerate(as_completed(futures), start=1):
            results[futures[fut]] = fut.result()
            if on_probe is not None:
                on_probe(done, len(futures), futures[fut])
    for name in chosen:                     # stable order, whatever finished first
        fs.extend(results[name])
    fs.extend(derived.derive(fs))
    return fs


__all__ = ["PROBES", "collect", "ProbeContext"]
