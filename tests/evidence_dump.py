"""Everything an Evidence holds, as one comparable string: the scan's faster paths (the shape-reading one,
worker processes for many files) are held to give exactly what the plain serial scan gives."""
from __future__ import annotations

import json


def dump(ev) -> str:
    return json.dumps({
        "lines": [[ln.source, ln.line, ln.text, ln.raw, ln.order, ln.time, sorted(ln.kinds), ln.codes, ln.signatures,
                   ln.count, sorted(ln.ranks)] for ln in ev.lines],
        "codes": [vars(c) for c in ev.codes], "stalls": [vars(s) for s in ev.stalls],
        "notes": [vars(n) for n in ev.notes], "causes": [c.order for c in ev.causes], "heads": ev.heads,
        "inputs": ev.inputs, "bytes": ev.bytes_read, "lines_read": ev.lines_read,
        "facts": [(f.key, str(f.value), f.source) for f in ev.facts], "prose": ev.prose, "title": ev.title,
    }, sort_keys=True, default=str)
