"""A private snapshot holds only what concerns Ascend (reliability review D5): no passwords, licences or
credentials inside URLs; no open files of other processes; of the mount table only /dev/shm and
Ascend's mounts."""
from __future__ import annotations

import json
import os

from ascend_doctor.diagnose.probes.host import env_allowed
from ascend_doctor.diagnose.snapshot import take_snapshot
from ascend_doctor.diagnose.system import RealSystem, scrub


def _k(*parts) -> str:
    return json.dumps(list(parts), separators=(",", ":"))


def test_scrub_keeps_only_ascend_concerns():
    calls = {
        _k("env"): {"value": {"MINDIE_DB_PWD": "pw1", "ASCEND_PASS": "pw2", "HCCN_PASSPHRASE": "pw3",
                              "ASCEND_DOCKER_REGISTRY_LOGIN": "me:pw", "NPU_LICENSE": "L-1",
                              "VLLM_ENDPOINT": "https://admin:hunter2@10.9.9.9:8000/v1",
                              "SGLANG_DB_URI": "postgres://u:p4ss@db/x", "HCCL_IF_IP": "10.0.0.1"}},
        _k("list_dir", "/proc"): {"value": ["1", "10", "11", "12", "self"]},
        _k("list_dir", "/proc/10/fd"): {"value": ["0", "5"]},
        _k("read_link", "/proc/10/fd/0"): {"value": "/home/alice/job.log"},
        _k("read_link", "/proc/10/fd/5"): {"value": "/dev/davinci0"},
        _k("list_dir", "/proc/11/fd"): {"value": ["3"]},
        _k("read_link", "/proc/11/fd/3"): {"value": "/root/.cache/secret.db"},
        _k("list_dir", "/proc/12/fd"): {"error": "PermissionError", "errno": 13},
        _k("read_file", "/proc/mounts"): {"value": {"text": "nfs01:/models /mnt/models nfs rw 0 0\n"
                                                            "tmpfs /dev/shm tmpfs rw,size=65536k 0 0\n"
                                                            "/dev/sda1 /usr/local/Ascend/driver ext4 ro 0 0\n"}},
    }
    out = scrub(calls, env_allowed)
    text = json.dumps(out)
    for secret in ("pw1", "pw2", "pw3", "me:pw", "L-1", "hunter2", "p4ss", "alice", "secret.db", "nfs01"):
        assert secret not in text, secret
    env = out[_k("env")]["value"]
    assert env["VLLM_ENDPOINT"].startswith("https://") and env["VLLM_ENDPOINT"].endswith("@10.9.9.9:8000/v1")
    assert env["HCCL_IF_IP"] == "10.0.0.1"          # a fleet needs device addresses; kept, said in the README
    assert out[_k("read_link", "/proc/10/fd/5")]["value"] == "/dev/davinci0"
    assert out[_k("list_dir", "/proc")]["value"] == ["10", "12", "self"]
    mounts = out[_k("read_file", "/proc/mounts")]["value"]["text"]
    assert "/dev/shm" in mounts and "/usr/local/Ascend/driver" in mounts


def test_live_snapshot_has_no_other_process_files_or_secrets(monkeypatch, tmp_path):
    secret_file = tmp_path / "other-users-job.log"
    fh = open(secret_file, "w")                       # this test process holds an unrelated open file
    try:
        env = {**os.environ, "MINDIE_DB_PWD": "pw1", "VLLM_ENDPOINT": "https://admin:hunter2@10.9.9.9:8000"}
        snap = take_snapshot(RealSystem(env=env), timeout=5)
    finally:
        fh.close()
    text = snap.to_json()
    assert "pw1" not in text and "hunter2" not in text
    assert str(secret_file) not in text
    links = [v.get("value") for k, v in snap.calls.items() if k.startswith('["read_link"')]
    assert all(str(v).startswith("/dev/") for v in links), links[:5]


def test_snapshot_output_is_never_clobbered_or_followed(cli, tmp_path):
    keep = tmp_path / "keep.txt"
    keep.write_text("precious")
    r = cli("snapshot", "--sim", "healthy-a2-host", "-o", str(keep))
    assert r.code == 2 and "--force" in r.err
    assert keep.read_text() == "precious"
    target = tmp_path / "target.conf"
    target.write_text("cfg")
    target.chmod(0o644)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    r = cli("snapshot", "--sim", "healthy-a2-host", "-o", str(link), "--force")
    assert r.code == 0, r.err
    assert target.read_text() == "cfg" and (target.stat().st_mode & 0o777) == 0o644
    assert not link.is_symlink() and (link.stat().st_mode & 0o777) == 0o600


def test_snapshot_to_stdout(cli):
    r = cli("snapshot", "--sim", "healthy-a2-host", "-o", "-")
    assert r.code == 0, r.err
    assert json.loads(r.out)["format"]


def test_a_full_disk_leaves_the_old_file(monkeypatch, tmp_path):
    import errno

    from ascend_doctor.diagnose import files

    old = tmp_path / "s.json"
    old.write_text("old")
    real_write = os.write

    def full(fd, data):
        if len(data) > 10:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)
    monkeypatch.setattr(files.os, "write", full)
    try:
        files.write_file(str(old), "x" * 100)
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    else:
        raise AssertionError("no error on a full disk")
    assert old.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_a_huge_replay_file_is_refused_before_it_is_parsed(cli, tmp_path, monkeypatch):
    from ascend_doctor.diagnose import snapshot

    monkeypatch.setattr(snapshot, "MAX_SNAPSHOT", 1024)
    p = tmp_path / "big.json"
    p.write_text('{"format": "x", "pad": "' + "a" * 4096 + '"}')
    r = cli("check", "--replay", str(p))
    assert r.code == 2 and "larger than" in r.err


def test_preview_shows_what_is_kept_and_left_out_and_writes_nothing(cli_proc, tmp_path):
    env = {**os.environ, "MINDIE_DB_PWD": "pw1", "VLLM_ENDPOINT": "https://admin:hunter2@10.9.9.9:8000"}
    r = cli_proc("snapshot", "--preview", env=env)
    assert r.code == 0, r.err
    assert "environment left out:" in r.out and "MINDIE_DB_PWD" in r.out      # a name, never its value
    assert "credentials removed from: VLLM_ENDPOINT" in r.out
    assert "pw1" not in r.out and "hunter2" not in r.out
    assert not list(tmp_path.iterdir())
