"""What every ``fleet`` renderer shares: labels, the nodes x checks grid with folded node ranges, cohorts
of the versions that matter, and the JSON-ready dictionary (schema ``ascend-doctor/fleet/1``)."""
from __future__ import annotations

from typing import Any

from .check_common import GLYPH, worst
from .check_common import label as check_label

SCHEMA = "ascend-doctor/fleet/1"

#: versions shown in the matrix by cohort (Markdown, text with -v)
#: (label key of check_common, fact key)
VERSION_FACTS = [("env.driver", "driver.version"), ("env.firmware", "firmware.version"), ("env.cann", "cann.version"),
                 ("env.torch_npu", "pkg.torch_npu"), ("env.vllm_ascend", "pkg.vllm_ascend"), ("env.mindie", "mindie.version"),
                 ("env.kernel", "kernel.release"), ("env.npus", "npu.count")]

LABELS = {
    "en": {"title": "Ascend Doctor fleet", "expected": "expected", "received": "received", "missing": "missing",
           "unreadable": "unreadable", "groups": "groups", "fleet_rules": "Fleet rules", "nodes_checks": "Nodes × checks",
           "hidden": "{n} node(s) with no findings hidden; -v shows all", "more": "{n} more PASS, {s} SKIP (-v shows them)",
           "fix": "Fix", "reference": "reference", "outliers": "outliers", "cohorts": "cohorts", "no_data": "no data",
           "summary": "Summary", "versions": "Versions by cohort", "node": "node", "fleet": "fleet", "value": "value",
           "nodes": "nodes", "rule": "Rule", "check": "Check", "status": "Status", "split": "split: no majority",
           "ok": "Every node agrees and nothing failed.", "problems": "{f} fleet rule(s) failing, {w} warning; "
           "{n} node(s) with their own findings.", "errors": "Nothing wrong found, but {n} rule(s) could not compare every node.",
           "legend": "· pass/skip  ! warn  ✗ fail  ? no data  ✗ in 'fleet': blamed by a fleet rule",
           "totals": "fleet {p} pass, {w} warn, {f} fail, {e} error, {s} skip · nodes {nf} failing, {nw} warning · exit {x}",
           "on": "{value} on {nodes} ({n})", "from.majority": "majority", "from.baseline": "baseline",
           "from.all": "all", "PASS": "PASS", "WARN": "WARN", "FAIL": "FAIL", "SKIP": "SKIP", "ERROR": "ERROR",
           "col.driver": "driver", "col.cann": "cann", "col.python": "python", "col.container": "container",
           "col.devices": "devices", "col.network": "network", "col.fleet": "fleet"},
    "zh": {"title": "Ascend Doctor 集群检查", "expected": "预期", "received": "收到", "missing": "缺失",
           "unreadable": "无法读取", "groups": "分组", "fleet_rules": "跨节点规则", "nodes_checks": "节点 × 检查项",
           "hidden": "已隐藏 {n} 个无问题节点；-v 显示全部", "more": "另有 {n} 项通过、{s} 项跳过（-v 显示）",
           "fix": "修复", "reference": "参考值", "outliers": "异常节点", "cohorts": "分组取值", "no_data": "无数据",
           "summary": "汇总", "versions": "按取值分组的版本", "node": "节点", "fleet": "集群", "value": "取值",
           "nodes": "节点", "rule": "规则", "check": "检查项", "status": "状态", "split": "分裂：无多数",
           "ok": "所有节点一致，未发现失败。", "problems": "{f} 条跨节点规则失败、{w} 条警告；{n} 个节点有自身问题。",
           "errors": "未发现问题，但有 {n} 条规则无法比较全部节点。",
           "legend": "· 通过/跳过  ! 警告  ✗ 失败  ? 无数据  “集群”列 ✗：被跨节点规则指出",
           "totals": "跨节点规则 {p} 通过、{w} 警告、{f} 失败、{e} 无法比较、{s} 跳过 · 节点 {nf} 个失败、{nw} 个警告 · 退出码 {x}",
           "on": "{value}（{nodes}，{n} 个）", "from.majority": "多数", "from.baseline": "基线", "from.all": "全部",
           "PASS": "通过", "WARN": "警告", "FAIL": "失败", "SKIP": "跳过", "ERROR": "无法比较",
           "col.driver": "驱动", "col.cann": "CANN", "col.python": "Python", "col.container": "容器",
           "col.devices": "设备", "col.network": "网络", "col.fleet": "集群"},
}


def label(key: str, lang: str) -> str:
    return LABELS.get(lang, LABELS["en"]).get(key, LABELS["en"].get(key, key))


def column(group: str, lang: str) -> str:
    """The heading of a group's column in the nodes x checks grid (the group id where it has no word)."""
    return label(f"col.{group}", lang) if f"col.{group}" in LABELS["en"] else group


def verdict(report) -> tuple[str, str]:
    s = report.summary()
    f, w, e = s["fleet"]["fail"], s["fleet"]["warn"], s["fleet"]["error"]
    n = sum(1 for node in report.nodes if any(r.status in ("FAIL", "WARN") for r in node.results))
    if f or w or n or report.unreadable or report.missing:
        return "problems", label("problems", report.lang).format(f=f, w=w, n=n)
    if e:
        return "errors", label("errors", report.lang).format(n=e)
    return "ok", label("ok", report.lang)


def fleet_marks(report) -> dict[str, str]:
    """node -> the worst status a fleet rule gave it: FAIL / WARN when blamed, ERROR when it lacked data."""
    marks: dict[str, list[str]] = {}
    for r in report.rules:
        if r.status in ("FAIL", "WARN"):
            for n in r.outliers:
                marks.setdefault(n, []).append(r.status)
        for n in r.missing:
            marks.setdefault(n, []).append("ERROR")
    for n in report.missing:
        marks.setdefault(n, []).append("FAIL")
    return {n: worst(v) for n, v in marks.items()}


def node_cells(report) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """(columns, [(node, one status per column)]): the per-node rule groups and ``fleet`` (the worst a fleet
    rule said of the node); an unreadable or missing node has no data in the groups and fails ``fleet``."""
    cols = [g.id for g in report.node_groups] + ["fleet"]
    marks = fleet_marks(report)
    by_name = {n.name: n for n in report.nodes}
    out = []
    for name in [n.name for n in report.nodes] + list(report.missing):
        node = by_name.get(name)
        if node is None or not node.readable:
            cells = ["ERROR"] * (len(cols) - 1) + ["FAIL"]
        else:
            cells = []
            for g in cols[:-1]:
                sts = [r.status for r in node.results if r.group == g and r.status not in ("PASS", "SKIP")]
                cells.append(worst(sts) if sts else "PASS")
            cells.append(marks.get(name, "PASS"))
        out.append((name, cells))
    return cols, out


def grid(report, verbose: bool = False) -> tuple[list[str], list[tuple[list[str], list[str]]], int]:
    """(columns, rows, hidden): each row is (node names, one status per column) and rows with the same
    statuses are merged (shown folded: node[057-064]); clean rows are hidden unless verbose."""
    cols, cells_of = node_cells(report)
    rows: dict[tuple, list[str]] = {}
    hidden = 0
    for name, cells in cells_of:
        if not verbose and all(c == "PASS" for c in cells):
            hidden += 1
            continue
        rows.setdefault(tuple(cells), []).append(name)
    return cols, [(v, list(k)) for k, v in rows.items()], hidden


def cell_glyph(status: str) -> str:
    return "·" if status in ("PASS", "SKIP") else GLYPH[status]


def version_cohorts(report) -> list[tuple[str, str, list[tuple[str, list[str]]]]]:
    """(label in the report's language, fact key, [(value, nodes)]) for the versions that matter, largest
    cohort first."""
    from ascend_doctor.kb.language.facts import show

    out = []
    for name_key, key in VERSION_FACTS:
        name = check_label(name_key, report.lang)
        cohorts: dict[str, list[str]] = {}
        for n in report.nodes:
            if not n.readable:
                continue
            f = n.facts.get(key)
            if f is None:
                continue
            value = show(f.value, 60) if f.ok else ("absent" if f.status == "missing" else f"({f.status})")
            cohorts.setdefault(value, []).append(n.name)
        if cohorts and not all(v == "absent" for v in cohorts):
            out.append((name, key, sorted(cohorts.items(), key=lambda kv: -len(kv[1]))))
    return out


def fleet_dict(report) -> dict[str, Any]:
    from ascend_doctor.rules.nodeset import fold

    lang = report.lang
    return {
        "schema": SCHEMA,
        "tool": {"name": "ascend-doctor", "version": report.version},
        "origin": report.origin,
        "lang": lang,
        "duration_ms": round(report.duration_ms, 3),
        "fleet": {"expected": len(report.expected) if report.expected is not None else None,
                  "received": len(report.nodes), "missing": report.missing,
                  "unreadable": [{"node": n.name, "file": n.file, "reason": n.reason} for n in report.unreadable],
                  "group_by": report.group_by,
                  "groups": [{"key": k, "nodes": fold(v), "count": len(v)} for k, v in report.groups],
                  "baseline": report.baseline, "baseline_file": report.baseline_file or None,
                  "rank_table_file": report.rank_table_file or None},
        "rules": [r.to_dict(lang) for r in report.rules],
        # a node's findings (WARN, FAIL, ERROR) in full; its passes and skips are counted in its summary
        "nodes": [{"node": n.name, "file": n.file, "status": n.status, "reason": n.reason or None,
                   "labels": n.labels, "meta": n.meta, "summary": n.summary() if n.readable else None,
                   "results": [r.to_dict(lang) for r in n.results if r.status in ("WARN", "FAIL", "ERROR")]}
                  for n in report.nodes],
        "summary": report.summary(),
    }
