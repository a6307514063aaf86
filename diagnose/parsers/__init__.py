"""Parsers for Ascend tool outputs and version files.

``parse(text, kind)`` parses one known output; ``kind="auto"`` and ``find_blocks(text)`` find the known
blocks inside surrounding text (an issue body, a collect_env dump, a terminal log).
Every parser takes text and returns a ``ParseResult``; no exception escapes for any input.
"""
from __future__ import annotations

from typing import Callable

from . import cluster, collect_env, container_run, dcmi, hccn, host_net, npu_smi_info, npu_smi_query, os_info, version_files
from .base import OK, UNPARSED, ParseResult, unparsed

PARSERS: dict[str, Callable[[str], ParseResult]] = {
    "npu-smi-info": npu_smi_info.parse,
    "npu-smi-map": npu_smi_query.parse_map,
    "npu-smi-board": npu_smi_query.parse_board,
    "npu-smi-health": npu_smi_query.parse_health,
    "npu-smi-usages": npu_smi_query.parse_usages,
    "npu-smi-memory": npu_smi_query.parse_memory,
    "npu-smi-common": npu_smi_query.parse_common,
    "npu-smi-ecc": npu_smi_query.parse_ecc,
    "dcmi-error": dcmi.parse,
    "driver-version-info": version_files.parse_driver_version_info,
    "firmware-version-info": version_files.parse_firmware_version_info,
    "ascend-install-info": version_files.parse_ascend_install_info,
    "toolkit-install-info": version_files.parse_toolkit_install_info,
    "cann-version-info": version_files.parse_cann_version_info,
    "cann-version-cfg": version_files.parse_version_cfg,
    "cann-component-version-info": version_files.parse_component_version_info,
    "nnal-version-info": version_files.parse_nnal_version_info,
    "mindie-version-info": version_files.parse_mindie_version_info,
    "os-release": os_info.parse_os_release,
    "uname": os_info.parse_uname,
    "collect-env": collect_env.parse,
    "container-run": container_run.parse,
    "hccn-ip": hccn.parse_ip,
    "hccn-link": hccn.parse_link,
    "hccn-net-health": hccn.parse_net_health,
    "hccn-tls": hccn.parse_tls,
    "hccn-netdetect": hccn.parse_netdetect,
    "hccn-gateway": hccn.parse_gateway,
    "hccn-conf": hccn.parse_conf,
    "rank-table": cluster.parse_rank_table,
    "npu-smi-spod-info": cluster.parse_spod_info,
    "ip-addr": host_net.parse_ip_addr,
    "timedatectl": host_net.parse_timedatectl,
    "chrony-tracking": host_net.parse_chrony_tracking,
}
KINDS = tuple(PARSERS)


def parse(text: str, kind: str) -> ParseResult:
    """Parse ``text`` as ``kind``. Never raises for any text: a parser bug becomes ``unparsed``."""
    fn = PARSERS.get(kind)
    if fn is None:
        raise ValueError(f"unknown kind {kind!r}; known: {', '.join(KINDS)}")
    try:
        return fn(text)
    except Exception as exc:  # noqa: BLE001 - untrusted text must never crash the caller
        return unparsed(kind, f"parser error: {type(exc).__name__}: {exc}")


from .blocks import Block, find_blocks  # noqa: E402

__all__ = ["OK", "UNPARSED", "ParseResult", "PARSERS", "KINDS", "parse", "Block", "find_blocks"]
