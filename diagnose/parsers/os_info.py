"""``/etc/os-release`` and ``uname -a``."""
from __future__ import annotations

import re

from .base import ParseResult, unparsed
from .version_files import eq_pairs

UNAME = re.compile(r"^\s*(?:\S*[#$>]\s*)?Linux\s+(?P<host>\S+)\s+(?P<release>\d+\.\d+\S*)\s+#.*?\s(?P<arch>aarch64|x86_64|arm64|riscv64)(?:\s|$)")


def parse_os_release(text: str) -> ParseResult:
    kind = "os-release"
    raw = eq_pairs(text)
    if "ID" not in raw and "NAME" not in raw:
        return unparsed(kind, "no ID= / NAME= lines")
    return ParseResult(kind, value={"id": raw.get("ID"), "version_id": raw.get("VERSION_ID"),
                                    "pretty_name": raw.get("PRETTY_NAME"), "name": raw.get("NAME"),
                                    "id_like": raw.get("ID_LIKE"), "raw": raw})


def parse_uname(text: str) -> ParseResult:
    kind = "uname"
    for line in text.splitlines():
        m = UNAME.match(line)
        if m:
            return ParseResult(kind, value={"kernel_release": m["release"], "arch": m["arch"]})
    return unparsed(kind, "no 'Linux <host> <release> #... <arch>' line")
