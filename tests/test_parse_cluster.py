"""hccn_tool, /etc/hccn.conf, rank tables, spod-info, ip addr, timedatectl and chrony: real formats, values by hand."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ascend_doctor.diagnose.parsers import parse
from ascend_doctor.diagnose.parsers.cluster import sdid_fields

S = Path(__file__).parent / "fixtures" / "samples"


def text(rel: str) -> str:
    return (S / rel).read_text(encoding="utf-8")


def p(rel_or_text: str, kind: str, raw: bool = False):
    r = parse(rel_or_text if raw else text(rel_or_text), kind)
    assert r.ok, r.reason
    return r.value


def test_ip_of_each_device_in_a_pasted_loop():
    chunks = re.split(r"(?=^ipaddr:)", text("hccn/ip-g-loop-8dev-910b3.txt"), flags=re.M)
    values = [p(c, "hccn-ip", raw=True) for c in chunks if c.strip()]
    assert [v["ipaddr"] for v in values] == [f"11.12.165.{80 + i}" for i in range(8)]
    assert {v["netmask"] for v in values} == {"255.255.255.0"}
    whole = parse(text("hccn/ip-g-loop-8dev-910b3.txt"), "hccn-ip")
    assert whole.value["ipaddr"] == "11.12.165.80" and "8 answers" in whole.notes[0]


def test_ip_after_a_prompt_line():
    v = p("system/hccn_tool-ip-route.txt", "hccn-ip")
    assert v == {"ipaddr": "10.20.11.24", "netmask": "255.255.255.0"}


def test_link_health_detect_gateway():
    assert p("hccn/link-g-loop-elided.txt", "hccn-link") == {"link": "UP"}
    assert p("hccn/net-health-g-loop-elided.txt", "hccn-net-health") == {"net_health": "Success"}
    assert p("hccn/net-health-g-init-faultdiag.txt", "hccn-net-health") == {"net_health": "Init"}
    assert p("net health status: Receive timeout\n", "hccn-net-health", raw=True) == {"net_health": "Receive timeout"}
    assert p("hccn/netdetect-g-loop-elided.txt", "hccn-netdetect") == {"netdetect": "11.12.165.1"}
    assert p("hccn/gateway-g-loop-8dev.txt", "hccn-gateway") == {"gateway": "11.12.165.1", "iface": "eth0"}
    assert p("link status: DOWN", "hccn-link", raw=True) == {"link": "DOWN"}


def test_tls_switch_off_on_and_full_output():
    v = p("hccn/tls-g-grep-switch-loop-8dev-off.txt", "hccn-tls")
    assert (v["tls_switch"], v["tls_preconfigured"], v["tls_alarm_days"], v["device"]) == (0, 1, 60, 0)
    lines = text("hccn/tls-g-grep-switch-mixed-2dev.txt").splitlines()
    assert [p(ln, "hccn-tls", raw=True)["tls_switch"] for ln in lines[1:]] == [0, 1]
    full = p("hccn/tls-g-full-with-certs.txt", "hccn-tls")
    assert (full["tls_switch"], full["tls_preconfigured"], full["certificates"]) == (0, 0, 3)
    newer = p("device 3, tls switch[1](0:disable, 1:enable), tls preconfigured[0](0:non-preset, 1:preset), "
              "tls alarm time threshold[60]days", "hccn-tls", raw=True)
    assert (newer["device"], newer["tls_switch"]) == (3, 1)
    assert p("no certificate found", "hccn-tls", raw=True)["tls_switch"] == 0


def test_hccn_conf_with_comment_and_elision():
    v = p("system/hccn_tool-ping-and-hccn.conf-910b.txt", "hccn-conf")["devices"]
    assert list(v) == ["0", "7"]
    assert v["0"] == {"address": "29.1.137.205", "netmask": "255.255.0.0", "netdetect": "29.1.0.1",
                      "gateway": "29.1.0.1", "send_arp_status": "1"}
    assert v["7"]["address"] == "29.1.170.143"
    own = p("own/hccn.conf-a2-8dev.txt", "hccn-conf")["devices"]
    assert len(own) == 8 and own["3"]["address"] == "10.20.1.14"


@pytest.mark.parametrize("bad", ["", "ipaddr:", "link status:", "hello", "{}"])
def test_unparsed_is_said(bad):
    for kind in ("hccn-ip", "hccn-link", "hccn-net-health", "hccn-tls", "hccn-netdetect", "hccn-gateway", "hccn-conf"):
        r = parse(bad, kind)
        assert not r.ok and r.reason


def test_rank_table_v10_a2():
    v = p("cluster/ranktable-v1.0-a2-pymotor.json", "rank-table")
    assert (v["version"], v["status"], v["server_count"], v["ranks"], v["problems"]) == ("1.0", "completed", 1, 3, [])
    s = v["servers"][0]
    assert (s["server_id"], s["container_ip"], s["host_ip"]) == ("192.168.101.101", "192.168.149.101", None)
    assert [(d["device_id"], d["device_ip"], d["rank_id"]) for d in s["devices"]] == [
        (1, "192.168.101.1", 0), (2, "192.168.102.2", 1), (3, "192.168.103.3", 2)]


def test_rank_table_v12_a3_superpod():
    v = p("cluster/ranktable-v1.2-a3-pymotor.json", "rank-table")
    assert v["version"] == "1.2" and v["super_pods"] == [{"super_pod_id": "0", "server_ids": ["192.168.0.1"]}]
    devs = v["servers"][0]["devices"]
    assert [(d["device_id"], d["super_device_id"]) for d in devs] == [(0, 37748736), (7, 38600711)]
    # two of eight devices listed: rank ids 0 and 7 are not 0..1
    assert v["problems"] == ["rank ids are not 0..1"]
    assert sdid_fields(37748736) == {"server_index": 9, "chip_id": 0, "die_id": 0, "device_id": 0}
    assert sdid_fields(38600711) == {"server_index": 9, "chip_id": 3, "die_id": 1, "device_id": 7}


def test_rank_table_problems_are_found():
    bad = ('{"status": "initializing", "version": "1.0", "server_count": "2", "server_list": [{"server_id": "a",'
           ' "device": [{"device_id": "0", "device_ip": "10.0.0.1", "rank_id": "0"},'
           ' {"device_id": "1", "device_ip": "10.0.0.1", "rank_id": "0"}]}]}')
    probs = p(bad, "rank-table", raw=True)["problems"]
    assert "status is 'initializing', not 'completed'" in probs
    assert "server_count is 2 but server_list has 1 server(s)" in probs
    assert "rank_id repeated: 0" in probs and "device_ip repeated: 10.0.0.1" in probs
    assert not parse('{"server_list": 3}', "rank-table").ok and not parse("[1,", "rank-table").ok
    assert p('{"server_list": [{"device": 5}], "super_pod_list": [{"server_list": 1}]}', "rank-table",
             raw=True)["problems"]


def test_spod_info_a3_and_unsupported():
    assert p("own/npu-smi-spod-info-a3.txt", "npu-smi-spod-info") == {
        "supported": True, "sdid": 41943040, "super_pod_size": 384, "super_pod_id": 7, "server_index": 10}
    assert p("cluster/spod-info-a3-shmem-example.txt", "npu-smi-spod-info")["server_index"] == 4
    assert p("cluster/spod-info-not-supported-200i-a2.txt", "npu-smi-spod-info")["supported"] is False


def test_ip_addr_recorded_output():
    addrs = p("host/ip-o-addr-show-container.txt", "ip-addr")["addresses"]
    assert addrs[0] == {"ifname": "lo", "family": "inet", "address": "127.0.0.1", "prefix": 8}
    assert {"ifname": "eth0", "family": "inet", "address": "192.0.2.2", "prefix": 24} in addrs
    assert len(addrs) == 5
    bond = p("7: bond0.100@bond0    inet 10.1.2.3/16 brd 10.1.255.255 scope global bond0.100", "ip-addr", raw=True)
    assert bond["addresses"][0]["ifname"] == "bond0.100"


def test_clock_outputs():
    assert p("own/timedatectl-show-synced.txt", "timedatectl")["ntp_synchronized"] is True
    v = p("own/timedatectl-show-not-synced.txt", "timedatectl")
    assert (v["ntp_synchronized"], v["ntp_service"]) == (False, False)
    assert not parse(text("host/timedatectl-show-no-systemd.txt"), "timedatectl").ok
    c = p("own/chronyc-c-tracking-synced.txt", "chrony-tracking")
    assert (c["reference"], c["stratum"], c["offset_s"], c["synchronized"]) == ("10.20.0.1", 3, -0.000021533, True)
    u = p("own/chronyc-c-tracking-not-synchronised.txt", "chrony-tracking")
    assert (u["leap"], u["synchronized"]) == ("Not synchronised", False)
