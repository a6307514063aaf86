"""Errors a service reports to its user: each becomes one line and a documented exit code in the CLI,
a usage error in the pytest plugin, a message in the TUI.

The errors users meet most are written once in both languages (``LABELS``) and raised by key:
``UsageError(key="tui_terminal")``; ``str(error)`` is the English line, ``error.text("zh")`` the Chinese.
An error raised with a plain message (the rarer ones) shows that message in every language.
"""
from __future__ import annotations

EXIT_FINDINGS = 1      # findings at or above the threshold, or the thing asked for was not found
EXIT_USAGE = 2         # bad arguments or bad input
EXIT_INTERNAL = 3      # a bug: reported in one line (with --debug the traceback)

LABELS = {
    "en": {
        "prefix": "ascend-doctor: error: ",
        "see_help": "{prog}: {message} (see '{prog} --help')",
        "did_you_mean": "{prog}: unknown {what} {given!r}; did you mean {near!r}? (see '{prog} --help')",
        "what_command": "command", "what_choice": "choice", "what_option": "option",
        "lang": "ascend-doctor: --lang takes en or zh, not {value!r}",
        "internal": "internal error: {error} (run with --debug for details)",
        "interrupted": "interrupted",
        "output": "cannot write the output: {reason}",
        "nested": "the input is nested too deeply to read (deeper than Python's recursion limit)",
        "tui_terminal": "the TUI needs a terminal; use 'ascend-doctor check' or 'diagnose' in scripts",
        "nothing_to_diagnose": "nothing to diagnose ({why})",
        "input_empty": "the input is empty",
        "text_empty": "--text is empty: nothing to diagnose",
        "no_input": "give a log file, a directory, '-' for stdin, or --text '...'",
        "unknown_id": "unknown code or id {what!r}{hint} (try: ascend-doctor search {what!r})",
        "nearest": "; nearest known codes: {codes}",
        "explain_what": "give an error code, a problem id or a rule id",
        "search_words": "search needs some words",
        "unknown_profile": "unknown profile {name!r} (known: {known})",
        "sim_and_replay": "give --sim or --replay, not both",
        "timeout_range": "--timeout must be between 0 and 3600 seconds",
        "cannot_write": "cannot write {path}: {reason}; nothing was changed",
        "exists": "{path} exists; choose another name or add {hint} to replace it",
        "kb_unusable": "cannot use the knowledge base at {where}: {reason} (set ASCEND_DOCTOR_KB or --kb to a writable file)",
    },
    "zh": {
        "prefix": "ascend-doctor：错误：",
        "see_help": "{prog}：{message}（参见 '{prog} --help'）",
        "did_you_mean": "{prog}：未知的{what} {given!r}；是不是想输入 {near!r}？（参见 '{prog} --help'）",
        "what_command": "命令", "what_choice": "选项", "what_option": "参数",
        "lang": "ascend-doctor：--lang 只能是 en 或 zh，不能是 {value!r}",
        "internal": "内部错误：{error}（加 --debug 查看详情）",
        "interrupted": "已中断",
        "output": "无法写出结果：{reason}",
        "nested": "输入嵌套过深，无法读取（超过 Python 的递归深度限制）",
        "tui_terminal": "TUI 需要在终端中运行；脚本中请使用 'ascend-doctor check' 或 'diagnose'",
        "nothing_to_diagnose": "没有可诊断的内容（{why}）",
        "input_empty": "输入为空",
        "text_empty": "--text 为空：没有可诊断的内容",
        "no_input": "请给出日志文件、目录、'-'（标准输入）或 --text '...'",
        "unknown_id": "未知的错误码或 ID {what!r}{hint}（可尝试：ascend-doctor search {what!r}）",
        "nearest": "；最接近的已知错误码：{codes}",
        "explain_what": "请给出错误码、问题 ID 或规则 ID",
        "search_words": "search 需要搜索词",
        "unknown_profile": "未知的模拟机器 {name!r}（可选：{known}）",
        "sim_and_replay": "--sim 与 --replay 只能选一个",
        "timeout_range": "--timeout 必须在 0 到 3600 秒之间",
        "cannot_write": "无法写入 {path}：{reason}；未做任何修改",
        "exists": "{path} 已存在；请换一个文件名，或加 {hint} 覆盖",
        "kb_unusable": "无法使用位于 {where} 的知识库：{reason}（请将 ASCEND_DOCTOR_KB 或 --kb 设为可写的文件）",
    },
}


def message(key: str, lang: str = "en", **params) -> str:
    """The message ``key`` in ``lang`` (English when the language has none), filled with ``params``; a
    parameter may itself be a {"en": ..., "zh": ...} text, taken in ``lang``."""
    params = {k: (v.get(lang) or v["en"]) if isinstance(v, dict) and "en" in v else v for k, v in params.items()}
    return LABELS.get(lang, LABELS["en"]).get(key, LABELS["en"][key]).format(**params)


class DoctorError(Exception):
    """Something the user can act on (bad arguments, unreadable input, a knowledge base that cannot be used).

    ``DoctorError("text")``, ``DoctorError({"en": ..., "zh": ...})`` or ``DoctorError(key="...", **params)``
    (a message of ``LABELS``)."""

    exit_code = EXIT_USAGE

    def __init__(self, text: str | dict = "", *, key: str = "", **params):
        self.texts = text if isinstance(text, dict) else {"en": text}
        super().__init__(message(key, "en", **params) if key else self.texts["en"])
        self.key, self.params = key, params

    def text(self, lang: str = "en") -> str:
        """The line in ``lang``."""
        if self.key:
            return message(self.key, lang, **self.params)
        return self.texts.get(lang) or str(self)


class UsageError(DoctorError):
    exit_code = EXIT_USAGE


class InputError(DoctorError):
    exit_code = EXIT_USAGE


class NotFound(DoctorError):
    exit_code = EXIT_FINDINGS


class InternalError(DoctorError):
    """Shipped data that does not load (the built-in rules or knowledge): a bug of ours, exit 3."""

    exit_code = EXIT_INTERNAL
