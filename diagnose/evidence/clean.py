"""Cleaning a log line for people and for deduplication.

``clean()`` removes what every rank, worker and retry prints differently around the same message:
ANSI colours, per-rank prefixes (``(VllmWorker rank=3 pid=12)``, ``[rank3]:``, ``[default0]:``,
``[1,3]<stderr>:``), log headers with timestamps, plog process and thread ids and carriage-return progress
updates. ``dedupe_key()`` also folds numbers that vary between ranks (pids, devices, addresses)
so that eight ranks printing the same failure become one line seen eight times.
``line_time()`` finds the timestamp, normalised so that strings sort in time order.
"""
from __future__ import annotations

import re

#: where a line holding several sentences is cut into them (a paragraph written, or re-joined, on one line)
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-Z\u3400-\u9fff])|(?<=[。；！？])")
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
#: prefixes printed per process/rank, at the start of the line (may repeat: ray + vllm)
RANK_PREFIX = re.compile(
    r"""^(?:
        \((?:[A-Za-z_][\w\-]*)(?:[ _](?:rank|TP|DP|PP|EP|pid|ip)[=\w\-.,: ]*)*(?:\s+pid=\d+)?(?:,\s*ip=[\d.]+)?\)\s*   # (VllmWorker rank=3 pid=12)
      | \[rank\s*\d+\]:?\s*                                  # [rank3]:
      | \[default\d+\]:?\s*                                  # torchrun --tee [default0]:
      | \[\d+,\d+\]<std(?:out|err)>:\s*                      # mpirun [1,3]<stderr>:
      | rank\s*\d+\s*:\s+                                    # rank 3: 
    )""", re.X)
RANK_IN = re.compile(r"(?:\brank[= ]?|\[rank|\bTP|\bDP|\[default|<std\w+>:\[?)(\d+)|\[\d+,(\d+)\]<std", re.I)
#: log headers carrying a level and a time
HEADERS = [
    # plog: [ERROR] HCCL(12345,python3):2025-08-20-10:00:00.123.456 [file.cc:123][tid], or the thread id written
    # right after the place: [api_c.cc:1097]212914 rtMemcpy:ErrCode=107030 (RUNTIME, GE, ASCENDCL, DRV)
    re.compile(r"^\[(ERROR|WARNING|INFO|DEBUG|EVENT|TRACE)\]\s+(\w+)\(\d+,[^)]*\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+\.\d+\s*(?:\[[^\]]*\])*(?:(?<=\])\d+)?\s*"),
    # vLLM: INFO 08-20 10:00:01 [file.py:123] / ERROR 2025-08-20 10:00:01 [file.py:123]
    re.compile(r"^(?:INFO|WARNING|ERROR|DEBUG|CRITICAL|WARN)\s+(?:\d{4}-)?\d\d-\d\d\s+\d\d:\d\d:\d\d(?:[.,]\d+)?\s*(?:\[[^\]]*\]\s*)?"),
    # python logging: 2025-08-20 10:00:00,123 - name - ERROR - msg / [2025-08-20 10:00:00] ... / [2025-08-20 10:00:00 TP3]
    re.compile(r"^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:\s+(?:TP|DP|PP|EP)\d+(?:\s+(?:TP|DP|PP|EP)\d+)*)?\]?\s*(?:-\s*[\w.]+\s*-\s*(?:INFO|WARNING|ERROR|DEBUG|CRITICAL)\s*-\s*)?"),
]
TIME_PATTERNS = [
    (re.compile(r"(?:19|20)\d\d-(\d\d)-(\d\d)-(\d\d):(\d\d):(\d\d)\.(\d{3})\.(\d{3})"), "plog"),
    (re.compile(r"(?:19|20)\d\d-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?"), "iso"),
    (re.compile(r"(?<![\d-])(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:[.,](\d{1,6}))?"), "md"),
]
PROGRESS = re.compile(r"\s*\d{1,3}%\s*(?:Completed\s*)?\|[^|\r\n]*\|?\s*\d+/\d+\s*\[[^\]]*\]")
VARYING = [
    (re.compile(r"0x[0-9a-fA-F]{5,}"), "0x#"),
    (re.compile(r"\b(?:pid|tid|PID|TID)\s*[=:]?\s*\d+"), "pid=#"),
    (re.compile(r"\b(rank|device|Device|deviceId|device_id|devId|logicDevId|local_rank|dev)(\s*[=:\[(]?\s*)-?\d+"), r"\1\2#"),
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"), "#ip#"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|us|sec|seconds)\b"), "#t"),
    (re.compile(r"\[\d+\]"), "[#]"),
]


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text) if "\x1b" in text else text


def last_carriage_segment(text: str) -> str:
    """A tqdm line holds every update separated by CR: keep what the terminal showed last."""
    if "\r" not in text:
        return text
    parts = [p for p in text.split("\r") if p.strip()]
    return parts[-1] if parts else ""


def strip_prefixes(text: str) -> str:
    for _ in range(3):
        m = RANK_PREFIX.match(text)
        if not m or not m.group(0):
            break
        text = text[m.end():]
    for h in HEADERS:
        m = h.match(text)
        if m and m.group(0):
            keep = f"[{m.group(1)}] {m.group(2)} " if h is HEADERS[0] else ""
            text = keep + text[m.end():]
            break
    return text


def clean(raw: str) -> str:
    text = last_carriage_segment(strip_ansi(raw)).strip()
    text = strip_prefixes(text)
    if "%" in text and "|" in text:
        text = PROGRESS.sub(" <progress>", text)
    return text.strip()


def dedupe_key(cleaned: str) -> str:
    key = cleaned
    for pat, repl in VARYING:
        key = pat.sub(repl, key)
    return " ".join(key.split())


def rank_of(raw: str) -> str:
    m = RANK_IN.search(raw[:120])
    if not m:
        return ""
    return m.group(1) or m.group(2) or ""


def line_time(raw: str) -> str:
    """``MM-DD HH:MM:SS.ffffff`` (the year is dropped: vLLM headers do not print it), or ""."""
    head = raw[:120]
    for pat, kind in TIME_PATTERNS:
        m = pat.search(head)
        if not m:
            continue
        if kind == "plog":
            mo, d, h, mi, s, ms, us = m.groups()
            frac = ms + us
        else:
            mo, d, h, mi, s, frac = m.groups()
            frac = (frac or "").ljust(6, "0")
        if not ("01" <= mo <= "12" and "01" <= d <= "31" and h <= "23"):
            continue
        return f"{mo}-{d} {h}:{mi}:{s}.{frac}"
    return ""


#: issue-tracker tags in titles (vLLM-Ascend's [Bug]:, [Usage]:, Chinese 【问题】) and Markdown heading marks;
#: other bracketed text ([rank0]:, [ERROR], [bold]) is not a tag
ISSUE_TAG = re.compile(
    r"^\s*(?:\[(?:bug|usage|feature|performance|installation|install|doc|docs|misc|rfc|new model|question|help|"
    r"enhancement|ci|bugfix|model|hardware|npu|ascend|issue|accuracy|feature request|bug report)[^\]\n]{0,20}\]\s*:?\s*"
    r"|【[^】]{1,12}】\s*|#{1,3}\s+)+", re.I)


#: the label of a field of a GitHub / Gitee issue form ("### Operating System Version| 操作系统版本",
#: "### Python version"), a template's heading written in bold ("**Describe the bug/ 问题描述 (Mandatory / 必填)**",
#: "- **Hardware Environment(`Ascend`/`GPU`/`CPU`) / 硬件环境**:") and its check boxes ("- [X] I have read the
#: README and searched the existing issues."): the template's words, the same in every report, not the user's
FORM_LABEL = re.compile(r"^\s*(?:#{3,6}\s+(?=\S)(?:[^|｜]{1,60}\s*[|｜]\s*[^|｜]{1,40}|.{1,60})"
                        r"|(?:[-*+]\s+)?\*\*[^*\n]{1,100}\*\*\s*[:：]?"
                        r"|[-*]\s+\[[ xX]\]\s.{0,200})\s*$")

def strip_issue_tags(line: str) -> str:
    """``[Bug]: NPU OOM ...`` / ``【问题】…`` / ``### Title`` -> the words after the tag."""
    return ISSUE_TAG.sub("", line).strip()
