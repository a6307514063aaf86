"""``diagnose --format markdown``: a comment ready to paste into an issue."""
from __future__ import annotations

from ..matcher.reasons import kind_word
from .console import t, visible
from .diagnosis_text import L, _quote
from .knowledge import label


def _code(text: str) -> str:
    text = visible(text).replace("`", "'")
    return f"`{text}`"


def render_markdown(d, lang: str = "en", top: int = 3) -> str:
    lb = L.get(lang, L["en"])
    out = [f"## {lb['title']}", ""]
    shown = d.findings[:top]
    if not shown:
        out += [f"**{lb['none']}**", ""]
    for i, f in enumerate(shown, start=1):
        p = f.problem
        out += [f"### {i}. {t(p.title, lang)} (`{f.id}`, {lb['score']} {f.score:.2f})", "", f"**{lb['why']}:**", ""]
        for s in f.evidence:
            if s.kind == "fact" and s.source == "facts":
                continue                # the confirm / rule-out notes: listed below with their mark
            where = f"{s.source}:{s.line}" if s.line else s.source
            note = f": {s.detail}" if s.kind == "stall" and s.detail else ""
            out.append(f"- {_code(where)} {_code(s.text[:300])} ({kind_word(s.kind, lang)}{note}{', ×' + str(s.count) if s.count > 1 else ''})")
        for note in f.confirmed_by:
            out.append(f"- ✓ {lb['confirmed']}: {_code(note)}")
        for note in f.ruled_out_by:
            out.append(f"- ✗ {lb['ruled']}: {_code(note)}")
        out += ["", f"**{lb['root']}:** {t(p.root_cause, lang)}", ""]
        for fx in sorted(p.fixes, key=lambda fx: 0 if fx.get("kind") == "workaround" else 1):
            out.append(f"**{t(fx.get('summary'), lang)}** ({label(fx.get('kind', ''), lang)})")
            out.append("")
            for n, st in enumerate(fx.get("steps", []), start=1):
                out.append(f"{n}. {st.get(lang) or st.get('en', '')}")
                if st.get("command"):
                    out += ["", "   ```", *[f"   {c}" for c in st["command"].splitlines()], "   ```"]
            out.append("")
        if p.sources:
            out += [f"{lb['sources']}: " + ", ".join(p.sources), ""]
    if not shown and d.first_errors:
        out += [f"**{lb['first']}:**", ""]
        out += [f"- {_code(f'{ln.source}:{ln.line}')} {_code(ln.text[:300])}" for ln in d.first_errors]
        out.append("")
    stalls = getattr(d, "stalls", [])
    if not shown and stalls:
        out += [f"**{lb['stalls']}:**", ""]
        out += [f"- {_code(f'{s.source}:{s.line}')} {_code(s.text[:300])}" for s in stalls[:5]]
        out.append("")
    if d.codes:
        out += [f"**{lb['codes']}:** " + ", ".join(f"`{c.code}` ({c.family}, ×{c.count})" for c in d.codes[:10]), ""]
    if d.suggestion:
        out += [f"{lb['search']}: `ascend-doctor search {_quote(d.suggestion)}`", ""]
    out.append("_ascend-doctor diagnose_")
    return "\n".join(out) + "\n"
