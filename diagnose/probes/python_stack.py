"""The Python stack of a target interpreter, from package metadata (nothing is imported).

The interpreter runs isolated (``-I``): neither the current directory nor PYTHONPATH / user site is
on its ``sys.path``, so a ``platform.py`` or ``json.py`` where the user runs ascend-doctor is never
imported. Packages reached through PYTHONPATH are still seen: its absolute entries are searched for
package *metadata* only (``importlib.metadata`` reads ``*.dist-info``; it imports nothing from them).
"""
from __future__ import annotations

import json
import sys

from .base import ERROR, OK, UNPARSED, ProbeContext, Fact, bad, command_status, ok

PACKAGES = ("torch", "torch_npu", "vllm", "vllm_ascend", "sglang", "numpy", "transformers", "triton_ascend", "mindspore",
            "mindie_llm", "mindie_service", "mindie_torch", "mindie_rt", "mindie_sd")

#: distributions that install a package of PACKAGES under another name: MindSpore 1.x's Ascend build is the
#: mindspore-ascend distribution (mindspore_ascend-1.8.1-cp37-cp37m-linux_aarch64.whl); 2.x is one mindspore
ALIASES = {"mindspore_ascend": "mindspore"}

# The first line is a marker that lets simulated machines recognise this command.
SCRIPT = """#ascend-doctor:packages
import json, os, platform, re, sys
try:
    from importlib import metadata
except ImportError:
    metadata = None
pkgs = {}
if metadata is not None:
    extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if os.path.isabs(p)]
    for d in metadata.distributions(path=sys.path + extra):
        try:
            name = d.metadata["Name"]
        except Exception:
            continue
        if name:
            key = re.sub(r"[-_.]+", "_", name).lower()
            key = ALIASES.get(key, key)
            if key in WANTED or key.startswith("mindie"):
                pkgs.setdefault(key, d.version)
print(json.dumps({"executable": sys.executable, "version": platform.python_version(), "packages": pkgs}))
""".replace("WANTED", repr(tuple(sorted(PACKAGES)))).replace("ALIASES", repr(ALIASES))

#: the interpreter's arguments: isolated mode, never the caller's directory on sys.path
ARGS = ("-I", "-c", SCRIPT)


def probe(ctx: ProbeContext) -> list[Fact]:
    exe = ctx.python or sys.executable
    cmd = f"{exe} -I -c <package probe>"
    r = ctx.system.run([exe, *ARGS], timeout=ctx.timeout)
    status, detail = command_status(r)
    keys = ["python.executable", "python.version"] + [f"pkg.{p}" for p in PACKAGES]
    if status != OK:
        return [bad(k, status, cmd, detail) for k in keys]
    try:
        data = json.loads(r.stdout.strip().splitlines()[-1])
        packages = {str(k): str(v) for k, v in data["packages"].items()}
        version, executable = str(data["version"]), str(data["executable"])
    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
        return [bad(k, UNPARSED, cmd, f"unexpected output from the interpreter: {exc}") for k in keys]
    facts = [ok("python.executable", executable, cmd), ok("python.version", version, cmd)]
    for p in sorted(set(PACKAGES) | set(packages)):
        if p in packages:
            facts.append(ok(f"pkg.{p}", packages[p], cmd))
        else:
            facts.append(Fact(f"pkg.{p}", None, "missing", cmd, f"{p} is not installed for {executable}"))
    return facts


__all__ = ["probe", "PACKAGES", "SCRIPT", "ARGS", "ERROR"]
