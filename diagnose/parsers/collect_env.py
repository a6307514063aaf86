"""Output of ``collect_env.py`` (vLLM / vllm-ascend) as pasted in issues: versions, OS, Python,
``[pip3] name==version`` lines, the ``ENV Variables:`` section, the ``NPU:`` table and ``CANN:`` info."""
from __future__ import annotations

import re
from typing import Any

from . import npu_smi_info
from .base import ParseResult, unparsed
from .version_files import parse_toolkit_install_info

KIND = "collect-env"
LINE = re.compile(r"^(?P<key>PyTorch version|Is debug build|OS|GCC version|Clang version|CMake version|Libc version|"
                  r"Python version|Python platform|vLLM Version|vLLM Ascend Version|vLLM-Ascend Version|"
                  r"Is CUDA available|CANN version|Architecture)\s*:\s*(?P<value>.*?)\s*$")
PIP = re.compile(r"^\[(?:pip3?|conda)\]\s+(?P<name>[A-Za-z0-9_.-]+)\s*(?:==|\s)\s*(?P<version>v?\d\S*)")
ENV = re.compile(r"^(?P<key>[A-Z][A-Z0-9_]*)=(?P<value>.*)$")
PLATFORM = re.compile(r"Linux-(?P<release>.+?)-(?P<arch>aarch64|x86_64|arm64)-with")
MARKERS = ("PyTorch version:", "Python platform:", "Versions of relevant libraries:", "vLLM Ascend Version:",
           "vLLM Version:",
           "ENV Variables:", "[pip3] ")


def norm_pkg(name: str) -> str:
    return re.sub(r"[-.]+", "_", name.strip().lower())


def parse(text: str) -> ParseResult:
    lines = text.splitlines()
    if not any(ln.strip().startswith(MARKERS) for ln in lines):
        return unparsed(KIND, "no collect_env markers (PyTorch version:, Versions of relevant libraries:, "
                              "ENV Variables:, [pip3] ...)")
    fields: dict[str, str] = {}
    packages: dict[str, str] = {}
    env: dict[str, str] = {}
    section = ""
    cann_lines: list[str] = []
    for raw in lines:
        line = raw.strip()
        if not line:
            if section in ("env", "cann"):
                section = ""
            continue
        if line in ("ENV Variables:", "CANN:", "NPU:", "CPU:", "Versions of relevant libraries:"):
            section = {"ENV Variables:": "env", "CANN:": "cann", "NPU:": "npu", "CPU:": "cpu"}.get(line, "libs")
            continue
        m = LINE.match(line)
        if m and not (m["key"] == "Architecture" and "arch" in fields):
            fields[m["key"].lower()] = m["value"]
            if m["key"] == "vLLM Version":
                packages["vllm"] = m["value"]
            elif m["key"].lower().startswith("vllm") and "ascend" in m["key"].lower():
                packages["vllm_ascend"] = m["value"]
            elif m["key"] == "PyTorch version":
                packages.setdefault("torch", m["value"])
            continue
        p = PIP.match(line)
        if p:
            packages[norm_pkg(p["name"])] = p["version"]
            continue
        if section == "env":
            e = ENV.match(line)
            if e:
                env[e["key"]] = e["value"]
        elif section == "cann":
            cann_lines.append(line)
    value: dict[str, Any] = {"packages": packages, "env": env, "os": fields.get("os"),
                             "python_version": None, "kernel_release": None, "arch": fields.get("architecture"),
                             "cann": None, "npu_smi": None}
    if fields.get("python version"):
        value["python_version"] = fields["python version"].split()[0]
    plat = PLATFORM.search(fields.get("python platform", ""))
    if plat:
        value["kernel_release"] = plat["release"]
        value["arch"] = value["arch"] or plat["arch"]
    if cann_lines:
        c = parse_toolkit_install_info("\n".join(cann_lines))
        value["cann"] = c.value if c.ok else None
    if npu_smi_info.find_table_start(lines) is not None:
        n = npu_smi_info.parse(text)
        value["npu_smi"] = n.value if n.ok else None
    return ParseResult(KIND, value=value)
