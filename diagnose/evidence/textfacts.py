"""Facts found inside pasted text: tool outputs (npu-smi tables, collect_env, version files, DCMI
messages; parsed by ``ascend_doctor.diagnose.parsers.find_blocks``) and version strings written
in prose (``CANN 8.3.RC1``, ``torch_npu 2.7.1``, ``vllm-ascend v0.9.1``, ``transformers==4.51.3``, ``驱动 25.5.0``).

Every fact's source is ``text:<input>:<line>``. Keys follow docs/facts.md.
"""
from __future__ import annotations

import bisect
import heapq
import re
from itertools import accumulate
from typing import Any, Iterator

import ahocorasick_rs

from ascend_doctor.kb.language.facts import Fact

VERSION = r"v?(\d+\.\d+(?:\.(?:RC\d+|rc\d+|\d+|T\d+))?(?:\.(?:alpha|beta|rc|post|dev|b|B)?\d+)*(?:rc\d+)?(?:\+[\w.]+)?)"
#: what may stand between a name and its version: "torch_npu==2.5.1", "torch_npu 版本 2.5.1", "vllm-ascend
#: version: 0.9.1", "torch_npu版本为2.5.1", in a package's file name "torch_npu-2.5.1.post1-cp310-...whl", and a dash
#: before a version that Chinese follows ("triton-ascend-3.2.0版本")
SAID = (r"\s*(?:[:=：]|==|version:?|版本(?:号)?\s*(?:为|是)?\s*[:：]?|-(?=v?\d[\w.+]*(?:\s|$|[,;)，、]|-(?:cp|py)\d|\.whl)"
        r"|v?\d[\d.]*(?:rc\d+|\.post\d+)?[\u4e00-\u9fff]))?\s*")
#: a word boundary that Chinese does not break: "昇腾910B上部署", "驱动24.1.rc2版本" (a Chinese character is a word
#: character to \w, so \b and (?<![\w.]) would not see these names and versions)
NOT_BEFORE = r"(?<![A-Za-z0-9_.])"
NOT_AFTER = r"(?![A-Za-z0-9_.])"
PROSE_VERSIONS = [
    # (8.3rc2 / 8.3RC2 as people write 8.3.RC2) and its packages' file names: Ascend-cann-toolkit_8.2.RC1_linux-aarch64.run,
    # Ascend-cann-kernels-910b_8.0.RC2_linux.run, Atlas-A3-cann-kernels_8.1.RC1_linux-aarch64.run
    ("cann.version", re.compile(r"(?<![A-Za-z0-9])CANN(?:[ _-]?(?:toolkit|版本|version)|-kernels(?:-\w+)?)?(?:\s*[:=：]?\s*|[_-])"
                                r"(?:版本\s*)?v?(\d+\.\d+(?:(?:\.(?:RC\d+|\d+(?:RC\d+)?)|\.?RC\d+)(?:[.-](?:alpha|beta)\.?\d+)?|(?![A-Za-z0-9_]|\.\d)))", re.I)),
    ("pkg.torch_npu", re.compile(NOT_BEFORE + r"torch[_-]npu" + SAID + VERSION, re.I)),
    ("pkg.torch", re.compile(NOT_BEFORE + r"(?:torch|pytorch)(?![_-]npu|[A-Za-z_])" + SAID + VERSION, re.I)),
    # written with a space too ("vLLM Ascend v0.13.0"), and its images' tags alone ("v0.11.0rc0-310p拉起qwen vl报错"): a
    # version with -310p / -a3 right after it
    # is vLLM-Ascend's naming of its hardware variants (quay.io/ascend/vllm-ascend:v0.10.0rc1-310p)
    ("pkg.vllm_ascend", re.compile(NOT_BEFORE + r"(?:vllm[_\- ]?ascend" + SAID + r"|(?=v\d+\.\d+\.\d+(?:rc\d+)?"
                                   r"-(?:310p|a3)" + NOT_AFTER + r"))" + VERSION, re.I)),
    ("pkg.vllm", re.compile(NOT_BEFORE + r"vllm(?![_\- ]?ascend|[A-Za-z_])" + SAID + VERSION, re.I)),
    ("pkg.sglang", re.compile(NOT_BEFORE + r"sglang" + SAID + VERSION, re.I)),
    ("pkg.triton_ascend", re.compile(NOT_BEFORE + r"triton[_-]ascend" + SAID + VERSION, re.I)),
    ("pkg.transformers", re.compile(NOT_BEFORE + r"transformers" + SAID + VERSION, re.I)),
    ("pkg.numpy", re.compile(NOT_BEFORE + r"numpy" + SAID + VERSION, re.I)),
    # MindSpore 1.x shipped its Ascend build as mindspore-ascend (mindspore_ascend-1.8.1-cp37-...whl); 2.x is mindspore
    ("pkg.mindspore", re.compile(NOT_BEFORE + r"mindspore(?:[_-]ascend)?(?![_-]lite|[A-Za-z_])" + SAID + VERSION, re.I)),
    # stated as the Python version ('Python版本: 3.9.10', 'Python version (e.g., Python 3.7.5): 3.9'); never a path's
    # python3.11, which may be another interpreter than the one the job runs
    ("python.version", re.compile(r"(?<![A-Za-z0-9_./])Python\s*(?:version|版本)\s*(?:\([^)]*\))?\s*[:=：]\s*v?(\d\.\d{1,2}(?:\.\d+)?)"
                                  + NOT_AFTER, re.I)),
    ("mindie.version", re.compile(r"\bMindIE\s*(?:[:=：]|version:?)?\s*v?(\d+\.\d+\.(?:RC\d+|T\d+|\d+)(?:\.\w+)?)", re.I)),
    # and the driver package's file name: Ascend-hdk-910b-npu-driver_24.1.rc2_linux-aarch64.run
    ("driver.version", re.compile(r"(?:(?<![A-Za-z0-9])(?:driver|HDK)|驱动)\s*(?:version|版本)?\s*(?:为|是)?\s*[:=：_]?\s*v?"
                                  r"(\d{2}\.\d+(?:\.(?:rc\d+|RC\d+|\d+|[xX]))?(?:\.[A-Za-z0-9]+)?)(?![A-Za-z0-9.])", re.I)),
    ("firmware.version", re.compile(r"(?:(?<![A-Za-z0-9])firmware|固件)\s*(?:version|版本)?\s*[:=：_]?\s*v?(\d+\.\d+\.\d+\.\d+\.\d+)", re.I)),
    # "Linux 6.6.0" is the kernel a report names (as uname -sr prints it); a distribution's name comes before its own
    # version ("Ubuntu 22.04"), never "Linux" right before it
    ("kernel.release", re.compile(r"(?:\bkernel|内核|uname -r\W*|(?<![A-Za-z])Linux(?=\s+(?:version\s+)?\d+\.\d+\.\d+))\s*(?:version|版本)?\s*[:=：]?\s*"
                                  r"(\d+\.\d+\.\d+-[\w.\-]+|\d+\.\d+(?:\.\d+)?)" + NOT_AFTER, re.I)),
]
#: a version a report names as what is required or what the user moved to, not what is installed ("requires
#: torch==2.7.1, but you have torch 2.8.0", "切换到MindSpore 2.3.1正常", "needs CANN 8.5.0 or newer"): such a
#: mention is the fact only when the report names no other version of the same thing
REQUIRED_BEFORE = re.compile(
    r"(?:\brequires?|\brequired|\bneeds?|\b(?:upgrad|downgrad|switch|chang|mov)(?:e|ed|es|ing)?\s+to|\binstead of|"
    r"\brecommend(?:s|ed)?|切换[到为至成]|升级[到为至成]|降级[到为至成]|换成|换到|改为|改用|需要|要求|依赖|建议|推荐|>=|≥)"
    r"[\s:：]*(?:\S{0,24}\s+)?$", re.I)
#: the words before a product a report says it moved its work to: that is the hardware it runs on now
MOVED_TO = re.compile(r"(?:迁移[到至]|迁[到至]|移植[到至]|换[到成]|切换[到至成]|改[到用]|\b(?:migrat|mov|port|switch)(?:e|ed|es|ing)?\s+to"
                      r"|\bfrom\s+[^,;.]{1,30}?\s+to|\bon the new)[\s:：]*(?:the\s+)?(?:(?:Atlas|Ascend|昇腾|华为)[\s-]*)?$", re.I)
REQUIRED_AFTER = re.compile(r"\s*(?:及以上|或以上|以上|或更高|及更高|or (?:newer|later|above|higher)|and (?:above|later|newer)|\+(?![\w.]))", re.I)
PRODUCT = [  # the most specific first: "Atlas 200I DK A2" is a 310B board, not an A2
    (re.compile(NOT_BEFORE + r"(?:Atlas\s*)?(?:200I\s*(?:DK\s*)?A2|(?:Ascend\s*)?310B\d?|Orange\s*Pi\s*AI\s*Pro)" + NOT_AFTER
                + r"|香橙派", re.I), "310b"),   # Orange Pi in Chinese, whatever follows ("香橙派aipro20T24G")
    (re.compile(NOT_BEFORE + r"(?:Ascend\s*)?(?:950(?:PR|DT)?|A5)" + NOT_AFTER, re.I), "950"),
    (re.compile(NOT_BEFORE + r"(?:800I\s*A3|800T\s*A3|A3|(?:Ascend\s*)?910_?93\d*|910C)" + NOT_AFTER, re.I), "a3"),
    (re.compile(NOT_BEFORE + r"(?:800[IT]\s*A2|A2|(?:Ascend\s*)?910B\d?)" + NOT_AFTER, re.I), "a2"),
    (re.compile(NOT_BEFORE + r"(?:300I\s*(?:Duo|Pro)|(?:Ascend\s*)?310P\d?)" + NOT_AFTER, re.I), "310p"),
    (re.compile(NOT_BEFORE + r"(?:Atlas\s*800\s*9000|Atlas\s*300T(?!\s*A2)|(?:Ascend\s*)?910(?:ProA|ProB|PremiumA|A)?)" + NOT_AFTER, re.I), "910"),
    (re.compile(NOT_BEFORE + r"(?:Ascend\s*310|Atlas\s*300I\s*(?:3000|3010))" + NOT_AFTER, re.I), "310"),
]
#: how a pasted report shows that it ran inside a container (``container.kind``, docs/facts.md)
CONTAINER = [
    (re.compile(r"(?:^|[\s$#>])(?:sudo\s+)?docker\s+(?:run|exec|start|create)\b"), "docker"),
    (re.compile(r"(?:^|[\s$#>])(?:sudo\s+)?podman\s+(?:run|exec|start|create)\b"), "podman"),
    (re.compile(r"(?:^|[\s$#>])(?:sudo\s+)?nerdctl\s+(?:run|exec|start|create)\b"), "containerd"),
    (re.compile(r"\bkubectl\s+(?:exec|run|apply|logs)\b|\bhuawei\.com/Ascend"), "kubernetes"),
    (re.compile(r"容器[内中里]|\b(?:in|inside) (?:the |a |my |this )?(?:docker )?container\b", re.I), "unknown-container"),
]

#: words (lower case) one of which every match of a PROSE_VERSIONS / PRODUCT / CONTAINER pattern holds: a
#: pattern is run only on the lines holding one of its words (a 1 MiB head of plain log lines costs ~0.4 s of
#: regex searches otherwise)
GATES = {
    "cann.version": ("cann",), "pkg.torch_npu": ("torch",), "pkg.torch": ("torch",),
    "pkg.vllm_ascend": ("vllm", "-310p", "-a3"), "pkg.vllm": ("vllm",), "pkg.sglang": ("sglang",),
    "pkg.triton_ascend": ("triton-ascend", "triton_ascend"),
    "mindie.version": ("mindie",), "python.version": ("python",),
    "pkg.transformers": ("transformers",), "pkg.numpy": ("numpy",), "pkg.mindspore": ("mindspore",),
    "driver.version": ("driver", "hdk", "驱动"), "firmware.version": ("firmware", "固件"),
    "kernel.release": ("kernel", "内核", "uname -r", "linux"),
    "a3": ("a3", "910_93", "91093", "910c"), "a2": ("a2", "910b"), "310p": ("300i", "310p"),
    "310b": ("200i", "310b", "orange", "香橙派"), "950": ("950", "a5"), "910": ("910", "9000", "300t"),
    "310": ("310", "300i"),
    "container": ("docker", "podman", "nerdctl", "kubectl", "huawei.com/ascend", "容器", "container"),
    "env": ("export", "env ", "environ"),
}


_GATE_WORDS = ahocorasick_rs.AhoCorasick(sorted({w for words in GATES.values() for w in words}))


#: narrower than GATES where a word is common in logs that cannot hold the fact: every "(VllmWorker rank=0 ...)"
#: line holds "vllm", while pkg.vllm's pattern needs what SAID or VERSION may start with right after the name;
#: pkg.vllm_ascend's needs the whole name (or an image tag's -310p / -a3). Searched in the folded text.
LINE_GATES = {
    "pkg.vllm": (re.compile(r"vllm(?=[\s:=：v版0-9-])"),),
    "pkg.vllm_ascend": ("vllm-ascend", "vllm_ascend", "vllm ascend", "vllmascend", "-310p", "-a3"),
}


#: a variable the report sets for its run (``env.<NAME>``, docs/facts.md): a shell ``export`` (also as ``set -x``
#: prints it), a Dockerfile ``ENV``, Python's ``os.environ[...] =``; never a commented-out line
SETS_ENV = [
    re.compile(r"^\s*(?:\++\s*)?export\s+([A-Z][A-Z0-9_]*[A-Z0-9])=(.*)$"),
    re.compile(r"^\s*ENV\s+([A-Z][A-Z0-9_]*[A-Z0-9])(?:=|\s+)(.*)$"),
    re.compile(r"^\s*os\.environ\[\s*[\"']([A-Z][A-Z0-9_]*[A-Z0-9])[\"']\s*\]\s*=\s*(.*)$"),
]
#: a value the text does not give: another variable, a command's output, a placeholder ("<your ip>", "xxx")
UNRESOLVED = re.compile(r"[$`<>{}]|^x{2,}$|^\.\.\.$", re.I)


def _env_value(raw: str) -> "str | None":
    """The value of an assignment's right-hand side as the shell would set it, or None when the text does not
    give it (see UNRESOLVED)."""
    raw = raw.strip()
    if raw[:1] in ("'", '"'):
        end = raw.find(raw[0], 1)
        if end < 0:
            return None
        value = raw[1:end]
    else:
        value = re.split(r"\s|;|&&|\|", raw, 1)[0]
    return None if not value or UNRESOLVED.search(value) else value


def _env_facts(name: str, lines: "_Lines", out: dict[str, Fact]) -> None:
    """``env.<NAME>`` of the variables the text sets (the last setting of each wins, as in a shell), unless a tool
    output already gave it (a container's -e)."""
    last: dict[str, tuple[int, str]] = {}
    for i in lines.holding(GATES["env"]):
        line = lines.lines[i]
        if len(line) > MAX_PROSE_LINE:
            continue
        for pat in SETS_ENV:
            m = pat.match(line)
            if m:
                value = _env_value(m.group(2))
                if value is not None:
                    last[m.group(1)] = (i + 1, value)
                break
    for var, (lineno, value) in last.items():
        out.setdefault(f"env.{var}", Fact(f"env.{var}", value, source=_src(name, lineno)))


def _gate_words(low: str) -> set[str]:
    """The words of GATES that occur in ``low``."""
    return set(_GATE_WORDS.find_matches_as_strings(low, overlapping=True))


def _folded(text: str) -> str:
    """``text`` lower-cased the way re.IGNORECASE compares: it also takes 'ı' for 'i' and 'ſ' for 's'."""
    low = text.lower()
    if not low.isascii():
        low = low.replace("ı", "i").replace("ſ", "s")
    return low


MAX_TOOL_LINE = 2000
MAX_PROSE_LINE = 2000      # longer lines are not read for prose facts


def _src(name: str, line: int) -> str:
    return f"text:{name}:{line}"


def _block_facts(name: str, block, out: dict[str, Fact]) -> None:
    r = block.result
    src = _src(name, block.start_line)
    if not r.ok or not r.value:
        return
    v: dict[str, Any] = r.value
    kind = block.kind

    def put(key: str, value: Any) -> None:
        if value not in (None, "", [], {}):
            out.setdefault(key, Fact(key, value, source=src))

    if kind == "npu-smi-info":
        put("npu_smi.info", v)
        devs = v.get("devices") or []
        put("npu.devices", devs)
        if devs:
            put("npu.count", len(devs))
            name0 = next((d.get("name") for d in devs if d.get("name")), "")
            put("npu.chip_name", name0)
            if name0:
                # the probes' mapping, so a table means the same pasted as probed (it reads an A3 table's
                # two dies under one NPU id as A3, where the bare chip name "Ascend910" alone says nothing)
                from ..probes.derived import family_of

                put("hardware.family", family_of(name0, devs, v.get("layout")))
            put("npu.health", [{"npu_id": d.get("npu_id"), "chip_id": d.get("chip_id"), "health": d.get("health")} for d in devs])
        put("npu.processes", v.get("processes"))
        put("driver.version", v.get("driver_version"))
    elif kind == "collect-env":
        for pkg, ver in (v.get("packages") or {}).items():
            put(f"pkg.{pkg}", ver)
        for k, val in (v.get("env") or {}).items():
            put(f"env.{k}", val)
        put("kernel.release", v.get("kernel_release"))
        put("arch", v.get("arch"))
        put("python.version", v.get("python_version"))
        if isinstance(v.get("cann"), dict):
            put("cann.version", v["cann"].get("version"))
        if isinstance(v.get("npu_smi"), dict):
            _block_facts(name, type(block)("npu-smi-info", block.start_line, block.end_line,
                                           type(r)("npu-smi-info", value=v["npu_smi"])), out)
    elif kind == "toolkit-install-info":
        put("cann.version", v.get("version"))
        put("cann.layout", v.get("layout"))
    elif kind == "driver-version-info":
        put("driver.version", v.get("version"))
    elif kind == "firmware-version-info":
        put("firmware.version", v.get("version"))
    elif kind == "nnal-version-info":
        put("nnal.atb.version", v.get("version"))
    elif kind == "mindie-version-info":
        put("mindie.version", v.get("version"))
    elif kind == "dcmi-error":
        put("npu_smi.dcmi_error", v.get("code"))
    elif kind in ("npu-smi-board",):
        put("npu.compatibility", v.get("compatibility"))
        put("firmware.version", v.get("firmware_version"))
        put("driver.version", v.get("software_version"))
    elif kind == "uname":
        put("kernel.release", v.get("release"))
        put("arch", v.get("arch"))
    elif kind == "container-run":
        _container_run_facts(v, put)


#: /dev/shm of a container started without --shm-size or --ipc (docker, podman and nerdctl alike)
DEFAULT_SHM = 64 << 20


def _container_run_facts(v: dict[str, Any], put) -> None:
    """What a pasted run command gives the container, as the probes inside it would find it: its device
    nodes and driver mounts (unless the Ascend Docker Runtime may add them, or --privileged gives every
    device), /dev/shm, the environment it sets."""
    from ..parsers.container_run import RUNTIME_ENV
    from ..probes.host import DRIVER_MOUNTS      # the paths the container probe looks for: one list

    put("container.kind", v["engine"])
    runtime = v.get("runtime") == "ascend" or any(k in v["env"] for k in RUNTIME_ENV)
    if not runtime:
        if not v["privileged"] and not v["unresolved_devices"]:
            put("dev.nodes", sorted({d.rsplit("/", 1)[-1] for d in v["devices"]}))
        vols = v["volumes"]
        put("mounts.present", {p: any(p == m or p.startswith(m.rstrip("/") + "/") for m in vols)
                               for p in DRIVER_MOUNTS})
    if v.get("shm_size"):
        put("shm.size_bytes", v["shm_size"])
    elif v.get("ipc") is None:
        put("shm.size_bytes", DEFAULT_SHM)
    for k, val in v["env"].items():
        put(f"env.{k}", val)


#: a Markdown table row naming a thing and its version ('| CANN | 8.3.RC2 |', '| 驱动 | 25.2.0 |'): read as the field
#: 'CANN: 8.3.RC2' (an issue's environment is often such a table); one line for one line, so line numbers hold
TABLE_ROW = re.compile(r"(?m)^[ \t]*\|[ \t]*([^|\n]{1,40}?)[ \t]*\|[ \t]*(v?\d[^|\n]{0,40}?)[ \t]*\|[^\n]*$")


def facts_from_text(name: str, text: str) -> list[Fact]:
    """Facts in one input's text (its first MiB): tool outputs first, then prose version strings."""
    from ..parsers.blocks import find_blocks

    out: dict[str, Fact] = {}
    # tool outputs have short lines: blank out very long ones (keeps line numbers, keeps parsers fast)
    if len(text) > MAX_TOOL_LINE and max(map(len, text.splitlines())) > MAX_TOOL_LINE:
        text = "\n".join(ln if len(ln) <= MAX_TOOL_LINE else "" for ln in text.splitlines())
    for block in find_blocks(text):
        _block_facts(name, block, out)
    # Markdown around an issue form's fields, for the version and product patterns only: a launch script's
    # variables are read as written (export X=`cmd` gives no value, not 'cmd')
    written = text
    if "|" in text:
        text = TABLE_ROW.sub(r"\1: \2", text)
    if "**" in text or "`" in text:
        text = text.replace("**", "").replace("`", "")   # '**Driver version**: 24.1.rc2', '`torch_npu`: 2.1.0'
    # only the patterns whose word occurs somewhere in the text can match a line of it
    low = _folded(text)
    found = _gate_words(low)
    prose = [(key, pat) for key, pat in PROSE_VERSIONS if key not in out and not found.isdisjoint(GATES[key])]
    product = [(pat, fam) for pat, fam in PRODUCT if not found.isdisjoint(GATES[fam])]
    container = CONTAINER if "container.kind" not in out and not found.isdisjoint(GATES["container"]) else []
    sets_env = not found.isdisjoint(GATES["env"])
    if not prose and not container and not sets_env and (not product or "hardware.family" in out):
        return list(out.values())
    # the first line each pattern matches: only the lines holding one of its words can
    lines = _Lines(text, low)
    if sets_env:
        _env_facts(name, lines if text is written else _Lines(written), out)
    found: list[tuple[int, int, str, Any]] = []        # (line number, position in the loop, key, value)
    for i, (key, pat) in enumerate(prose):
        hit = lines.first_stated(pat, LINE_GATES.get(key, GATES[key]))
        if hit:
            found.append((hit[0], i, key, hit[1].group(1)))
    if "hardware.family" not in out:
        hits = [(hit[0], j, fam) for j, (pat, fam) in enumerate(product) for hit in [lines.first(pat, GATES[fam])] if hit]
        if hits:
            # the hardware a report says it moved to ('910b2 上跑通的环境迁移到 310p 后') is the one it runs on
            moved = [(hit[0], j, fam) for j, (pat, fam) in enumerate(product)
                     for hit in [lines.first_moved_to(pat, GATES[fam])] if hit] if len(hits) > 1 else []
            lineno, j, fam = min(moved or hits)
            found.append((lineno, len(prose) + j, "hardware.family", fam))
    if container:
        hits = [(hit[0], j, kind) for j, (pat, kind) in enumerate(container) for hit in [lines.first(pat, GATES["container"])] if hit]
        if hits:
            lineno, j, kind = min(hits)
            found.append((lineno, len(prose) + len(product) + j, "container.kind", kind))
    for lineno, _i, key, value in sorted(found, key=lambda f: f[:2]):
        out[key] = Fact(key, value, source=_src(name, lineno))
    return list(out.values())


class _Lines:
    """The lines of a text, and which of them hold a word (lower case, folded like ``_folded``)."""

    def __init__(self, text: str, folded: str | None = None) -> None:
        """``folded``: ``_folded(text)`` when the caller has it (used when the lines join back into ``text``)."""
        self.lines = text.splitlines()
        joined = "\n".join(self.lines)
        # the same positions when the lines join back into the text (no \r\n, \x0b ...) and folding kept its length
        same = folded is not None and len(folded) == len(text) and text in (joined, joined + "\n")
        self._folded = folded[:len(joined)] if same else _folded(joined)
        # where each line starts: after the lengths of the lines before it and their newlines
        self._starts = list(accumulate(map((1).__add__, map(len, self._folded.split("\n")[:-1])), initial=0))

    def holding(self, words) -> Iterator[int]:
        """Indexes of the lines holding one of ``words``, in order, each once."""
        last = -1
        for i in heapq.merge(*(self._holding(w) for w in words)):
            if i != last:
                yield i
                last = i

    def _holding(self, word: "str | re.Pattern[str]") -> Iterator[int]:
        text, starts = self._folded, self._starts
        # a word, or a pattern over the folded text (LINE_GATES): the next search starts at the next line
        if isinstance(word, str):
            def at(start: int) -> int:
                return text.find(word, start)
        else:
            def at(start: int) -> int:
                m = word.search(text, start)
                return m.start() if m else -1
        pos = at(0)
        while pos >= 0:
            i = bisect.bisect_right(starts, pos) - 1
            yield i
            pos = at(starts[i + 1] if i + 1 < len(starts) else len(text))

    def matches(self, pat: "re.Pattern[str]", words) -> "Iterator[tuple[int, re.Match[str]]]":
        """(line number, match) of every match of ``pat``, in order, on the lines (not longer than
        MAX_PROSE_LINE) holding one of ``words`` (every match of the pattern holds one)."""
        for i in self.holding(words):
            line = self.lines[i]
            if len(line) <= MAX_PROSE_LINE:
                for m in pat.finditer(line):
                    yield i + 1, m

    def first(self, pat: "re.Pattern[str]", words) -> "tuple[int, re.Match[str]] | None":
        """The first of ``matches``."""
        return next(self.matches(pat, words), None)

    def first_moved_to(self, pat: "re.Pattern[str]", words) -> "tuple[int, re.Match[str]] | None":
        """The first match that the line names as where the user moved to (MOVED_TO just before it)."""
        return next(((lineno, m) for lineno, m in self.matches(pat, words)
                     if MOVED_TO.search(m.string, 0, m.start())), None)

    def first_stated(self, pat: "re.Pattern[str]", words) -> "tuple[int, re.Match[str]] | None":
        """``first``, passing over a version the line names as required or as what the user moved to (see
        REQUIRED_BEFORE) while a later mention is not one: the installed version is the fact."""
        fallback = None
        for lineno, m in self.matches(pat, words):
            line = m.string
            if not (REQUIRED_BEFORE.search(line, 0, m.start()) or REQUIRED_AFTER.match(line, m.end())):
                return lineno, m
            if fallback is None:
                fallback = (lineno, m)
        return fallback
