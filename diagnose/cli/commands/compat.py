"""``ascend-doctor compat``: which versions fit together (HDK, CANN, torch_npu, engines, hardware).

Reads the compatibility matrices of the knowledge base (``kb/knowledge/compat/*.toml``); every row
shown carries its source. ``--cann 8.3.RC1`` lists the HDKs, torch_npu wheels and engine releases
that fit that CANN; giving two components (``--cann 9.2.0 --hdk 25.2.0``) also says whether the
pair is documented as compatible. ``--list`` shows the versions the matrices know.

Exit codes, so a script can gate on it: 0 every pair asked about is documented as compatible (or a
single component was looked up and found); 1 a pair is documented as not compatible, or is not
documented at all (said plainly), or nothing is known of what was asked; 2 bad input (a range such as
``>=8.0`` where a version is wanted).
"""
from __future__ import annotations

import re

NAME = "compat"
HELP = "which HDK, CANN, torch_npu, engine and hardware versions fit together"

#: option -> (attribute, label)
QUERY_OPTIONS = (
    ("--cann", "cann", "CANN release, e.g. 8.3.RC1 or a line such as 8.5.X"),
    ("--hdk", "hdk", "Ascend HDK (driver/firmware) version, e.g. 25.5.1"),
    ("--torch-npu", "torch_npu", "torch_npu version, e.g. 2.7.1.post2"),
    ("--vllm-ascend", "vllm_ascend", "vllm-ascend release, e.g. v0.11.0 or 0.11.0"),
    ("--engine", "engine", "engine: vllm-ascend, sglang, mindie, torch_npu"),
    ("--product", "product", "product name (e.g. 'Atlas 800I A2') or hardware family (a2, a3, 310p, ...)"),
)


def add_arguments(parser) -> None:
    from ...render.registry import formats
    from ..options import add_format, add_kb

    for opt, dest, help_ in QUERY_OPTIONS:
        parser.add_argument(opt, dest=dest, metavar="VERSION" if dest not in ("engine", "product") else dest.upper(),
                            default=None, help=help_)
    parser.add_argument("--list", action="store_true", help="list the versions the compatibility matrices know")
    add_format(parser, choices=formats("compat"))
    add_kb(parser)

_VERSION_ARG = re.compile(r"^[vV]?\d+(?:\.[0-9A-Za-z]+)*(?:\.[xX])?$")


def run(args) -> int:
    from ...services.compat import exit_code, known_values, run_query
    from ...services.errors import NotFound, UsageError
    from ..options import open_kb
    from ..output import emit

    q = {dest: getattr(args, dest) for _, dest, _ in QUERY_OPTIONS}
    for k, v in q.items():
        if v is not None and (not v.strip() or len(v) > 100):
            raise UsageError(f"--{k.replace('_', '-')} needs a value")
        if v is not None and k not in ("engine", "product") and not _VERSION_ARG.match(v.strip()):
            raise UsageError(f"--{k.replace('_', '-')} takes one version such as 8.3.RC1 or a line such as 8.5.X, "
                             f"not {v!r}")
    if args.list:
        with open_kb(args) as kb:
            known = known_values(kb.compat)
        emit("compat-versions", known, args.format)
        return 0
    if not any(q.values()):
        raise UsageError("compat needs --list or at least one of --cann, --hdk, --torch-npu, --vllm-ascend, --engine, "
                         "--product")
    with open_kb(args) as kb:
        result = run_query(kb.compat, q)
    code = exit_code(result)
    if args.format == "json":
        emit("compat", result, "json")
        return code
    if not result["sections"]:
        asked = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in result["query"].items())
        raise NotFound(f"no compatibility data for {asked} (known values: ascend-doctor compat --list)")
    emit("compat", result, "text")
    if code:
        print("Not every pair asked about is documented as compatible: exit code 1.")
    return code
