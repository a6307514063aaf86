"""Every word the TUI shows of its own, in English and Chinese: tabs, key bindings, headers, filters,
placeholders, buttons, empty states, notifications. Text from the knowledge comes in both languages
already (``render.console.t``); text from the machine and the logs is data and stays as it is.

    w("check.status.collecting", lang, machine=label)     -> the sentence in ``lang``
    localize_bindings(widget, lang)                        -> its footer descriptions in ``lang``

A test keeps the two tables the same keys with every Chinese entry written, and renders every screen in
Chinese looking for English left over (tests/test_tui_zh.py).
"""
from __future__ import annotations

LABELS = {
    "en": {
        # the app: tabs, app-wide keys, the command palette
        "tab.check": "F1 Check", "tab.ask": "F2 Ask", "tab.knowledge": "F3 Knowledge", "tab.environment": "F4 Environment",
        "tab.fleet": "F6 Fleet",
        "key.toggle_dark": "Theme", "key.quit": "Quit", "key.command_palette": "Commands",
        "quit_hint": "Press q or ctrl+q to quit",
        "palette.placeholder": "Search for commands…",
        "no_fleet": "No fleet given: start with 'ascend-doctor tui --fleet DIR' or '--fleet-sim NAME'",
        "still_opening": "That screen is still opening; try again",
        "machine.sim": "simulated: {name}", "machine.replay": "snapshot: {name}", "machine.live": "live: {name}",
        "cmd.show": "Show {screen}", "cmd.show.help": "Switch to the {screen} screen",
        "screen.check": "Check", "screen.ask": "Ask", "screen.knowledge": "Knowledge", "screen.environment": "Environment",
        "screen.fleet": "Fleet",
        "cmd.rerun": "Run the check again", "cmd.rerun.help": "Collect the facts and run every rule",
        "cmd.export": "Export snapshot", "cmd.export.help": "Save a private snapshot of this machine (asks where)",
        "cmd.theme": "Light / dark theme", "cmd.theme.help": "Switch between the light and the dark theme",
        "cmd.quit": "Quit", "cmd.quit.help": "Leave ascend-doctor",
        "cmd.copy_fix": "Check: copy the fix command", "cmd.copy_fix.help": "Copy the selected result's fix command (c)",
        "cmd.open_check": "Check: open the problem in Knowledge",
        "cmd.open_check.help": "The known problem behind the selected result (o)",
        "cmd.problems": "Check: problems only / all results",
        "cmd.problems.help": "Show only WARN, FAIL and ERROR, or everything (p)",
        "cmd.diagnose": "Ask: diagnose", "cmd.diagnose.help": "Diagnose the text box or the path field, whichever you used last (ctrl+r)",
        "cmd.facts": "Ask: this machine's facts on/off",
        "cmd.facts.help": "Let the machine's facts confirm or rule out causes (ctrl+e)",
        "cmd.open_ask": "Ask: open the cause in Knowledge", "cmd.open_ask.help": "The known problem of the selected cause (ctrl+o)",
        "cmd.view": "Environment: overview / all facts", "cmd.view.help": "Switch between the summary and the fact table (ctrl+t)",
        "cmd.filter": "Environment: filter the facts", "cmd.filter.help": "Move to the filter box (ctrl+f)",
        # status words, as the check prints them
        "status.PASS": "PASS", "status.WARN": "WARN", "status.FAIL": "FAIL", "status.SKIP": "SKIP", "status.ERROR": "ERROR",
        "severity.critical": "critical", "severity.error": "error", "severity.warning": "warning", "severity.info": "info",
        # Check
        "key.copy_fix": "Copy fix", "key.open_problem": "Open", "key.toggle_problems": "Problems only", "key.rerun": "Re-run",
        "check.collecting": "collecting facts from {machine} …",
        "check.probing": "probing {machine}: {done}/{total} {name}",
        "check.failed": "the check could not run: {error}",
        "check.no_rule": "no rule ran",
        "check.col.group": "Group", "check.col.check": "Check",
        "check.all_pass": "No problem found: every rule passed or did not apply. Press **p** to show all results.",
        "check.none_ran": "No rule ran.",
        "check.evidence": "Evidence", "check.fix": "Fix",
        "check.keys": "Enter / o: open in Knowledge", "check.keys_copy": "c: copy the fix command",
        "check.nothing_to_fix": "This check passed or did not apply: nothing to fix",
        "check.no_command": "No fix command for this result (see the text on the right)",
        "check.copied": "Sent to the clipboard (if your terminal accepts it): {command}",
        "check.no_problem": "This result has no problem in the knowledge base",
        # Ask
        "key.diagnose": "Diagnose", "key.toggle_facts": "Facts on/off",
        "ask.text.title": "Symptom or log · ctrl+r diagnoses it",
        "ask.text.placeholder": "describe the problem or paste a log: 权重加载一直卡住 / HCCL timeout when starting 2 nodes",
        "ask.path.title": "Or a log file / folder · Enter diagnoses it",
        "ask.path.placeholder": "a log file or folder (plog directory, .gz)",
        "ask.button": "Diagnose",
        "ask.idle.text": "ctrl+r: diagnose the text box", "ask.idle.path": "Enter: diagnose the file or folder",
        "ask.facts_on": "narrowed by this machine's facts (ctrl+e)", "ask.facts_off": "machine facts ignored (ctrl+e)",
        "ask.empty": "Type a symptom, paste a log or give a path first",
        "ask.empty_path": "The path field is empty: give a file or folder, or use the text box above",
        "ask.empty_text": "The text box is empty: type a symptom or paste a log, or use the path field",
        "ask.busy.text": "diagnosing the text …", "ask.busy.path": "diagnosing {path} …",
        "ask.found": "{n} possible cause(s) in {what}", "ask.what.text": "the text", "ask.what.path": "{path}",
        "ask.none": "no known cause matched in {what}", "ask.codes": "codes found: {codes}",
        "ask.try": "try Knowledge: {query}", "ask.ignored": "(machine facts ignored)",
        "ask.no_file": "No such file or folder: {path}", "ask.failed": "Could not diagnose: {error}",
        "ask.hint.none": "No known cause matched.",
        "ask.hint.facts": "Causes that the facts of this machine rule out are not listed: press **ctrl+e** to ignore the machine facts.",
        "ask.hint.try": "Try other words, paste the full log, or search on the Knowledge screen (F3).",
        "ask.score": "score", "ask.why": "Why", "ask.confirmed": "Confirmed by this machine",
        "ask.ruled_out": "Made unlikely by this machine", "ask.keys": "Enter / ctrl+o: open in Knowledge",
        # Knowledge
        "kn.placeholder": "search: 权重加载 卡住, HCCL timeout, 561000 …",
        "kn.kind.all": "all", "kn.kind.problem": "problems", "kn.kind.code": "codes",
        "kn.family.any": "any family", "kn.hw.any": "any hw", "kn.hw": "hw {hw}",
        "kn.empty": ("Type to search the problems and error codes (English or Chinese). An error code such as `561000`, "
                     "`EZ9999` or `-8020` jumps straight to its entry.\n\nTab moves to the results; Up/Down browse "
                     "them; Enter reads the one highlighted."),
        "kn.results": "{n} result(s)", "kn.direct": " · direct code match first",
        "kn.nothing": "Nothing found for {query}; try fewer or other words.",
        "kn.opened": "problem {id} · type in the search box to search",
        # Environment
        "key.export": "Export snapshot", "key.toggle_view": "Facts / overview", "key.focus_filter": "Filter",
        "env.collecting": "collecting facts …", "env.failed": "facts not collected: {error}",
        "env.card.product": "Product", "env.card.npus": "NPUs", "env.card.hdk": "HDK", "env.card.firmware": "firmware",
        "env.card.cann": "CANN", "env.card.stack": "Stack", "env.card.system": "System", "env.card.container": "container",
        "env.card.health": "health", "env.card.unknown": "unknown", "env.card.none": "none",
        "env.card.not_found": "no NPU found",
        "env.family.a2": "Atlas A2 series", "env.family.a3": "Atlas A3 series", "env.family.310p": "Atlas 300I Duo / Pro (310P)",
        "env.family.310b": "Atlas 200I / 500 A2 (310B)", "env.family.910": "Atlas 800 / 900 (910)",
        "env.family.950": "Atlas 950 series", "env.family.unknown": "unknown product",
        "env.dev.npu": "NPU", "env.dev.chip": "Chip", "env.dev.name": "Name", "env.dev.health": "Health",
        "env.dev.power": "Power(W)", "env.dev.temp": "Temp(C)", "env.dev.aicore": "AICore(%)",
        "env.dev.hbm": "HBM(MB)", "env.dev.memory": "Memory(MB)", "env.dev.bus": "Bus-Id",
        "env.dev.none": "npu-smi shows no device ({why})",
        "env.procs": "Processes on the NPUs: {list}", "env.procs.none": "No process is using the NPUs.",
        "env.overview.keys": "{n} facts, {bad} not collected · ctrl+t: all facts · ctrl+x: save a snapshot",
        "env.filter.placeholder": "filter facts: npu, env., status:missing …",
        "env.col.fact": "Fact", "env.col.status": "Status", "env.col.value": "Value", "env.col.source": "Source",
        "env.col.ms": "ms",
        "env.count": "{n} facts", "env.count_of": "{shown} of {n} facts",
        "env.keys": "Enter: to the table · ctrl+t: overview · ctrl+x: export snapshot",
        "env.no_match": "no fact matches the filter", "env.no_facts": "no facts",
        "env.unset": "unset",
        "env.export.waiting": "Facts are still being collected; the snapshot follows",
        "env.export.failed": "Snapshot not written: {error}",
        "env.export.done": "Snapshot written (private, mode 0600): {path}",
        "env.export.cancelled": "Snapshot not written",
        # the save dialog
        "save.title": "Save a private snapshot of this machine",
        "save.body": ("No serial numbers, no host name, only an allow-list of environment variables; the file is "
                      "readable by you only (mode 0600)."),
        "save.label": "File (a folder takes a new file name inside it):",
        "save.save": "Save", "save.cancel": "Cancel", "save.keys": "Enter: save · Esc: cancel",
        "save.exists": "{path} exists; choose another name",
        "save.no_dir": "No such folder: {path}",
        "save.empty": "Give a file name",
        # fact statuses
        "fact.ok": "ok", "fact.missing": "missing", "fact.denied": "denied", "fact.timeout": "timeout", "fact.error": "error",
        "fact.unparsed": "unparsed",
        # Fleet
        "key.toggle_all": "All nodes / findings", "key.switch_table": "Grid / rules",
        "fleet.comparing": "comparing {fleet} …", "fleet.failed": "the fleet check could not run: {error}",
        "fleet.summary": "{fleet}: {n} nodes · {verdict}", "fleet.sim": "simulated fleet: {name}",
        "fleet.col.node": "node", "fleet.col.rule": "Fleet rule", "fleet.col.check": "Check · outliers",
        "fleet.all_agree": "Every node agrees and nothing failed. Press **a** to show every node.",
        "fleet.no_snapshot": "Expected, but no snapshot was received.", "fleet.unreadable": "Unreadable: {reason}",
        "fleet.said": "What the fleet rules say of this node", "fleet.no_data": "no data",
        "fleet.agrees": "Nothing: the node agrees with the others.", "fleet.labels": "Labels",
        "fleet.checks": "{group} checks", "fleet.fix": "Fix", "fleet.reference": "Reference {value} ({origin}, {units})",
        "fleet.split": "No majority: a split, no one blamed.", "fleet.on": "{value} on {nodes} ({units})",
        "fleet.sources": "Sources",
        "fleet.short.driver": "drv", "fleet.short.cann": "cann", "fleet.short.python": "py", "fleet.short.container": "ctnr",
        "fleet.short.devices": "dev", "fleet.short.network": "net", "fleet.short.fleet": "fleet",
    },
    "zh": {
        "tab.check": "F1 检查", "tab.ask": "F2 诊断", "tab.knowledge": "F3 知识库", "tab.environment": "F4 环境",
        "tab.fleet": "F6 集群",
        "key.toggle_dark": "主题", "key.quit": "退出", "key.command_palette": "命令",
        "quit_hint": "按 q 或 ctrl+q 退出",
        "palette.placeholder": "搜索命令…",
        "no_fleet": "没有给出集群：请用 'ascend-doctor tui --fleet 目录' 或 '--fleet-sim 名称' 启动",
        "still_opening": "该页面仍在打开，请稍后再试",
        "machine.sim": "模拟机器：{name}", "machine.replay": "快照：{name}", "machine.live": "本机：{name}",
        "cmd.show": "显示{screen}", "cmd.show.help": "切换到{screen}页面",
        "screen.check": "检查", "screen.ask": "诊断", "screen.knowledge": "知识库", "screen.environment": "环境",
        "screen.fleet": "集群",
        "cmd.rerun": "重新检查", "cmd.rerun.help": "重新收集环境信息并运行全部规则",
        "cmd.export": "导出快照", "cmd.export.help": "保存本机的隐私快照（会询问保存位置）",
        "cmd.theme": "浅色 / 深色主题", "cmd.theme.help": "在浅色与深色主题之间切换",
        "cmd.quit": "退出", "cmd.quit.help": "退出 ascend-doctor",
        "cmd.copy_fix": "检查：复制修复命令", "cmd.copy_fix.help": "复制所选结果的修复命令（c）",
        "cmd.open_check": "检查：在知识库中打开问题", "cmd.open_check.help": "所选结果对应的已知问题（o）",
        "cmd.problems": "检查：只看问题 / 全部结果", "cmd.problems.help": "只显示警告、失败和无法检查的项，或显示全部（p）",
        "cmd.diagnose": "诊断：开始诊断", "cmd.diagnose.help": "诊断文本框或路径框中最近使用的那一个（ctrl+r）",
        "cmd.facts": "诊断：使用 / 不使用本机环境信息", "cmd.facts.help": "用本机环境信息确认或排除可能原因（ctrl+e）",
        "cmd.open_ask": "诊断：在知识库中打开原因", "cmd.open_ask.help": "所选原因对应的已知问题（ctrl+o）",
        "cmd.view": "环境：概览 / 全部事实", "cmd.view.help": "在概览与事实表之间切换（ctrl+t）",
        "cmd.filter": "环境：筛选事实", "cmd.filter.help": "移到筛选框（ctrl+f）",
        "status.PASS": "通过", "status.WARN": "警告", "status.FAIL": "失败", "status.SKIP": "跳过", "status.ERROR": "无法检查",
        "severity.critical": "严重", "severity.error": "错误", "severity.warning": "警告", "severity.info": "提示",
        "key.copy_fix": "复制修复命令", "key.open_problem": "打开问题", "key.toggle_problems": "只看问题", "key.rerun": "重新检查",
        "check.collecting": "正在收集 {machine} 的环境信息…",
        "check.probing": "正在探测 {machine}：{done}/{total} {name}",
        "check.failed": "检查无法运行：{error}",
        "check.no_rule": "没有运行任何规则",
        "check.col.group": "分组", "check.col.check": "检查项",
        "check.all_pass": "没有发现问题：所有规则均通过或不适用。按 **p** 显示全部结果。",
        "check.none_ran": "没有运行任何规则。",
        "check.evidence": "依据", "check.fix": "修复",
        "check.keys": "回车 / o：在知识库中打开", "check.keys_copy": "c：复制修复命令",
        "check.nothing_to_fix": "此项检查通过或不适用：无需修复",
        "check.no_command": "此结果没有可复制的修复命令（见右侧说明）",
        "check.copied": "已发送到剪贴板（若终端支持）：{command}",
        "check.no_problem": "此结果在知识库中没有对应的问题",
        "key.diagnose": "诊断", "key.toggle_facts": "环境信息 开/关",
        "ask.text.title": "现象或日志 · ctrl+r 诊断",
        "ask.text.placeholder": "描述问题或粘贴日志：权重加载一直卡住 / 两机启动时 HCCL 超时",
        "ask.path.title": "或日志文件 / 文件夹 · 回车诊断",
        "ask.path.placeholder": "日志文件或文件夹（plog 目录、.gz）",
        "ask.button": "诊断",
        "ask.idle.text": "ctrl+r：诊断文本框的内容", "ask.idle.path": "回车：诊断该文件或文件夹",
        "ask.facts_on": "按本机环境信息缩小范围（ctrl+e）", "ask.facts_off": "不使用本机环境信息（ctrl+e）",
        "ask.empty": "请先输入现象、粘贴日志或给出路径",
        "ask.empty_path": "路径框为空：请给出文件或文件夹，或使用上方的文本框",
        "ask.empty_text": "文本框为空：请输入现象或粘贴日志，或使用路径框",
        "ask.busy.text": "正在诊断文本…", "ask.busy.path": "正在诊断 {path} …",
        "ask.found": "在{what}中找到 {n} 个可能原因", "ask.what.text": "文本", "ask.what.path": " {path} ",
        "ask.none": "在{what}中没有匹配到已知原因", "ask.codes": "发现的错误码：{codes}",
        "ask.try": "可在知识库中搜索：{query}", "ask.ignored": "（未使用本机环境信息）",
        "ask.no_file": "文件或文件夹不存在：{path}", "ask.failed": "无法诊断：{error}",
        "ask.hint.none": "没有匹配到已知原因。",
        "ask.hint.facts": "被本机环境信息排除的原因没有列出：按 **ctrl+e** 可忽略本机环境信息。",
        "ask.hint.try": "换个说法、粘贴完整日志，或到知识库页面（F3）搜索。",
        "ask.score": "得分", "ask.why": "依据", "ask.confirmed": "本机环境信息佐证",
        "ask.ruled_out": "本机环境信息表明可能性较低", "ask.keys": "回车 / ctrl+o：在知识库中打开",
        "kn.placeholder": "搜索：权重加载 卡住、HCCL timeout、561000 …",
        "kn.kind.all": "全部", "kn.kind.problem": "问题", "kn.kind.code": "错误码",
        "kn.family.any": "全部类别", "kn.hw.any": "全部硬件", "kn.hw": "硬件 {hw}",
        "kn.empty": ("输入文字即可搜索已知问题和错误码（中英文均可）。输入 `561000`、`EZ9999`、`-8020` 这样的错误码会直接"
                     "跳到对应条目。\n\nTab 移到结果列表；上下键浏览；回车阅读所选条目。"),
        "kn.results": "{n} 个结果", "kn.direct": " · 错误码精确匹配在前",
        "kn.nothing": "没有找到与 {query} 相关的内容；请减少或更换关键词。",
        "kn.opened": "问题 {id} · 在搜索框中输入文字即可搜索",
        "key.export": "导出快照", "key.toggle_view": "事实 / 概览", "key.focus_filter": "筛选",
        "env.collecting": "正在收集环境信息…", "env.failed": "未能收集环境信息：{error}",
        "env.card.product": "产品", "env.card.npus": "NPU", "env.card.hdk": "HDK", "env.card.firmware": "固件",
        "env.card.cann": "CANN", "env.card.stack": "软件栈", "env.card.system": "系统", "env.card.container": "容器",
        "env.card.health": "健康状态", "env.card.unknown": "未知", "env.card.none": "无",
        "env.card.not_found": "未发现 NPU",
        "env.family.a2": "Atlas A2 系列", "env.family.a3": "Atlas A3 系列", "env.family.310p": "Atlas 300I Duo / Pro（310P）",
        "env.family.310b": "Atlas 200I / 500 A2（310B）", "env.family.910": "Atlas 800 / 900（910）",
        "env.family.950": "Atlas 950 系列", "env.family.unknown": "未知产品",
        "env.dev.npu": "NPU", "env.dev.chip": "芯片", "env.dev.name": "名称", "env.dev.health": "健康",
        "env.dev.power": "功耗(W)", "env.dev.temp": "温度(C)", "env.dev.aicore": "AICore(%)",
        "env.dev.hbm": "HBM(MB)", "env.dev.memory": "内存(MB)", "env.dev.bus": "总线 ID",
        "env.dev.none": "npu-smi 未显示任何设备（{why}）",
        "env.procs": "占用 NPU 的进程：{list}", "env.procs.none": "没有进程占用 NPU。",
        "env.overview.keys": "共 {n} 项事实，{bad} 项未收集到 · ctrl+t：全部事实 · ctrl+x：保存快照",
        "env.filter.placeholder": "筛选事实：npu、env.、status:missing …",
        "env.col.fact": "事实", "env.col.status": "状态", "env.col.value": "取值", "env.col.source": "来源",
        "env.col.ms": "毫秒",
        "env.count": "共 {n} 项事实", "env.count_of": "{n} 项事实中的 {shown} 项",
        "env.keys": "回车：进入表格 · ctrl+t：概览 · ctrl+x：导出快照",
        "env.no_match": "没有符合筛选条件的事实", "env.no_facts": "没有事实",
        "env.unset": "未设置",
        "env.export.waiting": "仍在收集环境信息；收集完成后再保存快照",
        "env.export.failed": "快照未写入：{error}",
        "env.export.done": "快照已写入（仅本人可读，权限 0600）：{path}",
        "env.export.cancelled": "未写入快照",
        "save.title": "保存本机的隐私快照",
        "save.body": "不含序列号和主机名，环境变量只保留白名单中的；文件仅本人可读（权限 0600）。",
        "save.label": "文件（若填写文件夹，则在其中新建文件）：",
        "save.save": "保存", "save.cancel": "取消", "save.keys": "回车：保存 · Esc：取消",
        "save.exists": "{path} 已存在；请换一个文件名",
        "save.no_dir": "文件夹不存在：{path}",
        "save.empty": "请填写文件名",
        "fact.ok": "正常", "fact.missing": "缺失", "fact.denied": "无权限", "fact.timeout": "超时", "fact.error": "出错",
        "fact.unparsed": "无法解析",
        "key.toggle_all": "全部节点 / 仅问题", "key.switch_table": "网格 / 规则",
        "fleet.comparing": "正在比较 {fleet} …", "fleet.failed": "集群检查无法运行：{error}",
        "fleet.summary": "{fleet}：{n} 个节点 · {verdict}", "fleet.sim": "模拟集群：{name}",
        "fleet.col.node": "节点", "fleet.col.rule": "跨节点规则", "fleet.col.check": "检查项 · 异常节点",
        "fleet.all_agree": "所有节点一致，未发现失败。按 **a** 显示全部节点。",
        "fleet.no_snapshot": "预期有此节点，但没有收到快照。", "fleet.unreadable": "无法读取：{reason}",
        "fleet.said": "跨节点规则对此节点的结论", "fleet.no_data": "无数据",
        "fleet.agrees": "无：该节点与其他节点一致。", "fleet.labels": "标签",
        "fleet.checks": "“{group}”检查项", "fleet.fix": "修复", "fleet.reference": "参考值 {value}（{origin}，{units}）",
        "fleet.split": "没有多数：取值分裂，不归咎任何节点。", "fleet.on": "{value}：{nodes}（{units}）",
        "fleet.sources": "来源",
        "fleet.short.driver": "驱动", "fleet.short.cann": "CANN", "fleet.short.python": "Py", "fleet.short.container": "容器",
        "fleet.short.devices": "设备", "fleet.short.network": "网络", "fleet.short.fleet": "集群",
    },
}


def w(key: str, lang: str, **params) -> str:
    """The TUI's text ``key`` in ``lang`` (English when the language has none), filled with ``params``."""
    text = LABELS.get(lang, LABELS["en"]).get(key)
    if text is None:
        text = LABELS["en"][key]
    return text.format(**params) if params else text


def machine_label(spec, lang: str) -> str:
    """Which machine the TUI looks at (the title bar), in ``lang``."""
    import os

    if spec.sim:
        return w("machine.sim", lang, name=spec.sim)
    if spec.replay:
        return w("machine.replay", lang, name=os.path.basename(spec.replay))
    return w("machine.live", lang, name=os.uname().nodename)


def localize_bindings(node, lang: str) -> None:
    """The footer descriptions of ``node``'s own key bindings in ``lang``: each binding's description is the
    text ``key.<action>`` (textual reads them from the class; this gives the instance its own copies)."""
    from dataclasses import replace

    bindings = node._bindings.key_to_bindings         # textual keeps no public way to relabel a binding
    for key, items in bindings.items():
        bindings[key] = [replace(b, description=w(f"key.{b.action}", lang))
                         if f"key.{b.action}" in LABELS["en"] and b.description else b for b in items]
