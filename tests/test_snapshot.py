"""Snapshots: private by default, mode 0600, and --replay gives exactly the same facts."""
from __future__ import annotations

import json
import os
import stat

from ascend_doctor.diagnose.snapshot import load_snapshot, take_snapshot, write_snapshot
from ascend_doctor.diagnose.system import RealSystem, ReplaySystem, SimulatedSystem, scrub_text
from ascend_doctor.diagnose.probes import collect


def test_sim_snapshot_replays_to_identical_facts(tmp_path):
    snap = take_snapshot(SimulatedSystem("healthy-a3-host"), python="/usr/local/python3.11.13/bin/python3", timeout=2)
    path = tmp_path / "s.json"
    write_snapshot(snap, str(path))
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    loaded = load_snapshot(str(path))
    replayed = collect(loaded.system(), python=loaded.python, timeout=2)
    assert replayed.to_list() == loaded.facts
    assert replayed.value("npu.count") == 16 and replayed.value("hardware.family") == "a3"


def test_snapshot_is_private(tmp_path, monkeypatch):
    env = {"PATH": "/usr/bin:/bin", "ASCEND_RT_VISIBLE_DEVICES": "0,1", "AWS_SECRET_ACCESS_KEY": "hunter2",
           "HOME": "/home/alice", "VLLM_API_KEY": "sk-xyz", "HCCL_CONNECT_TIMEOUT": "600"}
    snap = take_snapshot(RealSystem(env=env), timeout=2)
    text = json.dumps(snap.calls)
    assert "hunter2" not in text and "sk-xyz" not in text and "/home/alice" not in text
    envs = [v["value"] for k, v in snap.calls.items() if json.loads(k)[0] == "env"]
    assert envs and all(set(e) <= {"PATH", "ASCEND_RT_VISIBLE_DEVICES", "HCCL_CONNECT_TIMEOUT"} for e in envs)
    unames = [v["value"] for k, v in snap.calls.items() if json.loads(k)[0] == "uname"]
    assert unames and all(u["nodename"] == "" for u in unames)
    with_host = take_snapshot(RealSystem(env=env), timeout=2, include_hostname=True)
    assert any(v["value"]["nodename"] == os.uname().nodename for k, v in with_host.calls.items() if json.loads(k)[0] == "uname")
    assert {f["key"]: f for f in snap.facts}["env.HCCL_CONNECT_TIMEOUT"]["value"] == "600"


def test_serials_and_uuids_are_removed():
    text = ("Serial Number                  : 2102314RHT10P81000xx\nVDie ID                        : 42C711D4 20B03704\n"
            "UUID: a61414fb-b04f-b618-ee11-c0441ab24b6d\n0::/docker/" + "ab" * 32 + "\nCompatibility : OK\n")
    out = scrub_text(text)
    assert "2102314RHT" not in out and "42C711D4" not in out and "a61414fb" not in out and "abab" not in out
    assert "Compatibility : OK" in out and out.count("<removed>") == 4


def test_replay_of_unknown_call_behaves_like_missing():
    r = ReplaySystem({})
    assert r.run(["npu-smi", "info"]).not_found
    fs = collect(r, python="/x/python", timeout=1)
    assert fs.get("npu_smi.path").status == "missing" and fs.get("python.version").status == "missing"
