"""The command line's own help (``--help``) in Chinese: every description and option help the commands
write in English, keyed by that English text (the commands keep one text each, beside their options;
``tests/test_cli_help_zh.py`` fails on one without its Chinese here). Option names, values, file names
and commands stay as they are typed."""
from __future__ import annotations

#: argparse's own words in a help screen
HEADINGS_ZH = {
    "usage: ": "用法：",
    "positional arguments:": "位置参数：",
    "options:": "选项：",
    "optional arguments:": "选项：",
}

HELP_ZH = {
    # ascend-doctor
    "Troubleshooting knowledge base and diagnostic assistant for Ascend NPU machines.":
        "昇腾 NPU 机器的故障知识库与诊断助手。",
    "show this help message and exit": "显示本帮助并退出",
    "show program's version number and exit": "显示版本号并退出",
    "show a traceback on internal errors": "内部错误时显示完整调用栈",
    "language of the output (default: from the locale)": "输出语言（默认：按系统 locale）",
    "knowledge-base database file (default: $ASCEND_DOCTOR_KB or the user cache)":
        "知识库数据库文件（默认：$ASCEND_DOCTOR_KB 或用户缓存目录）",
    # the commands, as listed by ascend-doctor --help
    "support bundle: snapshot, npu-smi per device, kernel messages and the newest logs in one private .tar.gz":
        "支持包：快照、逐设备 npu-smi、内核消息和最新日志，打成一个仅本人可读的 .tar.gz",
    "check this machine (or a simulated / recorded one) against the built-in rules":
        "按内置规则检查本机（或模拟 / 录制的机器）",
    "which HDK, CANN, torch_npu, engine and hardware versions fit together":
        "查询 HDK、CANN、torch_npu、推理引擎与硬件哪些版本相互配套",
    "print a shell completion script (bash, zsh or fish)": "输出 shell 自动补全脚本（bash、zsh 或 fish）",
    "find the known causes behind logs, a plog directory or a pasted error (ranked, with evidence and fixes)":
        "从日志、plog 目录或粘贴的报错中找出已知原因（按可能性排序，附证据和修复方法）",
    "explain an error code (561000, EI0006, -8005, ERR00100, 0x80E01801), a problem id or a rule id":
        "解释错误码（561000、EI0006、-8005、ERR00100、0x80E01801）、问题 ID 或规则 ID",
    "show every fact observed on this machine (or a --sim profile / --replay snapshot)":
        "显示在本机（或 --sim 模拟机器 / --replay 快照）上观察到的全部事实",
    "compare the snapshots of many nodes: per-node rules on each, cross-node rules over all":
        "比较多个节点的快照：每个节点跑单节点规则，所有节点一起跑跨节点规则",
    "knowledge base: validate, build, stats, add overlays, export / import knowledge bundles, import FaultDiag, docs":
        "知识库：校验、构建、统计、添加 overlay、导出 / 导入知识包、导入 FaultDiag、生成文档",
    "parse a pasted tool output (npu-smi info, -t board, version.info, collect_env, ...) into structured data":
        "把粘贴的工具输出（npu-smi info、-t board、version.info、collect_env 等）解析为结构化数据",
    "list the bundled simulated machines usable with --sim (--fleets: the simulated fleets)":
        "列出可用于 --sim 的内置模拟机器（--fleets：模拟集群）",
    "list the built-in check rules (ascend-doctor explain AD-CONT-001 shows one)":
        "列出内置检查规则（用 ascend-doctor explain AD-CONT-001 查看单条）",
    'search known problems and error codes (English or Chinese: "weight loading hang", "权重加载 卡住")':
        '搜索已知问题和错误码（中英文均可："weight loading hang"、"权重加载 卡住"）',
    "record every probe's raw output into one JSON file (replay it with --replay FILE)":
        "把每个探针的原始输出记录到一个 JSON 文件（用 --replay FILE 回放）",
    "interactive assistant: run the check, ask about a problem, browse the knowledge":
        "交互式助手：运行检查、询问问题、浏览知识库",
    # bundle
    "Gather what support needs into one .tar.gz (like nvidia-bug-report): the private snapshot, npu-smi info -t "
    "health|ecc|board|usages for every device and die, the kernel's Ascend messages (dmesg), the newest host slog, "
    "plog/device logs and msnpureport export within --log-limit, and a manifest of what was collected, left out "
    "(and why), cut and redacted. Read-only on the machine; secrets, credentials, serial numbers and (unless "
    "--include-hostname) the host name are removed; the file is readable by you only (mode 0600).":
        "把技术支持需要的信息收集到一个 .tar.gz（类似 nvidia-bug-report）：私有快照、每个设备和 die 的 "
        "npu-smi info -t health|ecc|board|usages、内核中与昇腾相关的消息（dmesg）、--log-limit 以内最新的 host "
        "slog、plog / device 日志和 msnpureport 导出，以及一份清单，写明收集了什么、略去了什么（及原因）、截断和"
        "脱敏了什么。对机器只读；密钥、凭据、序列号和主机名（除非 --include-hostname）会被移除；文件仅本人可读"
        "（权限 0600）。",
    "archive to write; an existing file is kept unless --force": "要写入的压缩包；已有文件会保留，除非加 --force",
    "list what the bundle would hold and leave out; write nothing": "列出支持包将包含和略去的内容，不写任何文件",
    "replace an existing output file": "覆盖已有的输出文件",
    "keep the host name (removed by default)": "保留主机名（默认移除）",
    "at most this much log text, newest first (default 32M; 512K, 1G...)":
        "日志文本上限，优先取最新的（默认 32M；可写 512K、1G 等）",
    "an msnpureport export folder (or a folder of them) besides /var/log/npu/report; repeatable":
        "除 /var/log/npu/report 外的 msnpureport 导出目录（或其上级目录）；可重复",
    "Python interpreter whose packages are recorded (default: the workload's)":
        "记录其软件包的 Python 解释器（默认：业务所用的解释器）",
    "time-out of each command (default 10)": "每条命令的超时时间（默认 10 秒）",
    "bundle a bundled simulated machine instead": "改为给一台内置模拟机器打包",
    # check
    "check this machine (or a simulated / recorded one) against the built-in rules. Exit code: 0 nothing at or "
    "above --fail-on, 1 findings at or above it, 2 bad usage or input, 3 internal error. See docs/check.md for the "
    "JSON schema.":
        "按内置规则检查本机（或模拟 / 录制的机器）。退出码：0 没有达到 --fail-on 级别的结果，1 有达到该级别的结果，"
        "2 用法或输入错误，3 内部错误。JSON 格式见 docs/check.md。",
    "look at a bundled simulated machine instead of this one (see 'ascend-doctor profiles')":
        "改为查看一台内置模拟机器（见 'ascend-doctor profiles'）",
    "look at the machine recorded in a snapshot file ('ascend-doctor snapshot')":
        "改为查看快照文件中录制的机器（'ascend-doctor snapshot'）",
    "Python interpreter whose packages are inspected (default: the active venv or conda environment, else python3 "
    "on PATH, else the one running ascend-doctor)":
        "检查其软件包的 Python 解释器（默认：当前激活的 venv 或 conda 环境，否则 PATH 中的 python3，否则运行 "
        "ascend-doctor 的解释器）",
    "time-out of each command run on the machine (default 10)": "在机器上运行的每条命令的超时时间（默认 10 秒）",
    "output format (default: text)": "输出格式（默认：text）",
    "write the --format output to FILE instead of stdout": "把 --format 指定格式的输出写入 FILE，而不是标准输出",
    "also write the JSON report to FILE": "同时把 JSON 报告写入 FILE",
    "also write JUnit XML to FILE": "同时把 JUnit XML 写入 FILE",
    "also write the Markdown report to FILE": "同时把 Markdown 报告写入 FILE",
    "exit 1 when a result is at or above this level: error (FAIL), warning (FAIL, WARN, ERROR) or never "
    "(default: error)":
        "结果达到该级别时退出码为 1：error（FAIL）、warning（FAIL、WARN、ERROR）或 never（默认：error）",
    "run only these rules or groups (ids, slugs or group names; comma-separated, repeatable)":
        "只运行这些规则或规则组（ID、短名或组名；逗号分隔，可重复）",
    "do not run these rules or groups (comma-separated, repeatable)": "不运行这些规则或规则组（逗号分隔，可重复）",
    "show skipped rules, the evidence, the facts used and probe timings": "显示跳过的规则、证据、所用事实和探针耗时",
    # compat
    "CANN release, e.g. 8.3.RC1 or a line such as 8.5.X": "CANN 版本，如 8.3.RC1，或版本线如 8.5.X",
    "Ascend HDK (driver/firmware) version, e.g. 25.5.1": "昇腾 HDK（驱动 / 固件）版本，如 25.5.1",
    "torch_npu version, e.g. 2.7.1.post2": "torch_npu 版本，如 2.7.1.post2",
    "vllm-ascend release, e.g. v0.11.0 or 0.11.0": "vllm-ascend 版本，如 v0.11.0 或 0.11.0",
    "engine: vllm-ascend, sglang, mindie, torch_npu": "推理引擎：vllm-ascend、sglang、mindie、torch_npu",
    "product name (e.g. 'Atlas 800I A2') or hardware family (a2, a3, 310p, ...)":
        "产品名（如 'Atlas 800I A2'）或硬件系列（a2、a3、310p 等）",
    "list the versions the compatibility matrices know": "列出配套矩阵中已知的版本",
    # completion
    "the shell to complete in": "要补全的 shell",
    # diagnose
    "find the known causes behind logs, a plog directory or a pasted error (ranked, with evidence and fixes). "
    "PATH may be a file, a directory (read recursively: CANN plog folders, device-* logs, engine logs), a .gz file "
    "or '-' for stdin. Exit code: 0 no likely cause (score < 0.5), 1 a likely cause found, 2 bad usage or "
    "unreadable input, 3 internal error.":
        "从日志、plog 目录或粘贴的报错中找出已知原因（按可能性排序，附证据和修复方法）。PATH 可以是文件、目录（递归"
        "读取：CANN plog 目录、device-* 日志、引擎日志）、.gz 文件，或用 '-' 表示标准输入。退出码：0 没有可能原因"
        "（得分 < 0.5），1 找到可能原因，2 用法错误或输入不可读，3 内部错误。",
    "log files, directories, .gz files, or - for stdin": "日志文件、目录、.gz 文件，或用 - 表示标准输入",
    "diagnose this text (an error message, an issue body)": "诊断这段文本（一条报错、一个 issue 正文）",
    "show the N most likely causes (default 3)": "显示最可能的 N 个原因（默认 3）",
    "do not look at this machine; use only the inputs (and facts found in them)":
        "不查看本机；只用输入内容（及从中找到的事实）",
    "also show the decisive line, CANN messages and facts": "同时显示关键行、CANN 消息和事实",
    # explain
    "error code, symbolic name, problem id or rule id": "错误码、符号名、问题 ID 或规则 ID",
    "only codes of this family (aclnn, acl, cann, dcmi, hccl, ...)": "只查这一类错误码（aclnn、acl、cann、dcmi、hccl 等）",
    # facts
    "only facts whose key starts with PREFIX (repeatable)": "只显示键以 PREFIX 开头的事实（可重复）",
    # fleet
    "compare the snapshots of many nodes: per-node rules on each, cross-node rules over all. Give snapshot files "
    "or directories of them ('ascend-doctor snapshot --node NAME -o FILE' on every node), or --sim FLEET. Exit "
    "code: 0 nothing at or above --fail-on, 1 findings, 2 bad usage or input, 3 internal error. See docs/fleet.md.":
        "比较多个节点的快照：每个节点跑单节点规则，所有节点一起跑跨节点规则。给出快照文件或其所在目录（在每个节点上"
        "执行 'ascend-doctor snapshot --node NAME -o FILE'），或 --sim FLEET。退出码：0 没有达到 --fail-on 级别的"
        "结果，1 有结果，2 用法或输入错误，3 内部错误。见 docs/fleet.md。",
    "snapshot files, or directories of them": "快照文件，或其所在目录",
    "a bundled simulated fleet instead of files (see 'ascend-doctor profiles --fleets')":
        "改用一个内置模拟集群，而不是文件（见 'ascend-doctor profiles --fleets'）",
    "the nodes that must be there: 'node[001-064]', 'n1,n2', or @FILE": "必须出现的节点：'node[001-064]'、'n1,n2' 或 @FILE",
    "desired state (TOML [expect] table of fact -> value): the reference instead of the majority":
        "期望状态（TOML 的 [expect] 表：事实 -> 取值）：作为比较基准，代替多数节点的取值",
    "compare within groups of these facts or labels (default hardware.family; e.g. "
    "hardware.family,label.superpod); comma-separated, repeatable":
        "按这些事实或标签分组比较（默认 hardware.family；如 hardware.family,label.superpod）；逗号分隔，可重复",
    "the job's rank table: every server of it must match a node's NPU NICs":
        "作业的 rank table：其中每台服务器都必须与某个节点的 NPU 网卡对应",
    "run only these fleet rules or fleet groups (comma-separated, repeatable)":
        "只运行这些集群规则或集群规则组（逗号分隔，可重复）",
    "do not run these fleet rules or groups": "不运行这些集群规则或规则组",
    "do not run the per-node rules on each node": "不在每个节点上运行单节点规则",
    "exit 1 when a fleet or node result is at or above this level (default: error)":
        "集群或节点结果达到该级别时退出码为 1（默认：error）",
    "write the --format output to FILE instead of stdout (whole or not at all)":
        "把 --format 指定格式的输出写入 FILE，而不是标准输出（要么完整写入，要么不写）",
    "also write the Prometheus textfile to FILE": "同时把 Prometheus textfile 写入 FILE",
    "show passing rules, every node and the versions": "显示通过的规则、每个节点及其版本",
    # kb
    "check the knowledge files (and user overlays); exit 1 on any problem": "校验知识文件（及用户 overlay）；有任何问题则退出码为 1",
    "check the knowledge files the way reviewers do: schema, validation and quality rules (codes K000-K108); exit 1 "
    "on an error (--strict: on a warning too)":
        "像评审者那样检查知识文件：格式、校验和质量规则（代码 K000-K108）；有错误时退出码为 1（加 --strict 则警告也算）",
    "write the JSON Schemas of the knowledge files (for editors such as Taplo)":
        "写出知识文件的 JSON Schema（供 Taplo 等编辑器使用）",
    "compile the knowledge files into the database now": "立即把知识文件编译进数据库",
    "counts of problems, codes and compatibility rows per family": "按类别统计问题、错误码和配套表行数",
    "print where the compiled database is": "显示编译好的数据库所在位置",
    "validate a knowledge file (your own problems/codes) and add it as a user overlay":
        "校验一个知识文件（你自己的问题 / 错误码）并把它添加为用户 overlay",
    "remove a user overlay added with 'kb add'": "删除用 'kb add' 添加的用户 overlay",
    "list the user overlay files": "列出用户 overlay 文件",
    "write the overlay files in effect (site and user), or those named, into a knowledge bundle (.tar.gz) for "
    "'kb import' on machines without a network":
        "把生效中的 overlay 文件（站点级和用户级）或指定的文件写成知识包（.tar.gz），供无网络的机器用 'kb import' 导入",
    "install the knowledge files of a knowledge bundle (.tar.gz from 'kb export') into your overlays, offline: every "
    "file checked first, all or nothing":
        "离线把知识包（'kb export' 生成的 .tar.gz）中的知识文件装入你的 overlay：每个文件先校验，要么全部装入，要么都不装",
    "import MindCluster FaultDiag's kg-config.json (default: from the installed ascend_fd)":
        "导入 MindCluster FaultDiag 的 kg-config.json（默认：取自已安装的 ascend_fd）",
    "generate the Markdown catalogue (docs/kb/) from the knowledge files": "从知识文件生成 Markdown 目录（docs/kb/）",
    "extra knowledge files to check as overlays": "作为 overlay 一并检查的额外知识文件",
    "warnings fail too": "警告也算失败",
    "only these lint codes (repeatable)": "只检查这些 lint 代码（可重复）",
    "where to write (default: docs/schema of the source tree)": "写到哪里（默认：源码树的 docs/schema）",
    "rebuild even when the database looks fresh": "即使数据库看起来是最新的也重新构建",
    "problems and/or codes in the knowledge format": "知识格式的问题和 / 或错误码",
    "file name of the overlay (see 'kb overlays')": "overlay 的文件名（见 'kb overlays'）",
    "bundle to write (kept unless --force)": "要写入的知识包（已有文件会保留，除非加 --force）",
    "only these overlays (see 'kb overlays')": "只导出这些 overlay（见 'kb overlays'）",
    "knowledge bundle to import": "要导入的知识包",
    "kg-config.json to read": "要读取的 kg-config.json",
    "where to write (default: docs/kb of the source tree)": "写到哪里（默认：源码树的 docs/kb）",
    # parse
    "file to read, or - for standard input": "要读取的文件，或用 - 表示标准输入",
    "what the text is (default: auto, find every known block in it)": "文本是什么（默认：auto，找出其中所有已知的块）",
    "output format (default: json)": "输出格式（默认：json）",
    # profiles, rules, search
    "list the bundled simulated fleets instead (fleet --sim, snapshot --sim-fleet)":
        "改为列出内置模拟集群（fleet --sim、snapshot --sim-fleet）",
    "only rules of this group (driver, cann, python, container, devices, network)":
        "只列出这一组的规则（driver、cann、python、container、devices、network）",
    "words to look for": "要查找的词",
    "how many results (default 10)": "结果条数（默认 10）",
    "what to search": "要搜索的范围",
    # snapshot
    "Record every probe's raw output and status on this machine into one versioned JSON file. Private by default: "
    "only allow-listed environment variables, serial numbers and UUIDs removed, no host name unless "
    "--include-hostname; the file is readable by you only (mode 0600).":
        "把本机每个探针的原始输出和状态记录到一个带版本号的 JSON 文件。默认保护隐私：只记录白名单中的环境变量，"
        "移除序列号和 UUID，不含主机名（除非 --include-hostname）；文件仅本人可读（权限 0600）。",
    "show what the snapshot would hold and what it leaves out, write nothing": "显示快照将包含和略去的内容，不写任何文件",
    "snapshot file to write ('-' for standard output); an existing file is kept unless --force":
        "要写入的快照文件（'-' 表示标准输出）；已有文件会保留，除非加 --force",
    "keep the host name in the snapshot": "在快照中保留主机名",
    "Python interpreter whose packages are recorded (default: the current one)": "记录其软件包的 Python 解释器（默认：当前解释器）",
    "record a bundled simulated machine instead": "改为记录一台内置模拟机器",
    "name of this node for 'ascend-doctor fleet' (kept in the snapshot; the host name is not)":
        "本节点在 'ascend-doctor fleet' 中的名字（写入快照；主机名不写入）",
    "a label for 'fleet --group-by label.KEY' (rack=r07, superpod=sp1); repeatable":
        "供 'fleet --group-by label.KEY' 使用的标签（rack=r07、superpod=sp1）；可重复",
    "write every node of a bundled simulated fleet into the directory given by -o":
        "把一个内置模拟集群的每个节点写入 -o 指定的目录",
    # tui
    "screen to open first (default: check; fleet when a fleet is given)": "首先打开的界面（默认：check；给出集群时为 fleet）",
    "add a Fleet screen comparing these snapshots (repeatable)": "增加一个比较这些快照的 Fleet 界面（可重复）",
    "add a Fleet screen comparing a bundled simulated fleet": "增加一个比较内置模拟集群的 Fleet 界面",
}
