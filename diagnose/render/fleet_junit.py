"""``fleet`` as JUnit XML: one testsuite ``fleet`` with a testcase per fleet rule, then one testsuite per
node with its per-node rules (CI dashboards then show "node023 / AD-FLEET-011" and "node040 / AD-DEV-001").

FAIL -> <failure>, ERROR -> <error>, SKIP -> <skipped>; WARN -> <failure type="warning"> with
``--fail-on warning``, else a pass with the warning in <system-out>. A node whose snapshot could not be
read is a suite with one erroring testcase; an expected node that sent nothing, a suite with one failure.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from .check_junit import _clean


def _case(suite, classname: str, name: str, status: str, message: str, body: str, warn_fails: bool,
          seconds: float = 0.0) -> str:
    case = ET.SubElement(suite, "testcase", classname=_clean(classname), name=_clean(name), time=f"{seconds:.4f}")
    if status == "FAIL" or (status == "WARN" and warn_fails):
        el = ET.SubElement(case, "failure", message=_clean(message), type="warning" if status == "WARN" else "fail")
        el.text = _clean(body)
        return "failures"
    if status == "ERROR":
        el = ET.SubElement(case, "error", message=_clean(message), type="error")
        el.text = _clean(body)
        return "errors"
    if status == "SKIP":
        ET.SubElement(case, "skipped", message=_clean(message))
        return "skipped"
    if status == "WARN":
        ET.SubElement(case, "system-out").text = _clean(f"WARNING: {body}")
    return ""


def _suite(root, name: str, totals: dict[str, int]):
    suite = ET.SubElement(root, "testsuite", name=_clean(name))
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    return suite, counts


def _close(suite, counts: dict[str, int], totals: dict[str, int]) -> None:
    for k, v in counts.items():
        suite.set(k, str(v))
        totals[k] += v


def fleet_junit(report) -> str:
    from ascend_doctor.rules.nodeset import fold

    lang = report.lang
    warn_fails = report.fail_on == "warning"
    root = ET.Element("testsuites", name="ascend-doctor fleet")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    suite, counts = _suite(root, "fleet", totals)
    for r in report.rules:
        counts["tests"] += 1
        body = "\n".join(x for x in (r.text("message", lang), r.text("fix", lang) and f"Fix: {r.text('fix', lang)}",
                                     r.outliers and f"Outliers: {fold(r.outliers)}",
                                     r.problem and f"Problem: {r.problem}") if x)
        kind = _case(suite, f"ascend-doctor.fleet.{r.group}", f"{r.rule} {r.text('title', lang)}", r.status,
                     r.text("message", lang), body, warn_fails, r.duration_ms / 1000)
        if kind:
            counts[kind] += 1
    _close(suite, counts, totals)
    for n in report.nodes:
        suite, counts = _suite(root, n.name, totals)
        if not n.readable:
            counts["tests"] += 1
            counts[_case(suite, f"ascend-doctor.{n.name}", "snapshot", "ERROR", n.reason, n.reason, warn_fails)] += 1
        for r in n.results:
            counts["tests"] += 1
            body = "\n".join(x for x in (r.text("message", lang), r.text("fix", lang) and f"Fix: {r.text('fix', lang)}",
                                         f"Problem: {r.problem}", *r.reasons) if x)
            kind = _case(suite, f"ascend-doctor.{n.name}.{r.group}", f"{r.rule} {r.text('title', lang)}", r.status,
                         r.text("message", lang), body, warn_fails, r.duration_ms / 1000)
            if kind:
                counts[kind] += 1
        _close(suite, counts, totals)
    for name in report.missing:
        suite, counts = _suite(root, name, totals)
        counts["tests"] += 1
        counts[_case(suite, f"ascend-doctor.{name}", "snapshot", "FAIL", "expected node sent no snapshot",
                     "expected node sent no snapshot", warn_fails)] += 1
        _close(suite, counts, totals)
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", f"{report.duration_ms / 1000:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
