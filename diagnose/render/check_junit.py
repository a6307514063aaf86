"""``check`` as JUnit XML: one testsuite per group, one testcase per rule.

FAIL -> <failure>, ERROR -> <error>, SKIP -> <skipped>; WARN -> <failure type="warning"> when the
run fails on warnings (``--fail-on warning``), otherwise a pass with the warning in <system-out>.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET

from .check_common import CheckReport


def _clean(text: str) -> str:
    # XML 1.0 cannot carry most control characters; untrusted text may contain them
    return "".join(ch for ch in str(text) if ch in "\t\n\r" or ord(ch) >= 0x20)


def check_junit(report: CheckReport) -> str:
    lang = report.lang
    warn_fails = report.fail_on == "warning"
    root = ET.Element("testsuites", name="ascend-doctor check")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for group, results in report.grouped():
        suite = ET.SubElement(root, "testsuite", name=_clean(group.title.get(lang) or group.title["en"]))
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for r in results:
            counts["tests"] += 1
            case = ET.SubElement(suite, "testcase", classname=f"ascend-doctor.{r.group}",
                                 name=_clean(f"{r.rule} {r.text('title', lang)}"), time=f"{r.duration_ms / 1000:.4f}")
            msg = _clean(r.text("message", lang))
            body = "\n".join(x for x in (msg, _clean(r.text("fix", lang)) and f"Fix: {_clean(r.text('fix', lang))}",
                                         f"Problem: {r.problem}", *(_clean(e) for e in r.evidence)) if x)
            if r.status == "FAIL" or (r.status == "WARN" and warn_fails):
                counts["failures"] += 1
                el = ET.SubElement(case, "failure", message=msg, type="warning" if r.status == "WARN" else "fail")
                el.text = body
            elif r.status == "ERROR":
                counts["errors"] += 1
                el = ET.SubElement(case, "error", message=msg, type="error")
                el.text = "\n".join(_clean(x) for x in r.reasons)
            elif r.status == "SKIP":
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=msg)
            elif r.status == "WARN":
                out = ET.SubElement(case, "system-out")
                out.text = f"WARNING: {body}"
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", f"{report.duration_ms / 1000:.3f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
