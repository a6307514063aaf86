"""Host network addresses and clock state: ``ip -o addr show``, ``timedatectl show``, ``chronyc -c tracking``.

``ip -o addr show`` prints one line per address::

    4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\       valid_lft forever preferred_lft forever

``timedatectl show`` prints ``Key=value`` properties (``NTP=yes``, ``NTPSynchronized=yes``).
``chronyc -c tracking`` prints one CSV line: reference id, reference name, stratum, reference time,
system time offset (seconds), last offset, RMS offset, frequency, residual frequency, skew, root delay,
root dispersion, update interval, leap status (``Normal``, ``Not synchronised``).
"""
from __future__ import annotations

import re

from .base import ParseResult, unparsed

_ADDR = re.compile(r"^\s*\d+:\s+(?P<ifname>[^\s:@]+)(?:@\S+)?\s+(?P<family>inet6?)\s+(?P<addr>[0-9A-Fa-f.:]+)/(?P<prefix>\d+)")


def parse_ip_addr(text: str) -> ParseResult:
    """``[{"ifname", "family", "address", "prefix"}]`` in the order printed."""
    addrs = [{"ifname": m["ifname"], "family": m["family"], "address": m["addr"], "prefix": int(m["prefix"])}
             for m in (_ADDR.match(ln) for ln in text.splitlines()) if m]
    if not addrs:
        return unparsed("ip-addr", "no 'N: IFNAME inet ADDR/PREFIX' lines (ip -o addr show)")
    return ParseResult("ip-addr", value={"addresses": addrs})


def _yes(v: str | None) -> bool | None:
    if v is None:
        return None
    return {"yes": True, "no": False}.get(v.strip().lower())


def parse_timedatectl(text: str) -> ParseResult:
    """``{"ntp_synchronized", "ntp_service", "timezone"}`` from ``timedatectl show``."""
    props = dict(ln.split("=", 1) for ln in text.splitlines() if re.match(r"^[A-Za-z]+=", ln))
    if "NTPSynchronized" not in props:
        return unparsed("timedatectl", "no NTPSynchronized= line (timedatectl show)")
    return ParseResult("timedatectl", value={"ntp_synchronized": _yes(props.get("NTPSynchronized")),
                                             "ntp_service": _yes(props.get("NTP")),
                                             "timezone": props.get("Timezone")})


def parse_chrony_tracking(text: str) -> ParseResult:
    """``{"reference", "stratum", "offset_s", "leap", "synchronized"}`` from ``chronyc -c tracking``;
    ``offset_s`` is the system clock's offset from NTP time (its sign as chrony prints it)."""
    line = next((ln for ln in text.splitlines() if ln.count(",") >= 12), None)
    if line is None:
        return unparsed("chrony-tracking", "no CSV tracking line (chronyc -c tracking)")
    f = line.split(",")
    # chrony >= 4.6 may add fields; the leap status is the last one, the offset the fifth
    try:
        offset = float(f[4])
        stratum = int(f[2])
    except ValueError:
        return unparsed("chrony-tracking", "the stratum or the offset is not a number")
    leap = f[-1].strip()
    return ParseResult("chrony-tracking", value={"reference": f[1] or None, "stratum": stratum, "offset_s": offset,
                                                 "leap": leap, "synchronized": leap.lower() != "not synchronised"
                                                 and stratum > 0})
