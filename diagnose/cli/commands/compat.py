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

from ...render.console import dumps_json

import re
from typing import Any, Callable

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
    from ..options import add_format, add_kb

    for opt, dest, help_ in QUERY_OPTIONS:
        parser.add_argument(opt, dest=dest, metavar="VERSION" if dest not in ("engine", "product") else dest.upper(),
                            default=None, help=help_)
    parser.add_argument("--list", action="store_true", help="list the versions the compatibility matrices know")
    add_format(parser)
    add_kb(parser)


#: matrix -> the columns whose values name versions a user can ask about
LISTED = {"hdk-cann": ("cann", "hdk"), "torch-npu": ("torch_npu", "cann"), "vllm-ascend": ("vllm_ascend", "cann"),
          "mindie-cann": ("mindie", "cann"), "engine-hardware": ("engine", "product"), "products": ("product",)}
_VERSION_ARG = re.compile(r"^[vV]?\d+(?:\.[0-9A-Za-z]+)*(?:\.[xX])?$")


def known_values(kb_compat: Callable[[str], list[dict]]) -> dict[str, list[str]]:
    """Every value of the listed columns, per option name."""
    out: dict[str, set[str]] = {}
    for matrix, columns in LISTED.items():
        for row in kb_compat(matrix):
            for c in columns:
                for v in _as_list(row.get(c)):
                    out.setdefault(c, set()).add(str(v))
    return {k: sorted(v) for k, v in sorted(out.items())}


# -- version matching -----------------------------------------------------------------------------

def _norm(v: str) -> str:
    v = str(v).strip()
    if len(v) > 1 and v[0] in "vV" and v[1].isdigit():
        v = v[1:]
    return v.lower()


def _is_series(spec: str) -> bool:
    return _norm(spec).endswith(".x")


def _is_range(spec: str) -> bool:
    return any(c in spec for c in "<>=!,|")


class Matcher:
    """Decides whether a version satisfies a spec (exact version, series ``25.5.X`` or range) with the
    Ascend version grammar of ``ascend_doctor.kb.language.version``. A value the grammar cannot read is
    compared as text (a series by its prefix); an unreadable range answers ``None`` (unknown).
    """

    def matches(self, version: str, spec: str) -> bool | None:
        from ascend_doctor.kb.language.version import satisfies

        if not version or not spec:
            return False
        try:
            return bool(satisfies(version, spec))
        except (ValueError, TypeError):     # VersionError is a ValueError
            pass
        v, s = _norm(version), _norm(spec)
        if _is_range(spec):
            return None
        if _is_series(s):
            return v.startswith(s[:-1]) and len(v) > len(s) - 1
        return v == s

    def same(self, a: str, b: str) -> bool:
        """``a`` and ``b`` name the same version, or one is a series that holds the other."""
        if _is_series(a) and _is_series(b):
            return _norm(a) == _norm(b)
        if _is_series(a):
            return bool(self.matches(b, a))
        return bool(self.matches(a, b))


# -- queries --------------------------------------------------------------------------------------

def _as_list(v: Any) -> list[str]:
    if v is None:
        return []
    return list(v) if isinstance(v, list) else [v]


def _hits(matcher: Matcher, value: str, specs: Any) -> bool:
    return any(matcher.same(value, s) for s in _as_list(specs))


def run_query(kb_compat: Callable[[str], list[dict]], q: dict[str, str | None], matcher: Matcher | None = None) -> dict:
    """Answer a compat query from matrices (``kb_compat(name) -> rows``). Pure: no printing."""
    m = matcher or Matcher()
    sections: list[dict] = []
    verdicts: list[dict] = []

    def add(title: str, matrix: str, rows: list[dict], columns: list[str]) -> None:
        if rows:
            sections.append({"title": title, "matrix": matrix, "columns": columns, "rows": rows})

    hdk_cann = kb_compat("hdk-cann")
    torch_npu = kb_compat("torch-npu")
    vllm = kb_compat("vllm-ascend")
    mindie = kb_compat("mindie-cann")
    engines = kb_compat("engine-hardware")
    products = kb_compat("products")
    pydeps = kb_compat("python-deps")

    cann = q.get("cann")
    if cann:
        add(f"HDK (driver/firmware) for CANN {cann}", "hdk-cann",
            [r for r in hdk_cann if m.same(r["cann"], cann)],
            ["cann", "hdk", "hdk_incompatible", "recommended", "paired", "note"])
        add(f"torch_npu for CANN {cann}", "torch-npu",
            [r for r in torch_npu if (r.get("cann") and m.same(r["cann"], cann))
             or (r.get("cann_range") and m.matches(cann, r["cann_range"]))],
            ["torch_npu", "torch", "cann", "cann_range", "branch", "python", "origin"])
        add(f"vLLM-Ascend releases built on CANN {cann}", "vllm-ascend",
            [r for r in vllm if m.same(r["cann"], cann)],
            ["vllm_ascend", "vllm", "python", "cann", "torch", "torch_npu", "triton_ascend", "mooncake"])
        add(f"MindIE releases for CANN {cann}", "mindie-cann",
            [r for r in mindie if m.same(r["cann"], cann)], ["mindie", "cann", "pta", "hdk", "torch", "note"])
        add(f"Python package constraints for CANN {cann}", "python-deps",
            [r for r in pydeps if r.get("cann") and m.same(r["cann"], cann)],
            ["package", "constraint", "cann", "engine", "note"])

    hdk = q.get("hdk")
    if hdk:
        ok = [r for r in hdk_cann if _hits(m, hdk, r.get("hdk"))]
        bad = [r for r in hdk_cann if _hits(m, hdk, r.get("hdk_incompatible"))]
        add(f"CANN releases documented to work with HDK {hdk}", "hdk-cann", ok, ["cann", "hdk", "recommended", "paired", "note"])
        add(f"CANN releases documented NOT to work with HDK {hdk}", "hdk-cann", bad, ["cann", "hdk_incompatible", "note"])
        add(f"MindIE releases listing HDK {hdk}", "mindie-cann",
            [r for r in mindie if _hits(m, hdk, r.get("hdk"))], ["mindie", "cann", "hdk"])

    tn = q.get("torch_npu")
    if tn:
        rows = [r for r in torch_npu if m.same(r["torch_npu"], tn)]
        title = f"torch_npu {tn}"
        if not rows:
            base = _base_version(tn)
            rows = [r for r in torch_npu if base and _base_version(r["torch_npu"]) == base]
            title = f"torch_npu {tn}: not listed; wheels of the same PyTorch line {base}"
        add(title, "torch-npu", rows, ["torch_npu", "torch", "cann", "cann_range", "branch", "python", "origin"])
        add(f"vLLM-Ascend releases using torch_npu {tn}", "vllm-ascend",
            [r for r in vllm if m.same(r.get("torch_npu", ""), tn)],
            ["vllm_ascend", "vllm", "cann", "torch", "torch_npu"])

    va = q.get("vllm_ascend")
    if va:
        rows = [r for r in vllm if m.same(r["vllm_ascend"], va)]
        add(f"vLLM-Ascend {va}", "vllm-ascend", rows,
            ["vllm_ascend", "vllm", "python", "cann", "torch", "torch_npu", "triton_ascend", "mooncake"])
        for cann_of in dict.fromkeys(r["cann"] for r in rows if not cann):
            add(f"HDK (driver/firmware) for its CANN {cann_of}", "hdk-cann",
                [r for r in hdk_cann if m.same(r["cann"], cann_of)],
                ["cann", "hdk", "hdk_incompatible", "recommended", "paired"])

    engine = q.get("engine")
    if engine:
        key = engine.strip().lower().replace("_", "-")
        add(f"Hardware for {engine}", "engine-hardware",
            [r for r in engines if r["engine"].lower().replace("_", "-") == key],
            ["engine", "supported", "experimental", "unsupported", "products", "note"])

    product = q.get("product")
    if product:
        p = product.strip().lower()
        rows = [r for r in products if r.get("family", "").lower() == p] or \
            [r for r in products if r["product"].lower() == p] or \
            [r for r in products if p in r["product"].lower()]
        add(f"Products matching '{product}'", "products", rows,
            ["product", "family", "chip", "soc", "npus_per_server", "npus_per_card", "memory_gb_per_npu", "note"])
        families = sorted({r["family"] for r in rows})
        if families:
            erows = []
            for r in engines:
                status = {f: ("supported" if f in r.get("supported", []) else "experimental"
                              if f in r.get("experimental", []) else "unsupported"
                              if f in r.get("unsupported", []) else "not documented") for f in families}
                erows.append({**r, "status": ", ".join(f"{f}: {s}" for f, s in status.items())})
            add(f"Engines on {', '.join(families)}", "engine-hardware", erows, ["engine", "status"])

    # verdicts for pairs the user gave together
    if cann and hdk:
        verdicts.append(_pair_verdict("CANN", cann, "HDK", hdk, hdk_cann, m,
                                      lambda r: m.same(r["cann"], cann), "hdk", "hdk_incompatible"))
    if cann and tn:
        rows = [r for r in torch_npu if m.same(r["torch_npu"], tn)]
        fit = [r for r in rows if (r.get("cann") and m.same(r["cann"], cann))
               or (r.get("cann_range") and m.matches(cann, r["cann_range"]))]
        verdicts.append(_verdict("CANN", cann, "torch_npu", tn, fit,
                                 rows and not fit, [r["cann"] for r in rows if r.get("cann")]))
    if cann and va:
        rows = [r for r in vllm if m.same(r["vllm_ascend"], va)]
        fit = [r for r in rows if m.same(r["cann"], cann)]
        verdicts.append(_verdict("CANN", cann, "vllm-ascend", va, fit, rows and not fit, [r["cann"] for r in rows]))
    if tn and va:
        rows = [r for r in vllm if m.same(r["vllm_ascend"], va)]
        fit = [r for r in rows if m.same(r.get("torch_npu", ""), tn)]
        verdicts.append(_verdict("torch_npu", tn, "vllm-ascend", va, fit, rows and not fit,
                                 [r.get("torch_npu", "") for r in rows]))
    if engine and product:
        erow = next((s for s in sections if s["matrix"] == "engine-hardware" and s["title"].startswith("Engines on")), None)
        key = engine.strip().lower().replace("_", "-")
        if erow:
            for r in erow["rows"]:
                if r["engine"].lower().replace("_", "-") == key:
                    verdicts.append({"pair": f"{engine} on {product}", "verdict": r["status"], "sources": [r["source"]]})

    return {"query": {k: v for k, v in q.items() if v}, "sections": sections, "verdicts": verdicts}


def _base_version(v: str) -> str:
    import re

    m = re.match(r"^v?(\d+\.\d+\.\d+)", v.strip())
    return m.group(1) if m else ""


def _pair_verdict(a_name, a, b_name, b, rows, m, row_is_a, ok_col, bad_col) -> dict:
    mine = [r for r in rows if row_is_a(r)]
    ok = [r for r in mine if _hits(m, b, r.get(ok_col))]
    bad = [r for r in mine if _hits(m, b, r.get(bad_col))]
    if bad:
        verdict = "not compatible"
        srcs = [r["source"] for r in bad]
    elif ok:
        verdict = "compatible"
        srcs = [r["source"] for r in ok]
    else:
        verdict = "not documented" if mine else "unknown"
        srcs = [r["source"] for r in mine]
    known = sorted({h for r in mine for h in _as_list(r.get(ok_col))})
    return {"pair": f"{a_name} {a} + {b_name} {b}", "verdict": verdict, "sources": list(dict.fromkeys(srcs)),
            "documented": known}


def _verdict(a_name, a, b_name, b, fit, mismatch, documented) -> dict:
    verdict = "compatible" if fit else "not the documented pairing" if mismatch else "unknown"
    return {"pair": f"{a_name} {a} + {b_name} {b}", "verdict": verdict,
            "sources": list(dict.fromkeys(r["source"] for r in fit)),
            "documented": sorted({d for d in documented if d})}


# -- command --------------------------------------------------------------------------------------

def run(args) -> int:

    from ...services.errors import NotFound, UsageError
    from ..options import open_kb

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
        if args.format == "json":
            print(dumps_json(known, indent=2))
        else:
            for key, values in known.items():
                print(f"{key}: {', '.join(values)}")
        return 0
    if not any(q.values()):
        raise UsageError("compat needs --list or at least one of --cann, --hdk, --torch-npu, --vllm-ascend, --engine, "
                         "--product")
    with open_kb(args) as kb:
        result = run_query(kb.compat, q)
    code = exit_code(result)
    if args.format == "json":
        print(dumps_json(result, ensure_ascii=False, indent=2))
        return code
    if not result["sections"]:
        asked = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in result["query"].items())
        raise NotFound(f"no compatibility data for {asked} (known values: ascend-doctor compat --list)")
    _print_text(result)
    if code:
        print("Not every pair asked about is documented as compatible: exit code 1.")
    return code


def exit_code(result: dict) -> int:
    """0 when what was asked is known and every pair is documented as compatible, else 1."""
    if not result["sections"]:
        return 1
    return 0 if all(v["verdict"] == "compatible" for v in result["verdicts"]) else 1


def _cell(v: Any) -> str:
    return ", ".join(v) if isinstance(v, list) else str(v)


def _merge(rows: list[dict], columns: list[str]) -> list[dict]:
    """Rows that share the first column (one torch_npu wheel from three sources) become one entry."""
    merged: dict[str, dict] = {}
    for r in rows:
        key = _cell(r.get(columns[0], "")) if columns else ""
        e = merged.setdefault(key, {"values": {}, "notes": [], "sources": []})
        for c in columns[1:]:
            if c == "note" or r.get(c) in (None, "", []):
                continue
            vals = e["values"].setdefault(c, [])
            if _cell(r[c]) not in vals:
                vals.append(_cell(r[c]))
        if r.get("note") and "note" in columns and r["note"] not in e["notes"]:
            e["notes"].append(r["note"])
        if r.get("source") and r["source"] not in e["sources"]:
            e["sources"].append(r["source"])
    return [{"key": k, **v} for k, v in merged.items()]


def _print_text(result: dict) -> None:
    from ...render.console import esc, make_console

    console = make_console()
    out = lambda text: console.print(text, soft_wrap=True)  # noqa: E731 - long URLs stay on one line
    for v in result["verdicts"]:
        style = {"compatible": "green", "not compatible": "red"}.get(v["verdict"], "yellow")
        out(f"[bold]{esc(v['pair'])}[/bold]: [{style}]{esc(v['verdict'])}[/{style}]")
        if v.get("documented"):
            out(f"  documented: {esc(', '.join(v['documented']))}")
        for s in v["sources"]:
            out(f"  [dim]source: {esc(s)}[/dim]")
    for sec in result["sections"]:
        out("")
        out(f"[bold]{esc(sec['title'])}[/bold]  [dim]({esc(sec['matrix'])})[/dim]")
        for e in _merge(sec["rows"], sec["columns"]):
            parts = [f"{esc(c)}={esc(' | '.join(vals))}" for c, vals in e["values"].items()]
            out(f"  [bold]{esc(e['key'])}[/bold]  " + "  ".join(parts))
            for n in e["notes"]:
                out(f"    {esc(n)}")
            for s in e["sources"]:
                out(f"    [dim]source: {esc(s)}[/dim]")
