"""Bundled simulated machines: each loads, is listed, and shows the facts its description promises."""
from __future__ import annotations

import re
import time

import pytest

from ascend_doctor.diagnose.probes import collect
from ascend_doctor.diagnose.system import PROFILES_DIR, ProfileError, SimulatedSystem, list_profiles, load_profile

REQUIRED = ["healthy-a2-vllm-container", "healthy-a2-host", "healthy-a3-host", "healthy-300i-duo", "healthy-200i-dk-a2",
            "atlas-800-9000-910prob-vllm", "no-driver", "container-missing-device-nodes", "container-driver-not-mounted",
            "npu-held-by-other-container", "driver-firmware-nok", "cann-newer-than-driver",
            "kernel-6-hdk-25.5-weight-hang", "cann-env-not-sourced", "torch-npu-mismatch", "npu-smi-hangs"]


def facts(name):
    return collect(SimulatedSystem(name), python=SimulatedSystem(name).profile.python.get("executable"), timeout=2)


def test_every_required_profile_exists_with_a_description():
    names = list_profiles()
    assert set(REQUIRED) <= set(names) and len(names) >= 14
    for n in names:
        p = load_profile(n)
        assert p.description and "\n" not in p.description
        assert all(re.fullmatch(r"[a-z0-9-]+", x) for x in p.expected_problems)
        assert n.startswith("healthy-") == (p.expected_problems == []), n


def test_profiles_are_data_only():
    assert not list(PROFILES_DIR.rglob("*.py"))


@pytest.mark.parametrize("name", REQUIRED)
def test_every_profile_runs_and_no_probe_crashes(name):
    fs = facts(name)
    assert not [f.key for f in fs if f.key.startswith("probe.")]
    assert fs.origin == f"sim:{name}"
    assert fs.get("os.id").ok and fs.get("kernel.release").ok and fs.get("user.uid").ok


@pytest.mark.parametrize("name, family, count, soc", [
    ("healthy-a2-vllm-container", "a2", 8, "Ascend910B3"),
    ("healthy-a2-host", "a2", 8, "Ascend910B4"),
    ("healthy-a3-host", "a3", 16, "Ascend910_9391"),
    ("healthy-300i-duo", "310p", 4, "Ascend310P3"),
    ("healthy-200i-dk-a2", "310b", 1, "Ascend310B4"),
    ("atlas-800-9000-910prob-vllm", "910", 8, "Ascend910ProB"),
])
def test_healthy_and_hardware_profiles(name, family, count, soc):
    fs = facts(name)
    assert fs.value("hardware.family") == family
    assert fs.value("npu.count") == count
    assert fs.value("npu.soc_version") == soc
    assert fs.value("npu.compatibility") == "OK"
    assert all(h["health"] == "OK" for h in fs.value("npu.health"))
    assert fs.get("cann.version").ok and fs.get("driver.version").ok


def test_healthy_container_facts():
    fs = facts("healthy-a2-vllm-container")
    assert fs.value("container.kind") == "docker"
    assert {"davinci_manager", "devmm_svm", "hisi_hdc", "davinci0", "davinci7"} <= set(fs.value("dev.nodes"))
    assert fs.value("mounts.present")["/usr/local/Ascend/driver/lib64"] is True
    assert (fs.value("cann.version"), fs.value("cann.layout")) == ("9.1.0", "cann")
    assert (fs.value("pkg.vllm_ascend"), fs.value("pkg.torch_npu")) == ("0.23.0", "2.10.0.post4")
    assert fs.value("shm.size_bytes") == 16 * 1024 ** 3
    assert fs.value("firmware.version") == "7.8.0.6.201"             # from npu-smi board: no firmware dir in a container


def test_broken_profiles_show_their_fault():
    fs = facts("no-driver")
    assert fs.value("driver.installed") is False and fs.get("npu_smi.path").status == "missing"
    assert not [n for n in fs.value("dev.nodes") if n.startswith("davinci")] and fs.value("driver.modules") == []
    fs = facts("container-missing-device-nodes")
    assert not {"davinci_manager", "devmm_svm", "hisi_hdc"} & set(fs.value("dev.nodes"))
    assert fs.value("npu_smi.dcmi_error") == "-8005"
    fs = facts("container-driver-not-mounted")
    assert fs.value("mounts.present")["/usr/local/Ascend/driver/lib64"] is False and fs.get("npu.count").ok
    fs = facts("npu-held-by-other-container")
    assert fs.value("npu_smi.dcmi_error") == "-8020" and fs.get("npu_smi.info").status == "error"
    fs = facts("driver-firmware-nok")
    assert fs.value("npu.compatibility") == "NOK" and fs.value("firmware.version") == "7.1.0.11.220"
    fs = facts("cann-newer-than-driver")
    assert (fs.value("cann.version"), fs.value("driver.version")) == ("9.2.0", "25.2.0")
    fs = facts("kernel-6-hdk-25.5-weight-hang")
    assert fs.value("kernel.release").startswith("6.6") and fs.value("driver.version") == "25.5.0"
    assert fs.get("pkg.vllm_ascend").ok
    fs = facts("cann-env-not-sourced")
    assert fs.get("env.LD_LIBRARY_PATH").status == "missing" and fs.get("env.ASCEND_TOOLKIT_HOME").status == "missing"
    assert fs.value("cann.version") == "8.2.RC1"
    fs = facts("torch-npu-mismatch")
    assert (fs.value("pkg.torch"), fs.value("pkg.torch_npu")) == ("2.6.0", "2.9.0")


def test_hanging_npu_smi_profile_finishes_at_once_with_a_timeout_fact():
    start = time.monotonic()
    fs = collect(SimulatedSystem("npu-smi-hangs"), timeout=5)
    assert time.monotonic() - start < 2
    f = fs.get("npu_smi.info")
    assert f.status == "timeout" and 5000 <= f.duration_ms < 5100 and "no answer within 5 s" in f.detail
    assert fs.get("driver.version").ok


def test_unknown_or_bad_profile_names():
    with pytest.raises(ProfileError, match="unknown profile"):
        load_profile("nope")
    with pytest.raises(ProfileError, match="invalid profile name"):
        load_profile("../etc")
