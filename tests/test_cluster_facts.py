"""The facts a fleet needs, from the probes: NPU NICs, hccn.conf, rank table, SuperPoD, clock, host network,
and snapshot --node / --label. Real formats go through the real parsers (simulated and replayed machines)."""
from __future__ import annotations

import json
import os
import stat

from ascend_doctor.diagnose.probes import collect
from ascend_doctor.diagnose.snapshot import load_snapshot, take_snapshot
from ascend_doctor.diagnose.system import ReplaySystem, SimulatedSystem, call_key

PY = "/usr/local/python3.11.13/bin/python3"


def sim_calls(name="healthy-a2-host"):
    return take_snapshot(SimulatedSystem(name), python=PY, timeout=2).calls


def facts_of(calls):
    return collect(ReplaySystem(calls), python=PY, timeout=2)


def set_stdout(calls, argv, text, exit_code=0):
    entry = calls[call_key("run", *argv)]
    entry["value"].update(stdout=text, exit_code=exit_code)


def test_healthy_a2_host_nics_clock_and_network():
    fs = facts_of(sim_calls())
    devs = fs.value("hccn.devices")
    assert [d["device"] for d in devs] == list(range(8))
    assert devs[3] == {"device": 3, "ipaddr": "10.20.1.14", "netmask": "255.255.255.0", "link": "UP",
                       "net_health": "Success", "tls_switch": 0, "tls_preconfigured": 1, "netdetect": "10.20.1.254",
                       "gateway": "10.20.1.254", "errors": {}}
    assert fs.value("hccn.conf")["3"]["address"] == "10.20.1.14" and fs.value("hccn.conf_mismatch") == []
    assert fs.value("clock.ntp_synchronized") is True and abs(fs.value("clock.offset_s")) < 0.001
    assert fs.value("clock.source") == "chrony"
    assert "enp189s0f0" in fs.value("net.ifaces")
    assert {"ifname": "enp189s0f0", "family": "inet", "address": "172.16.1.11", "prefix": 16} in fs.value("net.host_addrs")
    assert fs.value("sysctl.somaxconn") == 4096 and fs.value("sysctl.tcp_max_syn_backlog") == 4096
    assert fs.get("npu.spod").status == "missing" and fs.get("rank_table").status == "missing"


def test_a3_superpod_identity_per_chip():
    fs = facts_of(sim_calls("healthy-a3-host"))
    spod = fs.value("npu.spod")
    assert len(spod) == 16 and {s["super_pod_id"] for s in spod} == {1}
    assert spod[3] == {"npu_id": 1, "chip_id": 1, "sdid": (1 << 22) | (1 << 18) | (1 << 16) | 3,
                       "super_pod_size": 384, "super_pod_id": 1, "server_index": 1}
    assert len(fs.value("hccn.devices")) == 16


def test_a_hung_and_a_failing_nic_query_are_kept_per_device_never_guessed():
    calls = sim_calls()
    tool = "/usr/local/Ascend/driver/tools/hccn_tool"
    calls[call_key("run", tool, "-i", "5", "-tls", "-g")]["value"].update(
        exit_code=None, stdout="", timed_out=True, error="no answer within 2 s; process group killed")
    set_stdout(calls, [tool, "-i", "6", "-link", "-g"], "link status: DOWN\n")
    set_stdout(calls, [tool, "-i", "2", "-ip", "-g"], "ipaddr:10.20.1.99\nnetmask:255.255.255.0\n")
    fs = facts_of(calls)
    devs = {d["device"]: d for d in fs.value("hccn.devices")}
    assert devs[5]["tls_switch"] is None and devs[5]["errors"]["tls"].startswith("timeout")
    assert devs[6]["link"] == "DOWN" and fs.get("hccn.devices").ok
    assert fs.value("hccn.conf_mismatch") == [{"device": 2, "field": "address", "conf": "10.20.1.13", "live": "10.20.1.99"}]


def test_no_hccn_tool_means_missing_not_error():
    fs = facts_of(sim_calls("healthy-a2-vllm-container"))
    assert fs.get("hccn.devices").status == "missing" and "hccn_tool not found" in fs.get("hccn.devices").detail


def test_rank_table_hash_problems_and_own_entry():
    calls = sim_calls()
    table = {"version": "1.0", "status": "completed", "server_count": "2", "server_list": [
        {"server_id": "172.16.1.11", "device": [{"device_id": str(i), "device_ip": f"10.20.1.{11 + i}",
                                                  "rank_id": str(i)} for i in range(8)]},
        {"server_id": "172.16.1.12", "device": [{"device_id": str(i), "device_ip": f"10.20.2.{11 + i}",
                                                  "rank_id": str(8 + i)} for i in range(8)]}]}
    text = json.dumps(table, indent=2)
    calls[call_key("env")]["value"]["RANK_TABLE_FILE"] = "/job/rank_table.json"
    calls[call_key("read_file", "/job/rank_table.json")] = {"value": {"text": text}, "ms": 0.1}
    v = facts_of(calls).value("rank_table")
    import hashlib
    assert v["sha256"] == hashlib.sha256(text.encode()).hexdigest() and v["problems"] == []
    assert (v["version"], v["servers"], v["ranks"], v["self_by"]) == ("1.0", 2, 16, "server_id")
    assert v["self"]["devices"][0] == {"device_id": 0, "device_ip": "10.20.1.11", "rank_id": 0, "super_device_id": None}
    assert v["server_ids"] == ["172.16.1.11", "172.16.1.12"]
    calls[call_key("env")]["value"]["RANK_TABLE_FILE"] = "/job/absent.json"
    f = facts_of(calls).get("rank_table")
    assert f.status == "error" and "does not exist" in f.detail


def test_clock_from_timedatectl_when_chrony_is_absent():
    calls = sim_calls()
    del calls[call_key("run", "chronyc", "-c", "tracking")]
    calls[call_key("run", "timedatectl", "show")] = {"ms": 1.0, "value": {
        "argv": ["timedatectl", "show"], "exit_code": 0, "stderr": "",
        "stdout": "Timezone=UTC\nNTP=no\nNTPSynchronized=no\nTimeUSec=Tue 2026-03-10 09:15:35 UTC\n"}}
    fs = facts_of(calls)
    assert fs.value("clock.ntp_synchronized") is False and fs.value("clock.source") == "timedatectl"
    assert fs.get("clock.offset_s").status == "missing"


def test_snapshot_node_label_and_multi_node_env(tmp_path, cli):
    out = tmp_path / "n1.json"
    r = cli("snapshot", "--sim", "healthy-a2-host", "--node", "node001", "--label", "rack=r01", "--label",
            "superpod=sp1", "-o", str(out))
    assert r.code == 0, r.err
    snap = load_snapshot(str(out))
    assert snap.meta["node"] == "node001" and snap.meta["labels"] == {"rack": "r01", "superpod": "sp1"}
    assert "addresses" in snap.meta["holds"] and stat.S_IMODE(os.stat(out).st_mode) == 0o600
    for bad in (["--node", "../x"], ["--label", "rack"], ["--label", "=x"]):
        r = cli("snapshot", "--sim", "healthy-a2-host", *bad, "-o", str(tmp_path / "x.json"))
        assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err


def test_multi_node_variables_are_kept_and_secrets_are_not():
    from ascend_doctor.diagnose.probes.host import env_allowed

    for name in ("MASTER_ADDR", "MASTER_PORT", "WORLD_SIZE", "TP_SOCKET_IFNAME",
                 "RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES", "HCCL_IF_IP"):
        assert env_allowed(name), name
    assert not env_allowed("MASTER_PASSWORD") and not env_allowed("HOME")
