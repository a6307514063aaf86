"""ascend-doctor facts / profiles / snapshot as a user runs them."""
from __future__ import annotations

import json
import os
import stat

S_ARGS = ("--sim", "healthy-a2-vllm-container")


def test_facts_json_for_a_profile(cli):
    r = cli("facts", *S_ARGS, "--format", "json")
    assert r.code == 0 and r.err == ""
    data = json.loads(r.out)
    assert data["origin"] == "sim:healthy-a2-vllm-container"
    f = {x["key"]: x for x in data["facts"]}
    assert f["npu.count"]["value"] == 8 and f["npu.count"]["status"] == "ok"
    assert f["npu.count"]["source"].endswith("npu-smi info")
    assert all({"key", "value", "status", "source", "duration_ms"} <= set(x) for x in data["facts"])


def test_facts_text_shows_status_source_and_detail(cli):
    r = cli("facts", "--sim", "npu-smi-hangs", "--key", "npu_smi.info")
    assert r.code == 0
    assert "timeout" in r.out and "npu_smi.info" in r.out and "no answer within" in r.out


def test_facts_text_escapes_markup_from_the_machine(cli, tmp_path):
    r = cli("facts", "--sim", "healthy-a2-host", "--key", "os.pretty_name")
    assert "Ubuntu 22.04.3 LTS" in r.out


def test_facts_unknown_profile_is_one_line_exit_2(cli):
    r = cli("facts", "--sim", "no-such-machine")
    assert r.code == 2 and r.err.count("\n") == 1 and "unknown profile" in r.err and "Traceback" not in r.err


def test_facts_sim_and_replay_are_exclusive(cli):
    r = cli("facts", "--sim", "no-driver", "--replay", "x.json")
    assert r.code == 2 and "not allowed with" in r.err


def test_facts_bad_replay_files(cli, tmp_path):
    assert cli("facts", "--replay", str(tmp_path / "none.json")).code == 2
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = cli("facts", "--replay", str(bad))
    assert r.code == 2 and "not a snapshot" in r.err
    other = tmp_path / "other.json"
    other.write_text('{"format": "ascend-doctor-snapshot", "version": 99}')
    r = cli("facts", "--replay", str(other))
    assert r.code == 2 and "version" in r.err


def test_facts_key_filter_not_found(cli):
    r = cli("facts", *S_ARGS, "--key", "zzz")
    assert r.code == 1 and "zzz" in r.err


def test_profiles_lists_one_per_line_name_first(cli):
    r = cli("profiles")
    assert r.code == 0
    lines = r.out.strip().splitlines()
    assert len(lines) >= 16
    names = [ln.split()[0] for ln in lines]
    assert "healthy-a2-vllm-container" in names and "npu-smi-hangs" in names and names == sorted(names)
    assert all(len(ln.split(None, 1)) == 2 for ln in lines)
    data = json.loads(cli("profiles", "--format", "json").out)
    assert {p["name"]: p for p in data["profiles"]}["no-driver"]["expected_problems"] == ["driver-not-installed"]


def test_snapshot_then_replay_gives_the_same_facts(cli, tmp_path):
    out = tmp_path / "snap.json"
    r = cli("snapshot", "-o", str(out), "--sim", "driver-firmware-nok", "--timeout", "2")
    assert r.code == 0 and "mode 0600" in r.err
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    stored = json.loads(out.read_text())
    assert stored["format"] == "ascend-doctor-snapshot" and stored["version"] == 1
    replay = json.loads(cli("facts", "--replay", str(out), "--format", "json").out)
    assert replay["facts"] == stored["facts"]
    assert {f["key"]: f for f in replay["facts"]}["npu.compatibility"]["value"] == "NOK"


def test_snapshot_of_the_live_machine_replays_identically(cli, tmp_path):
    out = tmp_path / "live.json"
    assert cli("snapshot", "-o", str(out), "--timeout", "2").code == 0
    stored = json.loads(out.read_text())
    replay = json.loads(cli("facts", "--replay", str(out), "--format", "json").out)
    assert replay["facts"] == stored["facts"]


def test_snapshot_into_missing_directory(cli, tmp_path):
    r = cli("snapshot", "-o", str(tmp_path / "no" / "s.json"))
    assert r.code == 2 and "does not exist" in r.err


def test_live_facts_run_in_a_subprocess_without_traceback(cli_proc):
    r = cli_proc("facts", "--format", "json", "--timeout", "2")
    assert r.code == 0 and "Traceback" not in r.err
    keys = {f["key"] for f in json.loads(r.out)["facts"]}
    assert {"npu_smi.path", "python.version", "kernel.release", "container.kind", "user.uid"} <= keys
