"""What a support bundle holds, for people (``bundle --preview``, and the line after writing one). Only names,
sizes and reasons are shown, never a collected text; names from the machine go through ``visible()``."""
from __future__ import annotations

from .console import visible
from .messages import human_size, message

#: left-out entries shown before "... and N more"
SHOWN_SKIPPED = 20


def redaction_words(totals: dict[str, int], lang: str) -> str:
    return ", ".join(f"{message('bundle.redaction.' + k, lang)} {n}" for k, n in sorted(totals.items())) \
        or message("bundle.none", lang)


def preview(bundle, lang: str) -> str:
    """``bundle`` is a services.bundle.Bundle (its entries as bundle.model.Entry)."""
    from ..bundle.archive import redaction_totals

    kept, skipped = bundle.kept, bundle.skipped
    lines = [message("bundle.would_write", lang, files=len(kept) + 1,
                     size=human_size(sum(e.size for e in kept))), "", message("bundle.collected", lang)]
    for e in kept:
        note = f"  [{message('bundle.cut', lang, kept=human_size(e.size), total=human_size(e.original_size))}]" \
            if e.truncated else ""
        source = "" if e.kind == "log" else f"  ({visible(e.source)})"     # a log's name is its path
        lines.append(f"  {human_size(e.size):>10}  {visible(e.name)}{source}{note}")
    lines += ["", message("bundle.left_out", lang)]
    for e in skipped[:SHOWN_SKIPPED]:
        lines.append(f"  {visible(e.source)}: {message('bundle.reason.' + e.reason, lang)}")
    if len(skipped) > SHOWN_SKIPPED:
        lines.append("  " + message("bundle.more", lang, n=len(skipped) - SHOWN_SKIPPED))
    if not skipped:
        lines.append("  " + message("bundle.none", lang))
    env_out = bundle.snapshot_redaction.get("env_dropped") or []
    lines += ["", message("bundle.redacted", lang, counts=redaction_words(redaction_totals(bundle.entries), lang)),
              message("bundle.env_left_out", lang, names=visible(", ".join(env_out)) or message("bundle.none", lang)),
              message("bundle.host_kept" if bundle.meta.get("include_hostname") else "bundle.host_removed", lang)]
    return "\n".join(lines) + "\n"


def wrote(bundle, path: str, size: int, lang: str) -> str:
    from ..bundle.archive import redaction_totals

    return message("bundle.wrote", lang, path=visible(path), files=len(bundle.kept) + 1, size=human_size(size),
                   skipped=len(bundle.skipped), redacted=sum(redaction_totals(bundle.entries).values())) + "\n"
