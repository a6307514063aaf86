"""Why a piece of evidence counts for a finding, in the user's language (the ``detail`` of a FindingEvidence and
the notes that confirm a cause or make it unlikely)."""
from __future__ import annotations

LABELS = {
    "en": {
        "signature": "matches the KB signature '{literal}'",
        "near_signature": "nearly matches the KB signature '{literal}' ({share} of its words; another version's wording?)",
        "code": "{code} ({family}) links {n} known problem(s)",
        "catch_all": "; a catch-all code: its message decides",
        "code_name": "{name} is {code} ({family}), which links {n} known problem(s)",
        "symptom_like": "like '{phrase}' ({score:.0f})",
        "words": "its words: {terms}",
        "words_agree": " ({n} sentences agree)",
        "words_together": "the report's words together: {terms}",
        "names": "names {ident}",
        "check_here": "'ascend-doctor check' finds it on this machine ({rule})",
        "check_text": "what the report states (versions, hardware, its container command) fails the check {rule}",
        "hardware": "the problem concerns {hardware}",
        "other_hardware": "hardware.family = {family}, the problem concerns {hardware}",
        "other_stack": "the report names {stacks}; the problem concerns {own}",
        "confirm_holds": "confirm_when holds",
        "rule_out_holds": "rule_out_when holds",
        "outside_versions": "the problem concerns other versions: {versions}",
        "inside_versions": "the versions are the pair the problem concerns: {versions}",
        "tie": "ties with {other} ({score:.2f}): the evidence does not tell them apart",
        "stall_end": "the log ends here: no progress after {percent}% ({done}/{total})",
        "stall_never": "this bar never gets past {percent}% ({done}/{total}); nothing later continues it",
        "stall_bar": "{where}; stalled bar '{phrase}'",
        "also": "{detail}; {kind}: {more}",
        "check_line": "{rule} {status}: {message}",
        "status.FAIL": "FAIL", "status.WARN": "WARN",
        # the kinds of evidence
        "kind.signature": "signature", "kind.code": "code", "kind.symptom": "symptom", "kind.stall": "stall",
        "kind.fact": "fact",
    },
    "zh": {
        "signature": "符合知识库中的日志特征 '{literal}'",
        "near_signature": "与知识库中的日志特征 '{literal}' 相近（包含其 {share} 的词；可能是其他版本的措辞）",
        "code": "{code}（{family}）关联 {n} 个已知问题",
        "catch_all": "；这是通用错误码，要看其报错信息",
        "code_name": "{name} 即 {code}（{family}），关联 {n} 个已知问题",
        "symptom_like": "与现象 '{phrase}' 相似（{score:.0f}）",
        "words": "关键词：{terms}",
        "words_agree": "（{n} 句一致）",
        "words_together": "报告中的关键词合起来：{terms}",
        "names": "提到了 {ident}",
        "check_here": "本机的 'ascend-doctor check' 发现此问题（{rule}）",
        "check_text": "报告中给出的信息（版本、硬件、容器启动命令）不满足检查 {rule}",
        "hardware": "该问题涉及 {hardware}",
        "other_hardware": "hardware.family = {family}，而该问题涉及 {hardware}",
        "other_stack": "报告提到的是 {stacks}，而该问题涉及 {own}",
        "confirm_holds": "满足 confirm_when 条件",
        "rule_out_holds": "满足 rule_out_when 条件",
        "outside_versions": "该问题针对的是其他版本：{versions}",
        "inside_versions": "版本正是该问题所涉及的组合：{versions}",
        "tie": "与 {other} 得分相同（{score:.2f}）：现有证据无法区分二者",
        "stall_end": "日志到此结束：进度停在 {percent}%（{done}/{total}）之后",
        "stall_never": "此进度条从未超过 {percent}%（{done}/{total}），之后也没有继续",
        "stall_bar": "{where}；停住的进度条 '{phrase}'",
        "also": "{detail}；{kind}：{more}",
        "check_line": "{rule} {status}：{message}",
        "status.FAIL": "失败", "status.WARN": "警告",
        "kind.signature": "日志特征", "kind.code": "错误码", "kind.symptom": "现象", "kind.stall": "进度停滞",
        "kind.fact": "环境信息",
    },
}


def say(key: str, lang: str, **params) -> str:
    """The reason ``key`` in ``lang`` (English when there is no such language), filled with ``params``."""
    table = LABELS.get(lang, LABELS["en"])
    return table.get(key, LABELS["en"][key]).format(**params)


def kind_word(kind: str, lang: str) -> str:
    """``signature``, ``code``, ... in ``lang``."""
    return LABELS.get(lang, LABELS["en"]).get(f"kind.{kind}", kind)
