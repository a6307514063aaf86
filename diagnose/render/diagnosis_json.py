"""``diagnose --format json``: the versioned schema documented in docs/diagnose.md."""
from __future__ import annotations

from .console import dumps_json

from typing import Any

from .console import t

SCHEMA = "ascend-doctor/diagnosis/1"


def _fix(fx: dict[str, Any], lang: str) -> dict[str, Any]:
    steps = []
    for st in fx.get("steps", []):
        step = {"text": st.get(lang) or st.get("en", "")}
        if st.get("command"):
            step["command"] = st["command"]
        steps.append(step)
    return {"kind": fx.get("kind", ""), "summary": t(fx.get("summary"), lang), "steps": steps}


def finding_dict(f, rank: int, lang: str) -> dict[str, Any]:
    p = f.problem
    fixes = sorted(p.fixes, key=lambda fx: 0 if fx.get("kind") == "workaround" else 1)
    return {
        "rank": rank,
        "id": f.id,
        "title": t(p.title, lang),
        "score": f.score,
        "severity": p.severity,
        "family": p.family,
        "summary": t(p.summary, lang),
        "root_cause": t(p.root_cause, lang),
        "fixes": [_fix(fx, lang) for fx in fixes],
        "evidence": [s.to_dict() for s in f.evidence],
        "confirmed_by": list(f.confirmed_by),
        "ruled_out_by": list(f.ruled_out_by),
        "sources": list(p.sources),
    }


def diagnosis_dict(d, lang: str = "en", top: int = 5) -> dict[str, Any]:
    findings = d.findings[:top]
    dec = d.decisive
    return {
        "schema": SCHEMA,
        "lang": lang,
        "inputs": list(d.inputs),
        "bytes_read": d.bytes_read,
        "lines_read": d.lines_read,
        "findings": [finding_dict(f, i, lang) for i, f in enumerate(findings, start=1)],
        "no_match": not findings,
        "decisive": {"source": dec.source, "line": dec.line, "text": dec.text} if dec is not None else None,
        "first_errors": [{"source": ln.source, "line": ln.line, "text": ln.text, "count": ln.count}
                         for ln in d.first_errors],
        "cann_messages": [{"source": ln.source, "line": ln.line, "text": ln.text} for ln in d.causes],
        "codes": [c.to_dict(lang) for c in d.codes],
        "facts": [f.to_dict() for f in d.facts],
        "stalls": [{"source": s.source, "line": s.line, "text": s.text, "description": s.description,
                    "percent": s.percent, "done": s.done, "total": s.total, "log_ends_here": s.last_in_input}
                   for s in getattr(d, "stalls", [])],
        "suggested_search": d.suggestion,
        "notes": [{"source": n.source, "level": n.level, "message": n.message} for n in d.notes],
    }


def render_json(d, lang: str = "en", top: int = 5) -> str:

    return dumps_json(diagnosis_dict(d, lang, top), ensure_ascii=False, indent=2, default=str)
