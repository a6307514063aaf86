"""npu-smi info: every sample parsed, values checked by hand against the text (sources in
tests/fixtures/samples/SOURCES.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascend_doctor.diagnose.parsers import parse

S = Path(__file__).parent / "fixtures" / "samples"


def info(rel: str):
    r = parse((S / rel).read_text(encoding="utf-8"), "npu-smi-info")
    assert r.ok, r.reason
    return r.value


def dev(v, i):
    return v["devices"][i]


def test_300i_duo_two_chips_share_one_bus_id_under_card_2():
    v = info("npu-smi-info/300iduo-310p3-card2-2chips-25.2.0-partial.txt")
    assert v["layout"] == "no-hbm" and v["driver_version"] == "25.2.0" and v["npu_smi_version"] == "25.2.0"
    assert [(d["npu_id"], d["chip_id"], d["logic_id"]) for d in v["devices"]] == [(2, 0, 0), (2, 1, 1)]
    assert {d["bus_id"] for d in v["devices"]} == {"0000:01:00.0"}
    a, b = v["devices"]
    assert (a["name"], a["health"], a["power_w"], a["temp_c"]) == ("310P3", "OK", None, 45)
    assert (a["memory_used_mb"], a["memory_total_mb"], a["hbm_used_mb"]) == (1529, 44280, None)
    assert (b["temp_c"], b["memory_used_mb"], b["memory_total_mb"]) == (43, 1412, 43693)
    assert v["processes"] == []


def test_300i_duo_host_view_card_1():
    v = info("npu-smi-info/300iduo-310p3-24.1.rc2-host-view-partial.txt")
    assert v["driver_version"] == "24.1.rc2"
    assert [(d["npu_id"], d["chip_id"], d["temp_c"], d["memory_used_mb"], d["memory_total_mb"]) for d in v["devices"]] == \
        [(1, 0, 59, 1397, 44280), (1, 1, 58, 1520, 43693)]


def test_300i_duo_build_suffix_version_after_collect_env_heading():
    v = info("npu-smi-info/300iduo-310p3-25.0.rc1.b033-build-suffix-partial.txt")
    assert v["driver_version"] == "25.0.rc1.b033"
    assert [d["memory_total_mb"] for d in v["devices"]] == [47304, 46717]
    assert [d["temp_c"] for d in v["devices"]] == [52, 50]


def test_310b4_alarm_bus_id_na_trailing_spaces():
    v = info("npu-smi-info/310b4-alarm-23.0.0-no-busid.txt")
    assert v["layout"] == "no-hbm" and v["driver_version"] == "23.0.0"
    d = dev(v, 0)
    assert (d["npu_id"], d["name"], d["health"], d["power_w"], d["temp_c"]) == (0, "310B4", "Alarm", 0.0, 65)
    assert d["bus_id"] is None                      # "NA" is no value, never a guess
    assert (d["memory_used_mb"], d["memory_total_mb"]) == (3628, 15609)
    assert v["processes"] == []


def test_310p3_card_id_32896_and_no_process_line():
    v = info("npu-smi-info/310p3-npuid-32896-25.5.2-cann9.1.0.txt")
    d = dev(v, 0)
    assert (d["npu_id"], d["chip_id"], d["logic_id"], d["power_w"]) == (32896, 0, 0, None)
    assert (d["memory_used_mb"], d["memory_total_mb"], d["bus_id"]) == (1904, 44213, "0000:00:00.0")
    assert v["processes"] == [] and v["idle_npus"] == [32896]


def test_310p3_npu_id_6_after_shell_prompt():
    v = info("npu-smi-info/310p3-npuid6-25.3.rc1-power-NA.txt")
    d = dev(v, 0)
    assert (d["npu_id"], d["temp_c"], d["memory_used_mb"], d["memory_total_mb"], d["bus_id"]) == \
        (6, 50, 1839, 21525, "0000:84:00.0")
    assert v["idle_npus"] == [6]


def test_910b1_under_collect_env_command_line():
    v = info("npu-smi-info/910b1-24.1.0-after-collect_env-command-partial.txt")
    assert v["layout"] == "classic" and v["driver_version"] == "24.1.0"
    assert [(d["npu_id"], d["power_w"], d["temp_c"], d["hbm_used_mb"], d["hbm_total_mb"], d["bus_id"])
            for d in v["devices"]] == [(0, 93.1, 36, 3418, 65536, "0000:C1:00.0"), (1, 92.2, 37, 3405, 65536, "0000:01:00.0")]
    assert dev(v, 0)["memory_total_mb"] == 0


def test_910b1_elided_rows_are_flagged_and_not_invented():
    v = info("npu-smi-info/910b1-8card-23.0.rc2-huaweicloud-elided.txt")
    assert v["elided"] is True
    assert [d["npu_id"] for d in v["devices"]] == [0, 1, 7]      # NPU 2-6 were elided: not made up
    assert [d["hbm_used_mb"] for d in v["devices"]] == [4175, 4175, 4174]


def test_910b1_under_load_with_processes_and_elisions():
    v = info("npu-smi-info/910b1-8card-23.0.rc2.b090-elided-with-dots.txt")
    assert v["driver_version"] == "23.0.rc2.b090" and v["elided"]
    d7 = v["devices"][-1]
    assert (d7["npu_id"], d7["power_w"], d7["temp_c"], d7["aicore_pct"], d7["hbm_used_mb"]) == (7, 451.6, 76, 68, 64114)
    assert dev(v, 0)["hbm_used_mb"] == 64293               # "64293/ 65536": no space before the slash
    assert [(p["npu_id"], p["pid"], p["name"], p["memory_mb"]) for p in v["processes"]] == \
        [(0, 2441447, "python", 59618), (1, 2441448, "python", 59834), (7, 2441454, "python", 59802)]


def test_910b2_four_part_version():
    v = info("npu-smi-info/910b2-24.1.0.3-four-part-version-partial.txt")
    assert v["driver_version"] == "24.1.0.3"
    assert [(d["name"], d["power_w"], d["hbm_used_mb"], d["bus_id"]) for d in v["devices"]] == \
        [("910B2", 96.4, 3397, "0000:C1:00.0"), ("910B2", 88.7, 3395, "0000:C2:00.0")]


def test_910b2c_trailing_spaces_and_one_process():
    v = info("npu-smi-info/910b2c-2card-23.0.2.1-with-process-trailing-spaces.txt")
    assert [d["name"] for d in v["devices"]] == ["910B2C", "910B2C"]
    assert [d["hbm_used_mb"] for d in v["devices"]] == [20701, 20687]
    assert v["processes"] == [{"npu_id": 0, "chip_id": 0, "pid": 124528, "name": "python3.8", "memory_mb": 17400,
                               "container_pid": None}]


def test_910_pro_b_ddr_and_hbm():
    v = info("npu-smi-info/910prob-8card-24.1.0-partial.txt")
    a, b = v["devices"]
    assert (a["name"], a["memory_used_mb"], a["memory_total_mb"], a["hbm_used_mb"], a["hbm_total_mb"]) == \
        ("910ProB", 2387, 13553, 18, 32768)
    assert (b["memory_used_mb"], b["memory_total_mb"], b["hbm_used_mb"]) == (1840, 15665, 8)


def test_narrow_23_0_layout_with_blank_line_before_process_table():
    v = info("npu-smi-info/910prob-atlas800-9000-23.0.rc1-narrow-layout-process.txt")
    assert v["layout"] == "narrow" and v["driver_version"] == "23.0.rc1"
    d = dev(v, 0)
    assert (d["power_w"], d["temp_c"], d["memory_used_mb"], d["memory_total_mb"], d["hbm_used_mb"]) == \
        (78.4, 33, 1198, 15137, 30711)
    assert [(p["pid"], p["memory_mb"]) for p in v["processes"]] == [(55115, 30784)]


def test_a3_two_dies_per_npu_with_phy_id_and_dash_power():
    v = info("npu-smi-info/a3-910_93-2card-4chip-25.2.0-one-process.txt")
    assert [(d["npu_id"], d["chip_id"], d["phy_id"]) for d in v["devices"]] == [(0, 0, 0), (0, 1, 1), (1, 0, 2), (1, 1, 3)]
    assert [d["power_w"] for d in v["devices"]] == [162.8, None, 167.1, None]
    assert [d["hbm_used_mb"] for d in v["devices"]] == [3133, 2876, 3116, 10568]
    assert v["processes"] == [{"npu_id": 1, "chip_id": 1, "pid": 990711, "name": "python", "memory_mb": 7746,
                               "container_pid": None}]
    assert v["idle_npus"] == [0]


def test_a3_under_load():
    v = info("npu-smi-info/a3-25.3.rc1-under-load-502W-partial.txt")
    a, b = v["devices"]
    assert (a["power_w"], a["temp_c"], a["aicore_pct"], a["hbm_used_mb"]) == (502.6, 75, 61, 47755)
    assert (b["chip_id"], b["phy_id"], b["power_w"], b["bus_id"]) == (1, 1, None, "0000:9F:00.0")


def test_own_910_misaligned_masked_names_and_differing_versions():
    v = info("own/npu-smi-info-910-misaligned-masked.txt")
    assert (v["npu_smi_version"], v["driver_version"]) == ("23.0.rc3", "23.0.rc2.3")
    d = dev(v, 0)
    assert d["name"] is None                                   # "xxx" is masked, not a chip name
    assert (d["hugepages_used"], d["hugepages_total"], d["memory_used_mb"], d["hbm_used_mb"]) == (1123, 1123, 4561, 30712)
    assert [p["pid"] for p in v["processes"]] == [201733, 201734]


def test_own_26_0_wide_layout_with_container_pid_column():
    v = info("own/npu-smi-info-26.0-wide-a3-container-pid.txt")
    assert v["layout"] == "wide" and v["has_container_pid"] and v["driver_version"] == "26.0.rc1"
    assert [(d["npu_id"], d["chip_id"], d["phy_id"], d["health"]) for d in v["devices"]] == \
        [(0, 0, 0, "OK"), (0, 1, 1, "OK"), (3, 0, 6, "Warning"), (3, 1, 7, "OK")]
    assert [p["container_pid"] for p in v["processes"]] == [4211, None]     # "NA" in container -> None
    assert v["processes"][0]["name"] == "VLLMWorker_TP0" and v["idle_npus"] == [3]


def test_own_a5_npu_id_name_layout():
    v = info("own/npu-smi-info-a5-950-npu-id-name.txt")
    assert v["layout"] == "a5" and v["driver_version"] == "25.7.rc1"
    a, b = v["devices"]
    assert (a["npu_id"], a["name"], a["health"], a["power_w"], a["hbm_used_mb"], a["hbm_total_mb"], a["bus_id"]) == \
        (0, "Ascend950PR", "OK", 211.4, 5410, 131072, "0000:61:00.0")
    assert (b["health"], b["aicore_pct"], b["hbm_used_mb"], b["hbm_total_mb"], b["bus_id"]) == ("Alarm", 97, 90112, 114688, None)
    assert [(p["npu_id"], p["pid"], p["memory_mb"]) for p in v["processes"]] == [(1, 3728650, 88000)]


def test_truncated_table_keeps_what_is_there_and_says_so():
    text = (S / "npu-smi-info/910b2-24.1.0.3-four-part-version-partial.txt").read_text()
    cut = "\n".join(text.splitlines()[:8]) + "\n"          # stops after the first row of NPU 0
    r = parse(cut, "npu-smi-info")
    assert r.ok and r.value["truncated"]
    d = r.value["devices"][0]
    assert (d["npu_id"], d["power_w"], d["hbm_used_mb"], d["bus_id"]) == (0, 96.4, None, None)


@pytest.mark.parametrize("text, reason", [
    ("", "no npu-smi info table"),
    ("dcmi module initialize failed. ret is -8005\n", "no npu-smi info table"),
    ("| npu-smi 24.1.0   Version: 24.1.0 |\n+---+\n| GPU  Name | Persistence-M | Bus-Id |\n| Fan | Temp | Perf |\n",
     "unknown column header"),
])
def test_unrecognised_text_is_unparsed_with_a_reason(text, reason):
    r = parse(text, "npu-smi-info")
    assert r.status == "unparsed" and reason in r.reason and r.value is None


def test_an_excerpt_without_the_process_header_invents_no_device():
    """Newcomer test: an A5 excerpt ending at 'No running processes found in NPU 0' gave a second,
    all-empty device."""
    lines = (S / "own/npu-smi-info-a5-950-npu-id-name.txt").read_text().splitlines()
    cut = "\n".join(lines[:8] + ["| No running processes found in NPU 0" + " " * 61 + "|"])
    from ascend_doctor.diagnose.parsers import npu_smi_info

    v = npu_smi_info.parse(cut).value
    assert [(d["npu_id"], d["name"]) for d in v["devices"]] == [(0, "Ascend950PR")]
    assert v["idle_npus"] == [0]


def test_an_excerpt_without_title_and_header_still_gives_its_devices_and_processes():
    """A user pastes only the rows: the cells' shape (NPU id and name, health word, PCI bus id, memory
    pairs) leaves no doubt about the columns, and the parse says it read them without a header."""
    lines = (S / "npu-smi-info/910b2c-2card-23.0.2.1-with-process-trailing-spaces.txt").read_text().splitlines()
    cut = "\n".join(lines[6:11] + lines[14:16]) + "\n"            # two device row pairs, then a process row
    assert "npu-smi" not in cut and "Health" not in cut and "Process id" not in cut
    r = parse(cut, "npu-smi-info")
    assert r.ok, r.reason
    v = r.value
    assert [(d["npu_id"], d["name"], d["bus_id"], d["hbm_used_mb"], d["hbm_total_mb"]) for d in v["devices"]] == \
        [(0, "910B2C", "0000:5A:00.0", 20701, 65536), (1, "910B2C", "0000:19:00.0", 20687, 65536)]
    assert [(p["npu_id"], p["pid"], p["name"], p["memory_mb"]) for p in v["processes"]] == [(0, 124528, "python3.8", 17400)]
    assert any("no title or column header" in n for n in r.notes)
    from ascend_doctor.diagnose.parsers import find_blocks

    assert [b.kind for b in find_blocks("my npus:\n" + cut)] == ["npu-smi-info"]


def test_rows_that_do_not_name_their_columns_are_not_read_as_devices():
    text = "| 0 | OK | 1 2 |\n| a | b | c |\n"
    r = parse(text, "npu-smi-info")
    assert r.status == "unparsed" and "shaped like device rows" in r.reason
