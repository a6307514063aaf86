"""DCMI / npu-smi failure messages: ``dcmi module initialize failed. ret is -8005``, ``-8020`` when the
device is used by another container, a missing or unmountable ``npu-smi``."""
from __future__ import annotations

import re

from .base import ParseResult, unparsed

KIND = "dcmi-error"
RET = re.compile(r"(?P<msg>(?:dcmi|DCMI)[^\n]*?(?:fail|error)[^\n]*?\bret\s*(?:is|=|:)?\s*(?P<code>-\d{4}))", re.I)
ANY_RET = re.compile(r"\bret(?:\s+is|\s*=|\s*:)\s*(?P<code>-80\d\d)\b")
NOT_FOUND = re.compile(r"(?P<msg>(?:\S*npu-smi)[^\n]*?(?:No such file or directory|command not found|not found))", re.I)
IS_DIR = re.compile(r"(?P<msg>\S*npu-smi[^\n]*?Is a directory)", re.I)


def find(text: str) -> list[dict[str, object]]:
    """Every DCMI failure in ``text``: [{"code": "-8005", "message": ..., "line": n}]."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        m = RET.search(line) or ANY_RET.search(line)
        if m:
            out.append({"code": m["code"], "message": line.strip(), "line": n})
    return out


def parse(text: str) -> ParseResult:
    errors = find(text)
    if errors:
        first = errors[0]
        return ParseResult(KIND, value={"code": first["code"], "message": first["message"], "errors": errors,
                                        "device_in_use": any("used" in str(e["message"]).lower() or e["code"] == "-8020"
                                                             for e in errors)})
    for pattern, what in ((IS_DIR, "is-directory"), (NOT_FOUND, "not-found")):
        m = pattern.search(text)
        if m:
            return ParseResult(KIND, value={"code": None, "message": m["msg"].strip(), "errors": [],
                                            "npu_smi": what, "device_in_use": False})
    return unparsed(KIND, "no DCMI return code or npu-smi failure message")
