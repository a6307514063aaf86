"""find_blocks(): the known outputs inside surrounding text, with their line ranges."""
from __future__ import annotations

from pathlib import Path

from ascend_doctor.diagnose.parsers import Block, find_blocks

S = Path(__file__).parent / "fixtures" / "samples"


def test_issue_body_with_table_cann_pip_lines_and_dcmi_error():
    blocks = find_blocks((S / "own/issue-body-with-table-and-versions.txt").read_text())
    assert [(b.kind, b.start_line, b.end_line, b.result.status) for b in blocks] == [
        ("npu-smi-info", 7, 15, "ok"), ("toolkit-install-info", 19, 24, "ok"), ("collect-env", 26, 28, "ok"),
        ("dcmi-error", 32, 32, "ok")]
    table, cann, env, err = blocks
    assert isinstance(table, Block)
    d = table.result.value["devices"][0]
    assert (table.result.value["driver_version"], d["name"], d["hbm_used_mb"], d["hbm_total_mb"]) == ("24.1.rc2", "910B4", 2872, 32768)
    assert cann.result.value["version"] == "8.0.RC3"
    assert env.result.value["packages"] == {"torch": "2.1.0", "torch_npu": "2.1.0.post8", "vllm": "0.6.3"}
    assert err.result.value["code"] == "-8005"


def test_composite_of_command_outputs():
    blocks = find_blocks((S / "own/npu-info-composite.txt").read_text())
    assert [(b.kind, b.start_line, b.end_line) for b in blocks] == [("npu-smi-health", 2, 4), ("npu-smi-board", 7, 11)]
    assert blocks[1].result.value["compatibility"] == "NOK"


def test_two_invocations_of_common_are_two_blocks():
    blocks = find_blocks((S / "npu-smi-query/info-t-common-2cards-32gb-hbm.txt").read_text())
    assert [b.kind for b in blocks] == ["npu-smi-common", "npu-smi-common"]
    assert [b.result.value["npus"][0]["npu_id"] for b in blocks] == [1, 7]


def test_os_release_and_uname_in_one_paste():
    blocks = find_blocks((S / "system/os-release-uname-ubuntu22.04-aarch64.txt").read_text())
    assert [(b.kind, b.start_line, b.end_line) for b in blocks] == [("os-release", 2, 13), ("uname", 16, 16)]


def test_plain_prose_and_logs_have_no_blocks():
    text = "The server hangs when loading weights.\nINFO: starting\nERROR: something = bad\nhttps://example.com/a\n"
    assert find_blocks(text) == []


def test_to_dict_is_json_ready():
    import json

    b = find_blocks((S / "npu-smi-info/310b4-alarm-23.0.0-no-busid.txt").read_text())[0]
    d = json.loads(json.dumps(b.to_dict()))
    assert d["kind"] == "npu-smi-info" and d["start_line"] == 1 and d["end_line"] == 9 and d["status"] == "ok"
