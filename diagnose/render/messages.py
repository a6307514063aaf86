"""The sentences of the commands that have no report renderer of their own (``bundle``, ``kb export``,
``kb import``), in English and Chinese: ``message(key, lang, **values)``. Every key has both languages with
the same ``{placeholders}`` (tests/test_messages.py). Values that come from outside (paths, names) are
made visible (``console.visible``) by whoever prints the sentence."""
from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # -- output files ---------------------------------------------------------------------------------
    "output.exists": {"en": "{path} exists; choose another name or add --force to replace it",
                      "zh": "{path} 已存在；请换一个文件名，或加 --force 覆盖它"},
    "output.cannot_write": {"en": "cannot write {path}: {why}; nothing was changed",
                            "zh": "无法写入 {path}：{why}；没有做任何改动"},
    "output.is_dir": {"en": "it is a directory", "zh": "它是一个目录"},
    "output.no_folder": {"en": "the folder {folder} does not exist", "zh": "目录 {folder} 不存在"},
    "output.no_stdout": {"en": "-o -: {what} is a binary archive and is never written to standard output; give a file name",
                         "zh": "-o -：{what}是二进制归档文件，不会写到标准输出；请给出文件名"},
    # -- bundle ---------------------------------------------------------------------------------------
    "bundle.what": {"en": "a support bundle", "zh": "支持包"},
    "bundle.needs_output": {"en": "bundle needs -o FILE.tar.gz, or --preview to see what it would hold",
                            "zh": "bundle 需要 -o FILE.tar.gz，或用 --preview 查看将收集的内容"},
    "bundle.bad_limit": {"en": "--log-limit {value!r}: write a size up to 1G, such as 32M, 512K or 1G",
                         "zh": "--log-limit {value!r}：请写不超过 1G 的大小，例如 32M、512K 或 1G"},
    "bundle.wrote": {"en": "wrote {path}: {files} files, {size} compressed; {skipped} left out, {redacted} values "
                           "redacted (the manifest lists each); mode 0600",
                     "zh": "已写入 {path}：{files} 个文件，压缩后 {size}；{skipped} 项未收集，{redacted} 处已脱敏"
                           "（清单 manifest.json 逐项列出）；权限 0600"},
    "bundle.would_write": {"en": "would write {files} files, {size} before compression; mode 0600; nothing written",
                           "zh": "将写入 {files} 个文件，压缩前 {size}；权限 0600；本次未写入任何文件"},
    "bundle.collected": {"en": "Collected:", "zh": "收集的内容："},
    "bundle.left_out": {"en": "Left out:", "zh": "未收集的内容："},
    "bundle.none": {"en": "(none)", "zh": "（无）"},
    "bundle.more": {"en": "... and {n} more (the manifest lists each)", "zh": "……另有 {n} 项（清单逐项列出）"},
    "bundle.cut": {"en": "last {kept} of {total}", "zh": "仅保留最后 {kept}（共 {total}）"},
    "bundle.redacted": {"en": "Redacted in texts: {counts}", "zh": "文本中已脱敏：{counts}"},
    "bundle.env_left_out": {"en": "Environment left out of the snapshot: {names}", "zh": "快照未收录的环境变量：{names}"},
    "bundle.host_kept": {"en": "Host name: kept (--include-hostname)", "zh": "主机名：保留（--include-hostname）"},
    "bundle.host_removed": {"en": "Host name: removed", "zh": "主机名：已移除"},
    "bundle.redaction.secret_value": {"en": "environment secrets", "zh": "环境变量中的密钥"},
    "bundle.redaction.url_credentials": {"en": "credentials in URLs", "zh": "URL 中的凭据"},
    "bundle.redaction.secret_assignment": {"en": "passwords / tokens / keys", "zh": "密码、令牌或密钥"},
    "bundle.redaction.authorization": {"en": "authorisation headers", "zh": "认证头"},
    "bundle.redaction.serial_or_id": {"en": "serial numbers and ids", "zh": "序列号和标识"},
    "bundle.redaction.hostname": {"en": "host name", "zh": "主机名"},
    "bundle.reason.missing": {"en": "not there", "zh": "不存在"},
    "bundle.reason.denied": {"en": "permission denied", "zh": "无权限"},
    "bundle.reason.timeout": {"en": "no answer within the time-out", "zh": "超时未响应"},
    "bundle.reason.failed": {"en": "the command failed", "zh": "命令执行失败"},
    "bundle.reason.empty": {"en": "empty", "zh": "内容为空"},
    "bundle.reason.no_devices": {"en": "no device to query", "zh": "没有可查询的设备"},
    "bundle.reason.link": {"en": "symbolic link, not followed", "zh": "符号链接，不跟随"},
    "bundle.reason.not_regular": {"en": "not a regular file", "zh": "不是普通文件"},
    "bundle.reason.binary": {"en": "binary data", "zh": "二进制数据"},
    "bundle.reason.core_dump": {"en": "core dumps hold process memory", "zh": "core dump 含进程内存，不收集"},
    "bundle.reason.size_limit": {"en": "log size limit reached (--log-limit)", "zh": "已达日志大小上限（--log-limit）"},
    "bundle.reason.too_many": {"en": "too many files", "zh": "文件过多"},
    "bundle.reason.not_ascend": {"en": "no Ascend-related line", "zh": "没有与昇腾相关的行"},
    # -- kb export / import ---------------------------------------------------------------------------
    "kb.what": {"en": "a knowledge bundle", "zh": "知识包"},
    "kb.export.none": {"en": "no overlay file to export (kb add, kb import-faultdiag or the site folder {site} add some)",
                       "zh": "没有可导出的覆盖层文件（可用 kb add、kb import-faultdiag 或站点目录 {site} 添加）"},
    "kb.export.wrote": {"en": "wrote {path}: {n} overlay file(s): {names}",
                        "zh": "已写入 {path}：{n} 个覆盖层文件：{names}"},
    "kb.export.unknown": {"en": "no overlay named {name} (see 'ascend-doctor kb overlays')",
                          "zh": "没有名为 {name} 的覆盖层文件（见 'ascend-doctor kb overlays'）"},
    "kb.import.refused": {"en": "{why}; nothing was installed", "zh": "{why}；没有安装任何文件"},
    "kb.import.error.not_found": {"en": "no such file: {path}", "zh": "文件不存在：{path}"},
    "kb.import.error.not_archive": {"en": "{path} is not a .tar.gz knowledge bundle ({why})",
                                    "zh": "{path} 不是 .tar.gz 知识包（{why}）"},
    "kb.import.error.link": {"en": "{member} is a link; a knowledge bundle holds .toml files only",
                             "zh": "{member} 是链接；知识包只能包含 .toml 文件"},
    "kb.import.error.special": {"en": "{member} is not a regular file", "zh": "{member} 不是普通文件"},
    "kb.import.error.traversal": {"en": "{member} points outside the bundle (an absolute path or '..')",
                                  "zh": "{member} 指向知识包之外（绝对路径或 '..'）"},
    "kb.import.error.nested": {"en": "{member} is deeper than one folder", "zh": "{member} 所在目录层级超过一层"},
    "kb.import.error.not_toml": {"en": "{member} is not a .toml knowledge file", "zh": "{member} 不是 .toml 知识文件"},
    "kb.import.error.bad_name": {"en": "{member}: a file name is letters, digits, '.', '_' and '-', ending in .toml",
                                 "zh": "{member}：文件名只能由字母、数字、'.'、'_'、'-' 组成，并以 .toml 结尾"},
    "kb.import.error.duplicate": {"en": "{member} is in the bundle twice", "zh": "{member} 在知识包中出现了两次"},
    "kb.import.error.too_big": {"en": "{member} is larger than {limit} bytes", "zh": "{member} 超过 {limit} 字节"},
    "kb.import.error.too_many": {"en": "the bundle holds more than {limit} files", "zh": "知识包中的文件超过 {limit} 个"},
    "kb.import.error.not_utf8": {"en": "{member} is not UTF-8 text", "zh": "{member} 不是 UTF-8 文本"},
    "kb.import.error.empty": {"en": "{path} holds no .toml file", "zh": "{path} 中没有 .toml 文件"},
    "kb.import.invalid": {"en": "{n} problem(s) in the knowledge files of {path}, first: {first}",
                          "zh": "{path} 中的知识文件有 {n} 个问题，第一个：{first}"},
    "kb.import.cannot_write": {"en": "cannot write into {dir}: {why}", "zh": "无法写入 {dir}：{why}"},
    "kb.import.done": {"en": "imported {n} overlay file(s) into {dir}: {names}; the knowledge base is rebuilt on "
                             "the next command",
                       "zh": "已导入 {n} 个覆盖层文件到 {dir}：{names}；下一条命令运行时会重建知识库"},
    "kb.import.replaced": {"en": "replaced your overlay(s) of the same name: {names}",
                           "zh": "已替换同名的用户覆盖层文件：{names}"},
}


def message(key: str, lang: str, **values) -> str:
    texts = MESSAGES[key]
    return (texts.get(lang) or texts["en"]).format(**values)


def human_size(n: int) -> str:
    """1536 -> '1.5 KiB' (binary units, as --log-limit takes them)."""
    size = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{int(size)} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
