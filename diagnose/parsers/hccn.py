"""``hccn_tool -i N <query> -g`` outputs (one NPU NIC each) and ``/etc/hccn.conf``.

The formats, as Huawei's documents and deployment guides print them::

    ipaddr:10.20.1.11                        -ip -g
    netmask:255.255.255.0
    link status: UP                          -link -g
    net health status: Success               -net_health -g   (Init, Fault, Socket failed, Receive timeout, ...)
    dev_id:0, tls switch[0](0:disable, 1:enable), tls preconfigured[1](0:non-preset, 1:preset), ...   -tls -g
    netdetect address: 11.12.165.1           -netdetect -g
    default gateway:11.12.165.1, Iface:eth0  -gateway -g

Newer tools print ``device 0, tls switch[...]`` instead of ``dev_id:0, ...``; a device without
certificates says ``no certificate found``, which HCCL treats as TLS off. Every parser reads the
first answer in the text and notes when there is more than one (a pasted ``for i in ...`` loop).
"""
from __future__ import annotations

import re

from .base import ParseResult, unparsed

IPV4 = r"\d{1,3}(?:\.\d{1,3}){3}"
_IP = re.compile(rf"^\s*ipaddr\s*:\s*(?P<ip>{IPV4})\s*$", re.M | re.I)
_MASK = re.compile(rf"^\s*netmask\s*:\s*(?P<mask>{IPV4})\s*$", re.M | re.I)
_LINK = re.compile(r"^\s*link status\s*:\s*(?P<v>[A-Za-z]+)\s*$", re.M | re.I)
_HEALTH = re.compile(r"^\s*net health status\s*:\s*(?P<v>\S.*?)\s*$", re.M | re.I)
_TLS = re.compile(r"^\s*(?:dev_id\s*:\s*(?P<dev>\d+)|device\s+(?P<dev2>\d+))\s*,\s*tls switch\[(?P<sw>\d)\]"
                  r"(?:.*?tls preconfigured\[(?P<pre>\d)\])?(?:.*?tls alarm time threshold\[(?P<alarm>\d+)\])?",
                  re.M | re.I)
_NO_CERT = re.compile(r"no certificate found", re.I)
_DETECT = re.compile(rf"^\s*netdetect address\s*:\s*(?P<ip>{IPV4})\s*$", re.M | re.I)
_GATEWAY = re.compile(rf"^\s*default gateway\s*:\s*(?P<ip>{IPV4})\s*(?:,\s*Iface\s*:\s*(?P<iface>\S+))?", re.M | re.I)
_CONF = re.compile(r"^\s*(?P<key>[a-z_]+?)_(?P<dev>\d+)\s*=\s*(?P<value>\S*)\s*$", re.M)


def _many(kind: str, n: int) -> list[str]:
    return [f"{n} answers in the text (a pasted loop?): the first one is read"] if n > 1 else []


def parse_ip(text: str) -> ParseResult:
    """``-ip -g``: ``{"ipaddr", "netmask"}``."""
    ips, masks = list(_IP.finditer(text)), list(_MASK.finditer(text))
    if not ips:
        return unparsed("hccn-ip", "no 'ipaddr:' line")
    return ParseResult("hccn-ip", value={"ipaddr": ips[0]["ip"], "netmask": masks[0]["mask"] if masks else None},
                       notes=_many("hccn-ip", len(ips)))


def parse_link(text: str) -> ParseResult:
    """``-link -g``: ``{"link": "UP" | "DOWN"}``."""
    found = list(_LINK.finditer(text))
    if not found:
        return unparsed("hccn-link", "no 'link status:' line")
    return ParseResult("hccn-link", value={"link": found[0]["v"].upper()}, notes=_many("hccn-link", len(found)))


def parse_net_health(text: str) -> ParseResult:
    """``-net_health -g``: ``{"net_health": "Success" | "Init" | "Fault" | "Socket failed" | ...}``."""
    found = list(_HEALTH.finditer(text))
    if not found:
        return unparsed("hccn-net-health", "no 'net health status:' line")
    return ParseResult("hccn-net-health", value={"net_health": found[0]["v"]},
                       notes=_many("hccn-net-health", len(found)))


def parse_tls(text: str) -> ParseResult:
    """``-tls -g``: ``{"tls_switch": 0 | 1, "tls_preconfigured", "tls_alarm_days", "device", "certificates"}``;
    ``no certificate found`` is TLS off (switch 0) as HCCL reads it."""
    found = list(_TLS.finditer(text))
    if not found:
        if _NO_CERT.search(text):
            return ParseResult("hccn-tls", value={"tls_switch": 0, "tls_preconfigured": None, "tls_alarm_days": None,
                                                  "device": None, "certificates": 0},
                               notes=["no certificate found: TLS is off"])
        return unparsed("hccn-tls", "no 'tls switch[...]' line")
    m = found[0]
    dev = m["dev"] if m["dev"] is not None else m["dev2"]
    devices = {f["dev"] if f["dev"] is not None else f["dev2"] for f in found}
    return ParseResult("hccn-tls", value={
        "tls_switch": int(m["sw"]), "tls_preconfigured": int(m["pre"]) if m["pre"] is not None else None,
        "tls_alarm_days": int(m["alarm"]) if m["alarm"] is not None else None, "device": int(dev),
        "certificates": len(re.findall(r"\[(?:pub|ca\d*) cert\] info", text, re.I))},
        notes=_many("hccn-tls", len(devices)))


def parse_netdetect(text: str) -> ParseResult:
    """``-netdetect -g``: ``{"netdetect": ip}`` (``0.0.0.0`` when none is configured)."""
    found = list(_DETECT.finditer(text))
    if not found:
        return unparsed("hccn-netdetect", "no 'netdetect address:' line")
    return ParseResult("hccn-netdetect", value={"netdetect": found[0]["ip"]},
                       notes=_many("hccn-netdetect", len(found)))


def parse_gateway(text: str) -> ParseResult:
    """``-gateway -g``: ``{"gateway": ip, "iface": "eth0"}``."""
    found = list(_GATEWAY.finditer(text))
    if not found:
        return unparsed("hccn-gateway", "no 'default gateway:' line")
    return ParseResult("hccn-gateway", value={"gateway": found[0]["ip"], "iface": found[0]["iface"]},
                       notes=_many("hccn-gateway", len(found)))


def parse_conf(text: str) -> ParseResult:
    """``/etc/hccn.conf``: ``{"devices": {"0": {"address", "netmask", "netdetect", "gateway", ...}}}``
    (device ids as strings, as JSON keys must be); other lines (comments, ``...``) are skipped."""
    devices: dict[str, dict[str, str]] = {}
    for m in _CONF.finditer(text):
        devices.setdefault(str(int(m["dev"])), {})[m["key"]] = m["value"]
    if not devices:
        return unparsed("hccn-conf", "no key_N=value lines (address_0=..., netmask_0=...)")
    ordered = {k: devices[k] for k in sorted(devices, key=int)}
    return ParseResult("hccn-conf", value={"devices": ordered})


#: ``-i N <option> -g`` queries read for every NPU NIC, and the parser of each answer
QUERIES = {"ip": parse_ip, "link": parse_link, "net_health": parse_net_health, "tls": parse_tls,
           "netdetect": parse_netdetect, "gateway": parse_gateway}
