"""What the simulated machines answer to the support bundle: per-device npu-smi queries in their real
formats (parsed by the project's own parsers), the kernel's messages, log files with their times."""
from __future__ import annotations

import pytest

from ascend_doctor.diagnose.parsers import npu_smi_query
from ascend_doctor.diagnose.system import SimulatedSystem, list_profiles

NPU_SMI = "npu-smi"          # found on PATH (its place differs per product)


def test_fill_puts_the_queried_device_into_one_recorded_output():
    s = SimulatedSystem("healthy-a2-host")
    for n in ("0", "5"):
        ecc = npu_smi_query.parse_ecc(s.run([NPU_SMI, "info", "-t", "ecc", "-i", n]).stdout)
        assert ecc.ok and ecc.value["npu_id"] == int(n) and ecc.value["chip_id"] == 0
        assert ecc.value["hbm_double_bit_error_count"] == 0


def test_the_longest_matching_pattern_wins():
    """The 300I Duo's '-t usages -i * -c *' answers a chip query although the parent-style '-i *' matches too."""
    s = SimulatedSystem("healthy-300i-duo")
    chip = npu_smi_query.parse_usages(s.run([NPU_SMI, "info", "-t", "usages", "-i", "2", "-c", "1"]).stdout)
    card = npu_smi_query.parse_usages(s.run([NPU_SMI, "info", "-t", "usages", "-i", "2"]).stdout)
    assert chip.ok and (chip.value["npu_id"], chip.value["chip_id"]) == (2, 1)
    assert card.ok and card.value["npu_id"] == 1          # the recorded card output, as before


@pytest.mark.parametrize("name, chips", [("healthy-a3-host", [(n, c) for n in range(8) for c in (0, 1)]),
                                         ("healthy-300i-duo", [(1, 0), (1, 1), (2, 0), (2, 1)])])
def test_every_die_of_a_multi_chip_product_answers_board_and_health(name, chips):
    s = SimulatedSystem(name)
    for n, c in chips:
        ids = ["-i", str(n), "-c", str(c)]
        board = npu_smi_query.parse_board(s.run([NPU_SMI, "info", "-t", "board", *ids]).stdout)
        assert board.ok and (board.value["npu_id"], board.value["chip_id"]) == (n, c), (n, c)
        assert board.value["firmware_version"]
        assert npu_smi_query.parse_health(s.run([NPU_SMI, "info", "-t", "health", *ids]).stdout).value["health"] == "OK"
        assert npu_smi_query.parse_ecc(s.run([NPU_SMI, "info", "-t", "ecc", *ids]).stdout).value["chip_id"] == c


def test_a_developer_kit_answers_no_ecc_query():
    r = SimulatedSystem("healthy-200i-dk-a2").run([NPU_SMI, "info", "-t", "ecc", "-i", "0"])
    assert r.exit_code == 255 and "does not support" in r.stdout


@pytest.mark.parametrize("name", list_profiles())
def test_every_profile_answers_dmesg_as_its_machine_would(name):
    s = SimulatedSystem(name)
    r = s.run(["dmesg", "-T"])
    if s.profile.system.get("hostname", "") in ("vllm-ascend-7f9c", "51442de2b6e3") or "container" in name:
        assert r.exit_code == 1 and "Operation not permitted" in r.stderr      # a container may not read the ring
    else:
        assert r.ok and "Linux version" in r.stdout
        assert ("[ascend]" in r.stdout) == (name != "no-driver")


def test_log_files_have_times_and_the_newest_is_known():
    s = SimulatedSystem("healthy-a2-host")
    d = "/root/ascend/log/debug/plog"
    times = {n: s.lstat(f"{d}/{n}").mtime for n in s.list_dir(d)}
    assert max(times, key=times.get) == "plog-204511_20250612093015001.log"
    assert all(t > 1.7e9 for t in times.values())
    # a child profile inherits its parent's logs and their times
    assert SimulatedSystem("torch-npu-mismatch").lstat(f"{d}/plog-204511_20250612093015001.log").mtime == \
        times["plog-204511_20250612093015001.log"]
