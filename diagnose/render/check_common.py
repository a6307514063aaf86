"""What every ``check`` renderer shares: labels, glyphs, grouping, the environment summary, the report."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SCHEMA = "ascend-doctor/check/1"

GLYPH = {"PASS": "✓", "WARN": "!", "FAIL": "✗", "SKIP": "-", "ERROR": "?"}
STYLE = {"PASS": "green", "WARN": "yellow", "FAIL": "bold red", "SKIP": "dim", "ERROR": "magenta"}
EMOJI = {"PASS": "✅", "WARN": "⚠️", "FAIL": "❌", "SKIP": "⏭️", "ERROR": "❓"}
WORST = ("FAIL", "ERROR", "WARN", "PASS", "SKIP")

LABELS = {
    "en": {"title": "Ascend Doctor check", "fix": "Fix", "problem": "Known problem", "evidence": "Evidence",
           "facts": "Facts used", "reasons": "Could not check", "skipped": "skipped", "summary": "Summary",
           "PASS": "passed", "WARN": "warnings", "FAIL": "failed", "SKIP": "skipped", "ERROR": "errors",
           "explain": "Details: ascend-doctor explain {problem}", "environment": "Environment",
           "findings": "Findings", "no_findings": "No warnings or failures.", "all_checks": "All checks",
           "rule": "Rule", "status": "Status", "check": "Check", "machine": "Machine", "rules": "rules",
           "severity": "severity", "group": "group", "applies_when": "Applies when", "condition": "Finding when",
           "warn_when": "Warning when", "skip": "Skipped when it does not apply", "message": "Message",
           "sources": "Sources", "took": "took"},
    "zh": {"title": "Ascend Doctor 环境检查", "fix": "修复", "problem": "已知问题", "evidence": "依据",
           "facts": "使用的事实", "reasons": "无法检查", "skipped": "已跳过", "summary": "汇总",
           "PASS": "通过", "WARN": "警告", "FAIL": "失败", "SKIP": "跳过", "ERROR": "无法检查",
           "explain": "详情：ascend-doctor explain {problem}", "environment": "环境",
           "findings": "发现的问题", "no_findings": "没有警告或失败。", "all_checks": "全部检查项",
           "rule": "规则", "status": "状态", "check": "检查项", "machine": "机器", "rules": "条规则",
           "severity": "严重级别", "group": "分组", "applies_when": "适用条件", "condition": "判定为问题的条件",
           "warn_when": "判定为警告的条件", "skip": "不适用时跳过", "message": "提示", "sources": "来源",
           "took": "耗时"},
}

# facts shown in the environment summary (Markdown, text header), in order: (label key, fact key(s))
ENV_FACTS = [
    ("env.hardware", "hardware.family"), ("env.npu", ("npu.soc_version", "npu.chip_name")), ("env.npus", "npu.count"),
    ("env.driver", "driver.version"), ("env.firmware", "firmware.version"), ("env.cann", "cann.version"),
    ("env.atb", "nnal.atb.version"), ("env.mindie", "mindie.version"), ("env.python", "python.version"),
    ("env.python_checked", "python.executable"),
    ("env.torch", "pkg.torch"), ("env.torch_npu", "pkg.torch_npu"), ("env.vllm", "pkg.vllm"),
    ("env.vllm_ascend", "pkg.vllm_ascend"), ("env.sglang", "pkg.sglang"), ("env.numpy", "pkg.numpy"),
    ("env.kernel", "kernel.release"), ("env.os", "os.pretty_name"), ("env.arch", "arch"), ("env.container", "container.kind"),
]
#: severity words (rules, explain)
LABELS["en"].update({"severity.critical": "critical", "severity.error": "error", "severity.warning": "warning",
                     "severity.info": "info"})
LABELS["zh"].update({"severity.critical": "严重", "severity.error": "错误", "severity.warning": "警告",
                     "severity.info": "提示"})
#: the names of the environment summary (package names are the same in both languages)
LABELS["en"].update({
    "env.hardware": "Hardware", "env.npu": "NPU", "env.npus": "NPUs", "env.driver": "Driver (HDK)",
    "env.firmware": "Firmware", "env.cann": "CANN", "env.atb": "NNAL ATB", "env.mindie": "MindIE",
    "env.python": "Python", "env.python_checked": "Python checked", "env.torch": "torch", "env.torch_npu": "torch_npu",
    "env.vllm": "vllm", "env.vllm_ascend": "vllm-ascend", "env.sglang": "sglang", "env.numpy": "numpy",
    "env.kernel": "Kernel", "env.os": "OS", "env.arch": "Arch", "env.container": "Container"})
LABELS["zh"].update({
    "env.hardware": "硬件", "env.npu": "NPU", "env.npus": "NPU 数量", "env.driver": "驱动（HDK）",
    "env.firmware": "固件", "env.cann": "CANN", "env.atb": "NNAL ATB", "env.mindie": "MindIE",
    "env.python": "Python", "env.python_checked": "检查的 Python", "env.torch": "torch", "env.torch_npu": "torch_npu",
    "env.vllm": "vllm", "env.vllm_ascend": "vllm-ascend", "env.sglang": "sglang", "env.numpy": "numpy",
    "env.kernel": "内核", "env.os": "操作系统", "env.arch": "架构", "env.container": "容器"})


def label(key: str, lang: str) -> str:
    return LABELS.get(lang, LABELS["en"]).get(key, LABELS["en"].get(key, key))


@dataclass
class CheckReport:
    """Everything a renderer needs: results, facts, the summary and how the check was run."""

    results: list                      # rules.engine.CheckResult
    facts: Any                         # kb.language.facts.FactSet
    lang: str = "en"
    fail_on: str = "error"
    origin: str = ""
    version: str = ""
    duration_ms: float = 0.0
    exit_code: int = 0
    groups: list = field(default_factory=list)     # rules.catalog.Group, in display order

    def summary(self) -> dict[str, Any]:
        from ascend_doctor.rules.engine import summarize

        s = summarize(self.results)
        s.update({"fail_on": self.fail_on, "exit_code": self.exit_code})
        return s

    def grouped(self) -> list[tuple[Any, list]]:
        out = []
        for g in self.groups:
            rs = [r for r in self.results if r.group == g.id]
            if rs:
                out.append((g, rs))
        return out

    def environment(self) -> list[tuple[str, str]]:
        """(name in the report's language, value) of each component known, in ENV_FACTS order."""
        from ascend_doctor.kb.language.facts import show

        rows = []
        for key_name, keys in ENV_FACTS:
            name = label(key_name, self.lang)
            # a tuple: the first key known (the SoC, Ascend910_9391, says more than npu-smi's Ascend910)
            for key in (keys if isinstance(keys, tuple) else (keys,)):
                f = self.facts.get(key)
                if f is not None and f.ok and f.value not in (None, "", []):
                    rows.append((name, show(f.value)))
                    break
        return rows


def worst(statuses) -> str:
    statuses = set(statuses)
    for s in WORST:
        if s in statuses:
            return s
    return "SKIP"


def summary_line(report: CheckReport) -> str:
    s = report.summary()
    lang = report.lang
    parts = [f"{s[k.lower()]} {label(k, lang)}" for k in ("PASS", "WARN", "FAIL", "ERROR", "SKIP") if s[k.lower()]]
    return ", ".join(parts) if parts else "0 " + label("rules", lang)


# -- the top line and the group-wide fixes ----------------------------------------------------------------

VERDICT = {
    "en": {"no_ascend": "No Ascend device, driver or software found here. If this is meant to be an Ascend "
                        "container, it was started without the NPU devices and the driver mounts.",
           "ok": "Everything looks right.",
           "ok_errors": "Nothing wrong found, but {n} check(s) could not run (see ?).",
           "problems": "{n} problem(s) found ({fail} failing, {warn} warning).",
           "group_fix": "One command for the {group} problems"},
    "zh": {"no_ascend": "本机未发现昇腾设备、驱动或软件。若这是一个昇腾容器，说明启动时没有映射 NPU 设备与驱动目录。",
           "ok": "一切正常。",
           "ok_errors": "未发现问题，但有 {n} 项检查无法执行（见 ?）。",
           "problems": "发现 {n} 个问题（{fail} 个失败，{warn} 个警告）。",
           "group_fix": "一条命令修复“{group}”中的问题"},
}


def _has(facts, key: str) -> bool:
    f = facts.get(key)
    return f is not None and f.ok and f.value not in (None, "", [], False)


def no_ascend(facts) -> bool:
    """Nothing Ascend at all: no NPU device node, no npu-smi, no driver, no CANN, no NPU framework."""
    nodes = facts.value("dev.nodes") if _has(facts, "dev.nodes") else []
    return not any(str(n).startswith(("davinci", "vdavinci")) for n in nodes or []) and not any(
        _has(facts, k) for k in ("npu_smi.path", "driver.installed", "driver.version", "cann.version",
                                 "pkg.torch_npu", "pkg.mindie_llm", "pkg.vllm_ascend"))


def verdict(report: CheckReport) -> tuple[str, str]:
    """(kind, sentence) for the top of the report: no_ascend, ok, ok_errors or problems."""
    texts = VERDICT.get(report.lang, VERDICT["en"])
    s = report.summary()
    if no_ascend(report.facts):
        return "no_ascend", texts["no_ascend"]
    if s["fail"] or s["warn"]:
        return "problems", texts["problems"].format(n=s["fail"] + s["warn"], fail=s["fail"], warn=s["warn"])
    if s["error"]:
        return "ok_errors", texts["ok_errors"].format(n=s["error"])
    return "ok", texts["ok"]


def group_fixes(report: CheckReport) -> list[tuple[str, str, str, str]]:
    """(heading, text, command, source) for each group with a fix of its own where two or more of its
    rules fail or warn: one command instead of one per rule."""
    texts = VERDICT.get(report.lang, VERDICT["en"])
    out = []
    for group, results in report.grouped():
        if getattr(group, "fix_all_command", "") and sum(r.status in ("FAIL", "WARN") for r in results) >= 2:
            title = group.title.get(report.lang) or group.title["en"]
            text = group.fix_all.get(report.lang) or group.fix_all.get("en", "")
            out.append((texts["group_fix"].format(group=title), text, group.fix_all_command, group.fix_all_source))
    return out

