"""Which versions fit together, as a service: the compatibility matrices of the knowledge base queried for
the versions a user gives (HDK, CANN, torch_npu, vLLM-Ascend, engine, product); every row keeps its
source. Pure: no printing (``render/compat_text.py`` shows the result)."""
from __future__ import annotations

import re
from typing import Any, Callable

from ascend_doctor.kb.language.version import is_series

#: matrix -> the columns whose values name versions a user can ask about
LISTED = {"hdk-cann": ("cann", "hdk"), "torch-npu": ("torch_npu", "cann"), "vllm-ascend": ("vllm_ascend", "cann"),
          "mindie-cann": ("mindie", "cann"), "engine-hardware": ("engine", "product"), "products": ("product",)}


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


def _is_range(spec: str) -> bool:
    return any(c in spec for c in "<>=!,|")


class VersionMatcher:
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
        if is_series(s):
            return v.startswith(s[:-1]) and len(v) > len(s) - 1
        return v == s

    def same(self, a: str, b: str) -> bool:
        """``a`` and ``b`` name the same version, or one is a series that holds the other."""
        if is_series(a) and is_series(b):
            return _norm(a) == _norm(b)
        if is_series(a):
            return bool(self.matches(b, a))
        return bool(self.matches(a, b))


# -- queries --------------------------------------------------------------------------------------

def _as_list(v: Any) -> list[str]:
    if v is None:
        return []
    return list(v) if isinstance(v, list) else [v]


def _hits(matcher: VersionMatcher, value: str, specs: Any) -> bool:
    return any(matcher.same(value, s) for s in _as_list(specs))


def run_query(kb_compat: Callable[[str], list[dict]], q: dict[str, str | None], matcher: VersionMatcher | None = None) -> dict:
    """Answer a compat query from matrices (``kb_compat(name) -> rows``). Pure: no printing."""
    m = matcher or VersionMatcher()
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
    triton = kb_compat("triton-ascend")
    mindspore = kb_compat("mindspore-cann")

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
        add(f"triton-ascend releases built for CANN {cann}", "triton-ascend",
            [r for r in triton if _hits(m, cann, r.get("cann"))], ["triton_ascend", "cann", "note"])
        add(f"MindSpore releases built for CANN {cann}", "mindspore-cann",
            [r for r in mindspore if _hits(m, cann, r.get("cann"))], ["mindspore", "cann", "commercial", "python", "note"])

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

def exit_code(result: dict) -> int:
    """0 when what was asked is known and every pair is documented as compatible, else 1."""
    if not result["sections"]:
        return 1
    return 0 if all(v["verdict"] == "compatible" for v in result["verdicts"]) else 1
