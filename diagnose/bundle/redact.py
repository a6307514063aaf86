"""What is removed from every text a bundle keeps (command outputs, kernel messages, log files).

The snapshot's privacy rules, applied to free text: serial numbers, UUIDs and long hex ids
(``scrub_text``); the host name unless the user keeps it (``--include-hostname``, as for the snapshot).
Free text can also hold what the snapshot never reads, so a bundle also removes: the values of the
environment's secrets wherever they appear (variables whose name says secret, and token-like values of
variables the snapshot leaves out), credentials inside URLs, ``password=...`` / ``"token": "..."``
assignments and ``Bearer`` / ``Basic`` authorisations. Each removal is counted per kind for the manifest.
"""
from __future__ import annotations

import re
from typing import Callable

from ..probes.host import SECRET, env_allowed
from ..system.replay import REMOVED, scrub_text_count

#: userinfo of a URL (``https://user:pw@host``, ``https://TOKEN@host``)
_URL_USERINFO = re.compile(r"(?P<scheme>\b[a-zA-Z][\w+.-]*://)[^\s/@<>\"']+@")
#: ``HF_TOKEN=...``, ``"api_key": "..."``, ``password: ...``: the key must end with the secret word, so
#: ``max_num_batched_tokens=8192`` and ``tokenizer=/models/x`` stay
_SECRET_WORD = (r"(?:token|secret|secret[_-]?key|passw(?:or)?d|passwd|pwd|passphrase|api[_-]?key|apikey"
                r"|access[_-]?key|private[_-]?key|credentials?|auth[_-]?key)")
_ASSIGNMENT = re.compile(r"(?i)(?P<key>(?<![\w-])[\w.-]*" + _SECRET_WORD + r"[\"']?[ \t]*[:=][ \t]*[\"']?)"
                         r"(?P<value>[^\s\"',;&<>]+)")
#: ``--password VALUE``, ``--api-key VALUE`` on a logged command line
_OPTION = re.compile(r"(?i)(?P<key>(?<![\w-])--?[\w-]*" + _SECRET_WORD + r"[ \t]+)(?P<value>[^\s\"',;&<>-][^\s\"',;&<>]*)")
#: ``Authorization: Bearer ...``, ``Bearer ...``
_AUTHORIZATION = re.compile(r"(?i)(?P<key>\b(?:authorization[\"']?[ \t]*[:=][ \t]*[\"']?(?:(?:bearer|basic|token)[ \t]+)?"
                            r"|bearer[ \t]+))(?P<value>[A-Za-z0-9._~+/=-]{8,})")
#: a serial number inside a line (``board SN: 2102...``); the snapshot's rule covers ``Key : value`` lines
_SERIAL_INLINE = re.compile(r"(?i)(?P<key>(?<![\w-])(?:serial[ _-]?(?:number|no\.?)?|(?:board|chip|elabel)?[ _]?sn)"
                            r"[ \t]*[:=][ \t]*)(?P<value>[^\s,;<>]{4,})")
_TOKEN_LIKE = re.compile(r"^(?=.*[A-Za-z])(?=.*\d)[^\s/]{12,}$")
#: host names that say nothing about anyone
_GENERIC_HOSTS = {"", "localhost", "localhost.localdomain", "ubuntu", "debian"}


def secret_values(env: dict[str, str], allowed: Callable[[str], bool] = env_allowed) -> list[str]:
    """Values to remove wherever they appear: every variable whose name says secret, and the token-like
    values of variables the snapshot leaves out (an API key in an oddly named variable); longest first."""
    found = set()
    for name, value in env.items():
        value = str(value)
        if len(value) < 4:
            continue
        if SECRET.search(name) or (not allowed(name) and _TOKEN_LIKE.match(value)):
            found.add(value)
    return sorted(found, key=lambda v: (-len(v), v))


class Redactor:
    """``redact(text) -> (text, {kind: count})``; one per bundle, built from the machine's environment and
    host name."""

    def __init__(self, env: dict[str, str], hostname: str = "", keep_hostname: bool = False) -> None:
        values = secret_values(env)
        self._values = re.compile("|".join(re.escape(v) for v in values)) if values else None
        host = hostname.strip()
        self._host = None
        if not keep_hostname and host.lower() not in _GENERIC_HOSTS and len(host) >= 2:
            self._host = re.compile(r"(?<![\w.-])" + re.escape(host) + r"(?![\w-])", re.I)

    def redact(self, text: str) -> tuple[str, dict[str, int]]:
        counts: dict[str, int] = {}

        def count(kind: str, n: int) -> None:
            if n:
                counts[kind] = counts.get(kind, 0) + n

        if self._values is not None:
            text, n = self._values.subn(REMOVED, text)
            count("secret_value", n)
        text, n = _URL_USERINFO.subn(lambda m: m.group("scheme") + REMOVED + "@", text)
        count("url_credentials", n)
        text, n = _ASSIGNMENT.subn(_keep_key, text)
        count("secret_assignment", n)
        text, n = _OPTION.subn(_keep_key, text)
        count("secret_assignment", n)
        text, n = _AUTHORIZATION.subn(_keep_key, text)
        count("authorization", n)
        text, n = scrub_text_count(text)
        count("serial_or_id", n)
        text, n = _SERIAL_INLINE.subn(_keep_key, text)
        count("serial_or_id", n)
        if self._host is not None:
            text, n = self._host.subn(REMOVED, text)
            count("hostname", n)
        return text, counts


def _keep_key(m: re.Match) -> str:
    return m.group("key") + REMOVED
