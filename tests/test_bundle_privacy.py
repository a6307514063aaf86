"""Nothing private in a support bundle, on every simulated machine: secrets planted in the environment, in
the kernel's messages, in every log file and in npu-smi's answers never reach the archive; the host name
only with --include-hostname, as for the snapshot."""
from __future__ import annotations

import dataclasses
import io
import tarfile

import pytest

from ascend_doctor.diagnose.services.bundle import collect_from
from ascend_doctor.diagnose.system import SimulatedSystem, System, list_profiles

SECRETS = {"HF_TOKEN": "hf_Plant3dHubT0ken9931", "MINDIE_DB_PWD": "Plant3dDbPw-5521",
           "VLLM_API_KEY": "sk-plant3d-vllm-44f1", "MY_JOB_NOTE": "PlantedOpaqueId7788x",
           "VLLM_ENDPOINT": "https://admin:Plant3dHunter2@10.9.9.9:8000/v1"}
PLANTED_LINES = (
    "[INFO] RUNTIME(1,python3):2025-06-12-09:30:15.001.213 [init.cc:1]1 export HF_TOKEN=hf_Plant3dHubT0ken9931\n"
    "[INFO] GE(1,python3):2025-06-12-09:30:15.001.214 [x.cc:2]1 loaded key hf_Plant3dHubT0ken9931 and PlantedOpaqueId7788x\n"
    "[ERROR] HCCL(1,python3):2025-06-12-09:30:15.001.215 [y.cc:3]1 pull https://bob:Plant3dRegistryPw@registry.example.com/v2/x\n"
    "[INFO] TDT(1,python3):2025-06-12-09:30:15.001.216 [z.cc:4]1 request Authorization: Bearer eyJPlant3dBearerTok3n.x\n"
    "[INFO] TDT(1,python3):2025-06-12-09:30:15.001.217 [z.cc:5]1 db password=Plant3dPassw0rd, api_key: \"sk-Plant3dInline\"\n"
    "[INFO] TDT(1,python3):2025-06-12-09:30:15.001.218 [z.cc:6]1 cmd: vllm serve /m --api-key sk-Plant3dOption\n"
    "[INFO] DRV(1,x):2025-06-12-09:30:15.001.219 [w.c:7] board SN: 2102313LNPPLANT3D serial uuid "
    "123e4567-e89b-12d3-a456-426614174000\n"
)
NEEDLES = ["hf_Plant3dHubT0ken9931", "Plant3dDbPw-5521", "sk-plant3d-vllm-44f1", "PlantedOpaqueId7788x",
           "Plant3dHunter2", "Plant3dRegistryPw", "eyJPlant3dBearerTok3n", "Plant3dPassw0rd", "sk-Plant3dInline",
           "sk-Plant3dOption", "2102313LNPPLANT3D", "123e4567-e89b-12d3-a456-426614174000"]


class Planted(System):
    """A simulated machine with secrets planted in its environment, its kernel messages, every log file and
    every npu-smi answer, and its host name written into the logs."""

    def __init__(self, inner: SimulatedSystem) -> None:
        self.inner, self.origin = inner, inner.origin
        self.hostname = inner.uname().nodename

    def _plant(self) -> str:
        return PLANTED_LINES + f"[INFO] HCCL(1,python3):2025-06-12-09:30:15.001.220 [h.cc:8]1 npu host {self.hostname} ready\n"

    def env(self):
        return {**self.inner.env(), **SECRETS}

    def run(self, argv, timeout=10.0):
        r = self.inner.run(argv, timeout)
        if argv and str(argv[0]) == "dmesg" and r.ok:
            lines = "".join(f"[Thu Jun 12 09:30:15 2025] [ascend] [devmm] {ln}\n" for ln in self._plant().splitlines())
            return dataclasses.replace(r, stdout=r.stdout + lines)
        if "npu-smi" in str(argv[0]) and "-t" in argv and r.stdout:
            return dataclasses.replace(r, stdout=r.stdout + self._plant())
        return r

    def read_tail(self, path, limit):
        return self.inner.read_tail(path, limit) + self._plant().encode()

    def read_file(self, path, limit=4 * 1024 * 1024):
        return self.inner.read_file(path, limit)

    def list_dir(self, path):
        return self.inner.list_dir(path)

    def stat(self, path):
        return self.inner.stat(path)

    def lstat(self, path):
        return self.inner.lstat(path)

    def read_link(self, path):
        return self.inner.read_link(path)

    def fs_size(self, path):
        return self.inner.fs_size(path)

    def identity(self):
        return self.inner.identity()

    def uname(self):
        return self.inner.uname()

    def user_exists(self, name):
        return self.inner.user_exists(name)


def archive_text(data: bytes) -> str:
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        return "\n".join(tar.extractfile(m).read().decode("utf-8", "replace") for m in tar.getmembers() if m.isfile())


@pytest.mark.parametrize("name", list_profiles())
def test_no_planted_secret_survives_on_any_profile(name):
    system = Planted(SimulatedSystem(name))
    b = collect_from(system, None, 2)
    text = archive_text(b.archive())
    leaked = [n for n in NEEDLES if n in text]
    assert not leaked, f"{name}: {leaked}"
    assert system.hostname not in text, f"{name}: host name kept"
    # something was planted and removed (every profile has at least a log or a command answer to plant in)
    totals = b.manifest()["redacted"]["texts"]
    assert totals.get("secret_value") and totals.get("hostname"), (name, totals)
    # the profile's own secrets (healthy-a2-vllm-container passes HF_TOKEN into the container) never either
    for value in SimulatedSystem(name).env().values():
        if value.startswith(("hf_", "sk-")):
            assert value not in text


def test_the_host_name_is_kept_only_when_asked():
    system = Planted(SimulatedSystem("healthy-a2-host"))
    kept = archive_text(collect_from(system, None, 2, include_hostname=True).archive())
    assert "npu host a2-host-01 ready" in kept and "hf_Plant3dHubT0ken9931" not in kept


def test_useful_numbers_are_not_mistaken_for_secrets():
    from ascend_doctor.diagnose.bundle.redact import Redactor

    line = ("INFO engine args: max_num_batched_tokens=8192, tokenizer=/models/qwen, max_model_len=32768 "
            "Basic information: rootinfo identifier[10.20.0.11%enp189s0f0_60000_0_1749720618770881] error code 507035")
    text, counts = Redactor({"PATH": "/usr/bin", "HOME": "/root"}, "localhost").redact(line)
    assert text == line and counts == {}
