"""``find_blocks(text)``: the known tool outputs inside surrounding text.

An issue body, a terminal log or a collect_env dump holds npu-smi tables, ``npu-smi info -t ...``
outputs, version files, DCMI messages and collect_env sections between other lines. Each block found
is parsed by its parser; line numbers are 1-based and inclusive.

    for b in find_blocks(issue_body):
        b.kind, b.start_line, b.end_line, b.result   # result: ParseResult
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import collect_env, container_run, dcmi, npu_smi_info, npu_smi_query, os_info
from .base import ParseResult, unparsed


@dataclass(frozen=True)
class Block:
    kind: str
    start_line: int     # 1-based, inclusive
    end_line: int       # 1-based, inclusive
    result: ParseResult

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "start_line": self.start_line, "end_line": self.end_line,
                **{k: v for k, v in self.result.to_dict().items() if k != "kind"}}


_COLON = re.compile(r"^\s*[A-Za-z\[][A-Za-z0-9 ()%/_.+\]-]*?\s*:(?!//).*$")
_EQ = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_.-]*\s*=.*$")
_PIP = re.compile(r"^\s*\[(?:pip3?|conda)\]\s")


def _safe(fn, text: str, kind: str) -> ParseResult:
    try:
        return fn(text)
    except Exception as exc:  # noqa: BLE001
        return unparsed(kind, f"parser error: {type(exc).__name__}: {exc}")


def _classify_colon(keys: set[str]) -> str | None:
    k = {x.lower() for x in keys}
    if "health status" in k:
        return "npu-smi-health"
    if k & {"pytorch version", "python platform", "vllm ascend version", "vllm version", "python version"}:
        return "collect-env"
    if any("single bit error count" in x for x in k):
        return "npu-smi-ecc"
    if "aicore freq(mhz)" in k or "aicore curfreq(mhz)" in k:
        return "npu-smi-common"
    if k & {"software version", "compatibility", "chip type", "firmware version"} or (
            "chip name" in k and "npu id" in k):
        return "npu-smi-board"
    if k & {"hbm clock speed(mhz)", "ddr clock speed(mhz)"}:
        return "npu-smi-memory"
    if k & {"ddr hugepages total(page)", "aicpu usage rate(%)", "ctrlcpu usage rate(%)"}:
        return "npu-smi-usages"
    if k & {"ascend-cann-atb", "ascend-cann-atb version"}:
        return "nnal-version-info"
    if k & {"ascend-mindie", "atb-models version"} or any(x.startswith("mindie-") for x in k):
        return "mindie-version-info"
    return None


def _classify_eq(keys: set[str]) -> str | None:
    low = {x.lower() for x in keys}
    if "compatible_version_drv" in low:
        return "firmware-version-info"
    if "version" in low and low & {"ascendhal_version", "compatible_version_fw"}:
        return "driver-version-info"
    if "package_name" in low and "version" in low or {"innerversion", "version", "arch"} <= low:
        return "toolkit-install-info"
    if any(x.startswith(("driver_", "firmware_")) for x in low) or "username" in low:
        return "ascend-install-info"
    if "version_dir" in low or any(x.startswith("required_package_") for x in low):
        return "cann-version-info"
    if any(re.fullmatch(r"\w+_running_version", x) for x in low):
        return "cann-version-cfg"
    if {"id", "name"} & low and ({"version_id", "pretty_name"} & low):
        return "os-release"
    return None


def _runs(lines: list[str], is_line, used: list[bool], allow_blank: bool,
          skip=lambda s: False) -> list[tuple[int, int]]:
    """Maximal runs of lines accepted by ``is_line`` (blank lines inside a run when ``allow_blank``)."""
    runs = []
    i, n = 0, len(lines)
    while i < n:
        if used[i] or not is_line(lines[i]):
            i += 1
            continue
        start = end = i
        j = i + 1
        while j < n and not used[j]:
            s = lines[j]
            if is_line(s):
                end = j
            elif skip(s) or (allow_blank and not s.strip()):
                pass
            else:
                break
            j += 1
        runs.append((start, end))
        i = end + 1
    return runs


def find_blocks(text: str) -> list[Block]:
    """All known blocks in ``text``, in order of their first line. Never raises."""
    try:
        return _find(text)
    except Exception:  # noqa: BLE001 - last resort: a bug here must not break a diagnosis
        return []


#: words (lower case) one of which the text holds whenever a step of ``_find`` can add a block: a step whose
#: words are all absent is skipped (a 1 MiB head of plain log lines otherwise costs ~0.25 s of regexes)
_GATES = {
    "npu-smi-info": ("npu-smi", "health", "0000:"),          # TITLE, a header with NPU ... Health, or bare rows (bus id)
    "npu-smi-map": ("chip logic id",),
    "dcmi": ("dcmi", "-80", "npu-smi"),                       # RET, ANY_RET, NOT_FOUND / IS_DIR
    "collect-env": tuple(m.lower() for m in collect_env.MARKERS),
    "colon": ("health status", "pytorch version", "python platform", "vllm ascend version", "vllm version",
              "python version", "single bit error count", "aicore freq(mhz)", "aicore curfreq(mhz)",
              "software version", "compatibility", "chip type", "firmware version", "chip name",
              "hbm clock speed(mhz)", "ddr clock speed(mhz)", "ddr hugepages total(page)", "aicpu usage rate(%)",
              "ctrlcpu usage rate(%)", "ascend-cann-atb", "ascend-mindie", "atb-models version", "mindie-"),
    "eq": ("compatible_version_drv", "ascendhal_version", "compatible_version_fw", "package_name", "innerversion",
           "driver_", "firmware_", "username", "version_dir", "required_package_", "_running_version",
           "version_id", "pretty_name"),
    "uname": ("linux",),
    "container-run": ("docker", "podman", "nerdctl"),
}


_GATE_WORDS: Any = None     # an automaton over every word of _GATES, made on first use


def _steps(text: str) -> set[str]:
    """The steps of ``_find`` that may find something in ``text`` (lower-cased as re.IGNORECASE compares)."""
    global _GATE_WORDS
    import ahocorasick_rs

    low = text.lower()
    if not low.isascii():
        low = low.replace("\u0131", "i").replace("\u017f", "s")
    if _GATE_WORDS is None:
        _GATE_WORDS = ahocorasick_rs.AhoCorasick(sorted({w for words in _GATES.values() for w in words}))
    found = set(_GATE_WORDS.find_matches_as_strings(low, overlapping=True))
    return {step for step, words in _GATES.items() if not found.isdisjoint(words)}


def _find(text: str) -> list[Block]:
    from . import PARSERS          # the package imports this module: look its table up at call time

    steps = _steps(text)
    if not steps:
        return []
    lines = text.splitlines()
    used = [False] * len(lines)
    blocks: list[Block] = []

    def add(kind: str, start: int, end: int, result: ParseResult) -> None:
        for k in range(start, end + 1):
            used[k] = True
        blocks.append(Block(kind, start + 1, end + 1, result))

    # 1. npu-smi info tables
    i = 0 if "npu-smi-info" in steps else len(lines)
    while True:
        h = npu_smi_info.find_table_start(lines, i)
        if h is None:
            break
        start = h - 1 if h > 0 and npu_smi_info.BORDER.match(lines[h - 1].strip()) else h
        end = npu_smi_info.table_end(lines, h)
        add(npu_smi_info.KIND, start, end, _safe(npu_smi_info.parse, "\n".join(lines[start:end + 1]),
                                                 npu_smi_info.KIND))
        i = end + 1
    # 2. npu-smi info -m
    i = 0 if "npu-smi-map" in steps else len(lines)
    while True:
        h = npu_smi_query.find_map_header(lines, i)
        if h is None:
            break
        end = h
        while end + 1 < len(lines) and re.match(r"^\s*\d+\s{2,}\d+\s{2,}", lines[end + 1]):
            end += 1
        if not used[h]:
            add("npu-smi-map", h, end, _safe(npu_smi_query.parse_map, "\n".join(lines[h:end + 1]), "npu-smi-map"))
        i = end + 1
    # 3. DCMI failures (one line each)
    for n, line in enumerate(lines if "dcmi" in steps else ()):
        if not used[n] and (dcmi.RET.search(line) or dcmi.ANY_RET.search(line) or dcmi.IS_DIR.search(line)
                            or dcmi.NOT_FOUND.search(line)):
            add(dcmi.KIND, n, n, _safe(dcmi.parse, line, dcmi.KIND))
    # 4. "[pip3] x==y" and collect_env "ENV Variables:" sections
    for s, e in _runs(lines if "collect-env" in steps else [], lambda ln: bool(_PIP.match(ln) or collect_env.LINE.match(ln.strip())), used, allow_blank=True):
        if not any(lines[k].strip().startswith(collect_env.MARKERS) for k in range(s, e + 1)):
            continue
        add(collect_env.KIND, s, e, _safe(collect_env.parse, "\n".join(lines[s:e + 1]), collect_env.KIND))
    for n, line in enumerate(lines if "collect-env" in steps else ()):
        if not used[n] and line.strip() == "ENV Variables:":
            e = n
            while e + 1 < len(lines) and collect_env.ENV.match(lines[e + 1].strip()):
                e += 1
            add(collect_env.KIND, n, e, _safe(collect_env.parse, "\n".join(lines[n:e + 1]), collect_env.KIND))
    # 5. "Key : value" runs
    for s, e in _runs(lines if "colon" in steps else [], lambda ln: bool(_COLON.match(ln)), used, allow_blank=True):
        chunk = lines[s:e + 1]
        keys = {ln.split(":", 1)[0].strip() for ln in chunk if ":" in ln}
        kind = _classify_colon(keys)
        if kind is None:
            continue
        add(kind, s, e, _safe(PARSERS[kind], "\n".join(chunk), kind))
    # 6. "key=value" runs (version files, os-release, CANN: section)
    for s, e in _runs(lines if "eq" in steps else [], lambda ln: bool(_EQ.match(ln)), used, allow_blank=False,
                      skip=lambda ln: ln.strip().startswith("# version")):
        chunk = lines[s:e + 1]
        keys = {ln.split("=", 1)[0].strip() for ln in chunk if "=" in ln}
        kind = _classify_eq(keys)
        if kind is None:
            continue
        if s > 0 and lines[s - 1].strip().startswith("# version"):
            s -= 1
        add(kind, s, e, _safe(PARSERS[kind], "\n".join(lines[s:e + 1]), kind))
    # 7. uname -a
    for n, line in enumerate(lines if "uname" in steps else ()):
        if not used[n] and os_info.UNAME.match(line):
            add("uname", n, n, _safe(os_info.parse_uname, line, "uname"))
    # 8. collect_env head ("PyTorch version: ...") already came through 5
    # 9. a docker / podman / nerdctl run command (with its continuation lines)
    for s, e, col in container_run.find(lines) if "container-run" in steps else ():
        if not any(used[s:e + 1]):
            add(container_run.KIND, s, e, _safe(container_run.parse, "\n".join([lines[s][col:], *lines[s + 1:e + 1]]),
                                                container_run.KIND))
    blocks.sort(key=lambda b: (b.start_line, b.end_line))
    return blocks
