"""``ascend-doctor bundle``: what a support bundle holds on every simulated machine, the archive, the limits."""
from __future__ import annotations

import io
import json
import os
import tarfile
from pathlib import Path

import pytest

from ascend_doctor.diagnose.bundle import logs
from ascend_doctor.diagnose.bundle.redact import Redactor
from ascend_doctor.diagnose.services.bundle import collect_bundle, collect_from, parse_size
from ascend_doctor.diagnose.services.machine import MachineSpec
from ascend_doctor.diagnose.snapshot import load_snapshot
from ascend_doctor.diagnose.system import SimulatedSystem, list_profiles, load_profile


def members(data: bytes) -> dict[str, tuple[tarfile.TarInfo, bytes]]:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return {m.name: (m, tar.extractfile(m).read() if m.isfile() else b"") for m in tar.getmembers()}


@pytest.fixture(scope="module")
def bundles():
    """One bundle per profile, collected once."""
    return {name: collect_bundle(MachineSpec(sim=name, timeout=2)) for name in list_profiles()}


@pytest.mark.parametrize("name", list_profiles())
def test_every_profile_gives_a_valid_private_archive_that_the_manifest_describes(name, bundles, tmp_path):
    b = bundles[name]
    got = members(b.archive())
    folder = next(iter(got)).split("/")[0]
    assert folder.startswith("ascend-doctor-bundle-")
    for n, (m, _) in got.items():
        assert m.isfile() and m.mode == 0o600 and (m.uid, m.gid, m.uname, m.gname) == (0, 0, "", "")
        assert n.startswith(folder + "/") and ".." not in n.split("/") and not n.startswith("/")
    manifest = json.loads(got[f"{folder}/manifest.json"][1])
    assert manifest["format"] == "ascend-doctor-bundle" and manifest["meta"]["origin"] == f"sim:{name}"
    listed = {f"{folder}/{e['name']}" for e in manifest["collected"]}
    assert listed | {f"{folder}/manifest.json"} == set(got)
    for e in manifest["collected"]:
        assert got[f"{folder}/{e['name']}"][1].__len__() == e["size"]
    assert all(e["reason"] and e["source"] for e in manifest["skipped"])
    # the snapshot inside is the one 'snapshot' writes: replayable, with the same facts
    snap_file = tmp_path / "snapshot.json"
    snap_file.write_bytes(got[f"{folder}/snapshot.json"][1])
    snap = load_snapshot(str(snap_file))
    assert snap.meta["origin"] == f"sim:{name}" and snap.facts


def _sources(b, kind):
    return [e.source for e in b.entries if e.kind == kind and e.kept]


def test_per_device_queries_single_chip_and_multi_die(bundles):
    a2 = _sources(bundles["healthy-a2-host"], "npu-smi")
    assert len(a2) == 8 * 4 and not [s for s in a2 if "-c" in s.split()]
    assert "npu-smi info -t ecc -i 7" in a2 and "npu-smi info -t board -i 0" in a2
    a3 = _sources(bundles["healthy-a3-host"], "npu-smi")
    assert len(a3) == 8 * 4 + 16 * 4                     # every module, and each of its two dies
    assert "npu-smi info -t health -i 7 -c 1" in a3 and "npu-smi info -t board -i 3 -c 0" in a3
    duo = _sources(bundles["healthy-300i-duo"], "npu-smi")
    assert "npu-smi info -t usages -i 2 -c 1" in duo and "npu-smi info -t usages -i 0" not in duo
    dk = {e.source: e for e in bundles["healthy-200i-dk-a2"].entries if e.kind == "npu-smi"}
    ecc = dk["npu-smi info -t ecc -i 0"]
    assert ecc.kept and ecc.info["exit_code"] == 255 and b"does not support" in ecc.data   # its answer is kept


@pytest.mark.parametrize("name, why", [("no-driver", "npu-smi not found"), ("npu-smi-hangs", "timeout"),
                                       ("container-missing-device-nodes", "no device list"),
                                       ("npu-held-by-other-container", "no device list")])
def test_no_device_queries_where_npu_smi_gives_no_device_list(bundles, name, why):
    entries = [e for e in bundles[name].entries if e.kind == "npu-smi"]
    assert len(entries) == 1 and not entries[0].kept and entries[0].reason == "no_devices" and why in entries[0].detail


def test_kernel_messages_keep_only_ascend_lines(bundles):
    k = next(e for e in bundles["healthy-a2-host"].entries if e.kind == "kernel")
    text = k.data.decode()
    assert "[ascend] [devmm]" in text and "drv_pcie_host" in text
    assert "EXT4-fs" not in text and "apparmor" not in text and "Booting Linux" not in text
    assert k.info["lines_kept"] < k.info["lines_total"]
    hang = next(e for e in bundles["npu-smi-hangs"].entries if e.kind == "kernel").data.decode()
    assert "task npu-smi:215002 blocked" in hang and "tsdrv" in hang
    container = next(e for e in bundles["healthy-a2-vllm-container"].entries if e.kind == "kernel")
    assert not container.kept and container.reason == "denied" and "Operation not permitted" in container.detail
    none = next(e for e in bundles["no-driver"].entries if e.kind == "kernel")
    assert not none.kept and none.reason == "not_ascend"


def test_logs_host_app_and_msnpureport_export(bundles):
    b = bundles["healthy-a2-host"]
    kept = {e.source: e for e in b.entries if e.kind == "log" and e.kept}
    assert "/var/log/npu/slog/host-0/host-0_20250612080125118.log" in kept
    assert "/root/ascend/log/debug/plog/plog-204511_20250612093015001.log" in kept
    assert "/var/log/npu/report/20250612101500/hisi_logs/device-0/history.log" in kept
    assert kept["/root/ascend/log/debug/plog/plog-204511_20250612093015001.log"].info["mtime"] == "2025-06-12T09:42:41Z"
    core = [e for e in b.entries if "stackcore" in e.source]
    assert len(core) == 1 and core[0].reason == "core_dump" and not core[0].kept
    # a container without the host's /var/log/npu says so, and still has its application logs
    c = bundles["healthy-a2-vllm-container"]
    assert any(e.source == "/var/log/npu/slog" and e.reason == "missing" for e in c.entries)
    assert any(e.kind == "log" and e.kept and "/plog/" in e.source for e in c.entries)
    # RC mode (200I DK A2): everything under /var/log/npu/slog
    assert any("/var/log/npu/slog/debug/plog/" in e.source for e in bundles["healthy-200i-dk-a2"].kept)


# -- the log limit, links, FIFOs and binaries on a machine of our own -------------------------------------------
def _machine(tmp_path: Path, files: dict[str, bytes], times: dict[str, str], links: dict[str, str] = None):
    prof = tmp_path / "profiles" / "logbox"
    (prof / "root").mkdir(parents=True)
    lines = ['description = "logs only"', "[system]", 'hostname = "logbox-07"', "[identity]", "uid = 0",
             "[file_times]"] + [f'"{p}" = {t}' for p, t in times.items()]
    (prof / "profile.toml").write_text("\n".join(lines) + "\n")
    for path, data in files.items():
        f = prof / "root" / path.lstrip("/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(data)
    for path, target in (links or {}).items():
        f = prof / "root" / path.lstrip("/")
        f.parent.mkdir(parents=True, exist_ok=True)
        f.symlink_to(target)
    return SimulatedSystem(load_profile("logbox", base=tmp_path / "profiles"))


def test_the_limit_keeps_the_newest_lines_of_each_category_in_turn(tmp_path):
    big = b"".join(b"[INFO] HCCL(1,python3):line %06d\n" % i for i in range(20000))      # ~640 KB
    system = _machine(tmp_path, {
        "/root/ascend/log/debug/plog/plog-1_new.log": big,
        "/root/ascend/log/debug/plog/plog-1_old.log": b"old plog line\n" * 150,
        "/var/log/npu/slog/host-0/host-0_new.log": b"[INFO] DRV(1,m):host\n" * 10,
    }, {"/root/ascend/log/debug/plog/plog-1_new.log": "2025-06-12T10:00:00Z",
        "/root/ascend/log/debug/plog/plog-1_old.log": "2025-06-01T10:00:00Z",
        "/var/log/npu/slog/host-0/host-0_new.log": "2025-06-12T09:00:00Z"})
    entries = logs.collect(system, 64 * 1024, Redactor({}))
    kept = {e.source: e for e in entries if e.kept}
    new = kept["/root/ascend/log/debug/plog/plog-1_new.log"]
    assert new.truncated and new.original_size == len(big) and new.size <= 16 * 1024   # a quarter of the limit
    assert new.data.endswith(b"line 019999\n") and new.data.startswith(b"[INFO]")          # newest, whole lines
    assert "/var/log/npu/slog/host-0/host-0_new.log" in kept       # the host's slog is not crowded out
    assert sum(e.size for e in kept.values()) <= 64 * 1024
    tiny = logs.collect(system, 5000, Redactor({}))
    assert [e.reason for e in tiny if e.source.endswith("plog-1_old.log")] == ["size_limit"]


def test_links_fifos_binaries_and_unreadable_files_are_left_out(tmp_path):
    system = _machine(tmp_path, {
        "/etc/shadow": b"root:$6$secret:19000:0:99999:7:::\n",
        "/root/ascend/log/debug/plog/plog-2_a.log": b"fine\n",
        "/root/ascend/log/debug/plog/plog-3_b.log.gz": b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03",
        "/root/ascend/log/debug/plog/core.123": b"\x7fELF\x00\x00\x00core",
        "/root/ascend/log/debug/plog/plog-4_c.log.unreadable": b"secret\n",
    }, {}, links={"/root/ascend/log/debug/plog/plog-9_planted.log": "/etc/shadow",
                  "/root/ascend/log/run": "/etc"})
    entries = {e.source.rsplit("/", 1)[-1]: e for e in logs.collect(system, 1 << 20, Redactor({}))}
    assert entries["plog-2_a.log"].kept
    assert entries["plog-9_planted.log"].reason == "link" and entries["run"].reason == "link"
    assert entries["core.123"].reason == "binary"
    assert entries["plog-4_c.log.unreadable"].reason == "denied"
    assert not any(b"$6$secret" in e.data for e in entries.values())


def test_a_real_fifo_or_link_under_a_log_folder_is_never_opened(tmp_path):
    from ascend_doctor.diagnose.system import RealSystem

    root = tmp_path / "ascend" / "log"
    (root / "debug" / "plog").mkdir(parents=True)
    (root / "debug" / "plog" / "plog-1_a.log").write_text("[INFO] ok\n")
    os.mkfifo(root / "debug" / "plog" / "plog-2_fifo.log")
    secret = tmp_path / "secret.txt"
    secret.write_text("do not read")
    (root / "debug" / "plog" / "plog-3_link.log").symlink_to(secret)
    env = {"ASCEND_PROCESS_LOG_PATH": str(root), "PATH": "/usr/bin:/bin"}
    entries = logs.collect(RealSystem(env=env), 1 << 20, Redactor({}))
    by = {e.source.rsplit("/", 1)[-1]: e for e in entries}
    assert by["plog-1_a.log"].kept and by["plog-2_fifo.log"].reason == "not_regular"
    assert by["plog-3_link.log"].reason == "link"


def test_sizes():
    assert parse_size("32M") == 32 << 20 and parse_size("512k") == 512 << 10 and parse_size("1G") == 1 << 30
    assert parse_size("100") == 100 and parse_size("1.5M") == int(1.5 * (1 << 20)) and parse_size("2MiB") == 2 << 20
    assert parse_size("lots") is None and parse_size("-1M") is None and parse_size("2G") is None


def test_collect_from_any_system_reads_nothing_it_must_not(tmp_path):
    """Read-only: every call a bundle makes is a read (the simulated System has no write method at all)."""
    b = collect_from(SimulatedSystem("healthy-a2-host"), None, 2)
    assert b.kept and all(e.kind in ("snapshot", "npu-smi", "kernel", "log") for e in b.entries)


@pytest.mark.parametrize("name", list_profiles())
def test_the_bundle_redaction_changes_no_fact_of_the_snapshot(name, bundles):
    """The bundle removes secrets from the snapshot's texts too; the facts stay those of 'snapshot'."""
    from ascend_doctor.diagnose.snapshot import take_snapshot

    inside = json.loads(bundles[name].entries[0].data)["facts"]
    system = SimulatedSystem(name)
    plain = take_snapshot(system, python=system.profile.python.get("executable"), timeout=2).facts
    strip = lambda facts: [(f["key"], f["status"], f.get("value")) for f in facts]  # noqa: E731
    assert strip(inside) == strip(plain)


def test_the_ascend_lines_of_a_kernel_log():
    from ascend_doctor.diagnose.bundle.kernel import ascend_lines

    text = (Path(__file__).parent / "fixtures" / "samples" / "own" / "dmesg-T-ascend-driver-and-others.txt").read_text()
    kept, n, total = ascend_lines(text)
    assert (n, total) == (5, 8)
    assert "EXT4-fs" not in kept and "usb 1-1" not in kept and "docker0" not in kept
    assert "drv_pcie_host: loading" in kept and "Get_user_pages_fast fail" in kept and "task npu-smi:215002" in kept
