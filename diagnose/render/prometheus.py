"""Prometheus text exposition format, for node_exporter's textfile collector (``-o FILE`` is written to a
temporary file and renamed, as the collector needs) or a central exporter run by cron.

``check``: ``ascend_doctor_up``, ``ascend_doctor_last_run_timestamp_seconds``, ``ascend_doctor_run_duration_seconds``,
``ascend_doctor_results{status}``, ``ascend_doctor_rule_status{rule,slug,group,severity,problem}`` (0 pass or skip,
1 warn, 2 fail, 3 error), ``ascend_doctor_versions_info{...} 1``, ``ascend_doctor_npu_count``,
``ascend_doctor_hccn_tls_enabled{device}``, ``ascend_doctor_hccn_link_up{device}``, ``ascend_doctor_clock_offset_seconds``.

``fleet``: ``ascend_doctor_fleet_rule_status{rule,slug,group,severity}``, ``ascend_doctor_fleet_outlier{rule,node} 1``,
``ascend_doctor_fleet_nodes{state}``, ``ascend_doctor_fleet_node_status{node}`` (the node's worst result),
``ascend_doctor_fleet_last_run_timestamp_seconds``, ``ascend_doctor_fleet_run_duration_seconds``.
"""
from __future__ import annotations

import time

from .console import visible

CODE = {"PASS": 0, "SKIP": 0, "WARN": 1, "FAIL": 2, "ERROR": 3}


def _label(value) -> str:
    """A label value: control characters made visible, then backslash, quote and newline escaped."""
    return visible(str(value)).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _labels(**kw) -> str:
    return "{" + ",".join(f'{k}="{_label(v)}"' for k, v in kw.items()) + "}" if kw else ""


class _Out:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.seen: set[str] = set()

    def metric(self, name: str, kind: str, help_text: str, samples: list[tuple[dict, float]]) -> None:
        if not samples:
            return
        self.lines += [f"# HELP {name} {help_text}", f"# TYPE {name} {kind}"]
        for labels, value in samples:
            v = repr(float(value)) if isinstance(value, float) else str(int(value))
            self.lines.append(f"{name}{_labels(**labels)} {v}")

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def check_prometheus(report) -> str:
    from ascend_doctor.rules.engine import summarize

    facts = report.facts
    out = _Out()
    out.metric("ascend_doctor_up", "gauge", "1 when the check ran", [({}, 1)])
    out.metric("ascend_doctor_last_run_timestamp_seconds", "gauge", "when the check ran (Unix time)", [({}, round(time.time(), 3))])
    out.metric("ascend_doctor_run_duration_seconds", "gauge", "how long the check took", [({}, round(report.duration_ms / 1000, 3))])
    s = summarize(report.results)
    out.metric("ascend_doctor_results", "gauge", "number of rules by status",
               [({"status": k}, s[k]) for k in ("pass", "warn", "fail", "skip", "error")])
    out.metric("ascend_doctor_rule_status", "gauge", "rule result: 0 pass or skip, 1 warn, 2 fail, 3 error",
               [({"rule": r.rule, "slug": r.slug, "group": r.group, "severity": r.severity, "problem": r.problem},
                 CODE[r.status]) for r in report.results])
    info = {k: facts.value(key) or "" for k, key in (("driver", "driver.version"), ("firmware", "firmware.version"),
                                                     ("cann", "cann.version"), ("torch_npu", "pkg.torch_npu"),
                                                     ("vllm_ascend", "pkg.vllm_ascend"), ("kernel", "kernel.release"),
                                                     ("family", "hardware.family"))}
    out.metric("ascend_doctor_versions_info", "gauge", "versions of the stack (value always 1)", [(info, 1)])
    count = facts.value("npu.count")
    if isinstance(count, int):
        out.metric("ascend_doctor_npu_count", "gauge", "NPU chips seen by npu-smi", [({}, count)])
    devices = facts.value("hccn.devices") or []
    out.metric("ascend_doctor_hccn_tls_enabled", "gauge", "NPU NIC TLS switch (hccn_tool -tls -g)",
               [({"device": d["device"]}, d["tls_switch"]) for d in devices if d.get("tls_switch") is not None])
    out.metric("ascend_doctor_hccn_link_up", "gauge", "NPU NIC link UP (hccn_tool -link -g)",
               [({"device": d["device"]}, 1 if d.get("link") == "UP" else 0) for d in devices if d.get("link")])
    offset = facts.value("clock.offset_s")
    if isinstance(offset, (int, float)):
        out.metric("ascend_doctor_clock_offset_seconds", "gauge", "host clock offset from NTP time (chrony)", [({}, float(offset))])
    return out.text()


def fleet_prometheus(report) -> str:
    out = _Out()
    out.metric("ascend_doctor_fleet_last_run_timestamp_seconds", "gauge", "when the fleet check ran (Unix time)",
               [({}, round(time.time(), 3))])
    out.metric("ascend_doctor_fleet_run_duration_seconds", "gauge", "how long the fleet check took",
               [({}, round(report.duration_ms / 1000, 3))])
    s = report.summary()["nodes"]
    out.metric("ascend_doctor_fleet_nodes", "gauge", "nodes by state",
               [({"state": k}, s[k]) for k in ("expected", "received", "readable", "unreadable", "missing")
                if s[k] is not None])
    out.metric("ascend_doctor_fleet_rule_status", "gauge", "fleet rule result: 0 pass or skip, 1 warn, 2 fail, 3 error",
               [({"rule": r.rule, "slug": r.slug, "group": r.group, "severity": r.severity}, CODE[r.status])
                for r in report.rules])
    out.metric("ascend_doctor_fleet_outlier", "gauge", "a node blamed by a fleet rule (1)",
               [({"rule": r.rule, "node": n}, 1) for r in report.rules if r.status in ("FAIL", "WARN") for n in r.outliers])
    out.metric("ascend_doctor_fleet_node_status", "gauge",
               "worst per-node rule result of each node: 0 pass or skip, 1 warn, 2 fail, 3 error (unreadable: 3)",
               [({"node": n.name}, max([CODE[r.status] for r in n.results] + [0]) if n.readable else 3)
                for n in report.nodes])
    return out.text()
