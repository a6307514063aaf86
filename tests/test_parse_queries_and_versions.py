"""npu-smi -t / -m outputs, DCMI messages, version files, os-release, collect_env: values checked by hand."""
from __future__ import annotations

from pathlib import Path

from ascend_doctor.diagnose.parsers import parse

S = Path(__file__).parent / "fixtures" / "samples"


def p(rel: str, kind: str):
    r = parse((S / rel).read_text(encoding="utf-8"), kind)
    assert r.ok, r.reason
    return r.value


def test_info_m_910b4_with_mcu_rows():
    chips = p("npu-smi-query/info-m-910b4-a2-mcu-rows-trailing-spaces.txt", "npu-smi-map")["chips"]
    assert [(c["npu_id"], c["chip_id"], c["logic_id"], c["chip_name"], c["mcu"]) for c in chips] == [
        (0, 0, 0, "Ascend 910B4", False), (0, 1, None, "Mcu", True), (1, 0, 1, "Ascend 910B4", False), (1, 1, None, "Mcu", True)]


def test_info_m_310p3_card_32896():
    chips = p("npu-smi-query/info-m-310p3-with-mcu-row-25.5.2.txt", "npu-smi-map")["chips"]
    assert [(c["npu_id"], c["logic_id"], c["chip_name"]) for c in chips] == [(32896, 0, "Ascend 310P3"), (32896, None, "Mcu")]


def test_board_910_driver_firmware_compatibility():
    v = p("own/npu-smi-board-910-d801.txt", "npu-smi-board")
    assert (v["npu_id"], v["driver_version"], v["firmware_version"], v["compatibility"]) == (3, "23.0.6", "7.1.0.9.220", "OK")
    assert (v["bus_id"], v["pci_device_id"], v["chip_count"]) == ("0000:3D:00.0", "0xD801", 1)


def test_board_chip_a2_type_and_name_after_prompt():
    v = p("npu-smi-query/info-t-board-c0-a2-910b4-chip-type-excerpt.txt", "npu-smi-board")
    assert (v["npu_id"], v["chip_id"], v["chip_type"], v["chip_name"], v["npu_name"]) == (0, 0, "Ascend", "910B4", None)


def test_board_chip_a3_npu_name():
    v = p("own/npu-smi-board-chip0-a3-npu-name.txt", "npu-smi-board")
    assert (v["chip_type"], v["chip_name"], v["npu_name"], v["firmware_version"]) == (None, "Ascend910", "9391", "7.8.0.6.201")


def test_health_alarm_with_codes_and_leading_space():
    v = p("own/npu-smi-health-alarm-indented.txt", "npu-smi-health")
    assert v["health"] == "Alarm" and v["error_codes"] == ["80E18005", "80CD8008"]
    assert v["error_information"].startswith("node type=AICORE")


def test_usages_memory_common():
    u = p("npu-smi-query/info-t-usages-32gb-hbm.txt", "npu-smi-usages")
    assert (u["npu_id"], u["ddr_capacity_mb"], u["ddr_usage_rate_pct"], u["hbm_capacity_mb"], u["chip_id"]) == (1, 15079, 14, 32768, 0)
    m = p("npu-smi-query/info-t-memory-32gb-hbm.txt", "npu-smi-memory")
    assert (m["hbm_capacity_mb"], m["hbm_clock_speed_mhz"], m["hbm_temperature_c"], m["hbm_manufacturer_id"]) == (32768, 1600, 35, "0x57")
    c = p("npu-smi-query/info-t-common-2cards-32gb-hbm.txt", "npu-smi-common")["npus"]
    assert [n["npu_id"] for n in c] == [1, 7]
    assert c[1]["chips"][0]["npu_real_time_power_w"] == 331.1 and c[1]["chips"][0]["hbm_usage_rate_pct"] == 82
    assert c[0]["mcu"]["temperature_c"] == 40
    idle = p("npu-smi-query/info-t-common-910b1-24-aicore-freq-800-with-mcu.txt", "npu-smi-common")["npus"][0]["chips"][0]
    assert (idle["aicore_freq_mhz"], idle["aicore_curfreq_mhz"], idle["aicore_count"]) == (1800, 800, 24)


def test_dcmi_messages():
    v = p("npu-smi-error/dcmi-init-8005-vnpu-volcano-oneline.txt", "dcmi-error")
    assert v["code"] == "-8005" and not v["device_in_use"]
    v = parse("dcmi model initialized failed, because the device is used. ret is -8020\n", "dcmi-error").value
    assert v["code"] == "-8020" and v["device_in_use"]
    v = p("npu-smi-error/npu-smi-not-mounted-200i-a2-container.txt", "dcmi-error")
    assert v["code"] is None and v["npu_smi"] == "not-found"
    assert parse("all fine\n", "dcmi-error").status == "unparsed"


def test_driver_version_info_three_shapes():
    v = p("version-files/driver-version.info-24.1.rc2.2-mindie-800i-a2.txt", "driver-version-info")
    assert (v["version"], v["innerversion"], v["compatible_firmware"]) == ("24.1.rc2.2", "V100R001C18SPC001B233", ["7.0.0", "7.2.99"])
    v = p("version-files/driver-version.info-25.3.rc1-indented-in-faq.txt", "driver-version-info")
    assert (v["version"], v["compatible_firmware"]) == ("25.3.rc1", ["7.0.0", "8.9.9"])
    v = p("own/driver-version.info-24.1.0-no-package_version.txt", "driver-version-info")
    assert (v["version"], v["package_version"]) == ("24.1.0", None)       # falls back to Version=


def test_firmware_and_install_info():
    v = p("own/firmware-version.info-7.5.0.3.220.txt", "firmware-version-info")
    assert (v["version"], v["package_version"], v["compatible_driver"]) == \
        ("7.5.0.3.220", "24.1.0", [["24.1.rc3", "24.1.rc3."], ["24.1.0", "24.1.0."]])
    v = p("version-files/etc-ascend_install.info-driver-firmware.txt", "ascend-install-info")
    assert (v["user"], v["group"], v["driver_install_path"]) == ("HwHiAiUser", "HwHiAiUser", "/usr/local/Ascend")


def test_cann_install_info_both_layouts_version_info_and_cfg():
    v = p("version-files/ascend_toolkit_install.info-8.0.0-aarch64.txt", "toolkit-install-info")
    assert (v["version"], v["innerversion"], v["layout"], v["arch"]) == ("8.0.0", "V100R001C20SPC001B251", "toolkit", "aarch64")
    v = p("own/ascend_toolkit_install.info-9.1.0-new-layout.txt", "toolkit-install-info")
    assert (v["version"], v["layout"]) == ("9.1.0", "cann")
    v = p("version-files/cann-8.2.RC1-toolkit-and-opp_kernel-version.info-required_package.txt", "cann-version-info")
    assert v["version"] == "8.2.RC1" and v["required_packages"]["runtime"] == ">=7.6, <=8.2"   # the last file wins
    v = p("own/version.cfg-8.0.0.txt", "cann-version-cfg")
    assert v["version"] == "8.0.0" and v["components"]["runtime"]["running"]["inner"] == "7.6.0.1.220" and v["consistent"]


def test_nnal_and_mindie():
    v = p("version-files/nnal-atb-version.info-8.0.T63-indented.txt", "nnal-version-info")
    assert (v["version"], v["full_version"], v["platform"]) == ("8.0.T63", "8.0.T63.B020", "aarch64")
    text = (S / "version-files/mindie-and-atb-models-version.info-2.0.T3.txt").read_text()
    v = parse(text.split("# cat /usr/local/Ascend/mindie")[1], "mindie-version-info").value
    assert v["version"] == "2.0.T3.B010" and v["components"]["mindie-sd"] == "2.0.T3.B010"
    v = parse(text.split("# cat /usr/local/Ascend/mindie")[0], "mindie-version-info").value
    assert v["version"] is None and v["atb_models_version"] == "2.0.T3.B010"


def test_os_release_and_uname():
    text = (S / "system/os-release-uname-ubuntu22.04-aarch64.txt").read_text()
    v = parse(text, "os-release").value
    assert (v["id"], v["version_id"], v["pretty_name"]) == ("ubuntu", "22.04", "Ubuntu 22.04.3 LTS")
    v = parse(text, "uname").value
    assert v == {"kernel_release": "5.15.0-78-generic", "arch": "aarch64"}


def test_collect_env_sections():
    v = p("collect-env/collect_env-head-openeuler24.03-torch2.10-partial.txt", "collect-env")
    assert v["packages"] == {"torch": "2.10.0+cpu"} and v["python_version"] == "3.12.13"
    assert (v["kernel_release"], v["arch"]) == ("5.10.0-216.0.0.115.oe2203sp4.aarch64", "aarch64")
    v = p("collect-env/collect_env-env-variables-section-atb-ascend-partial.txt", "collect-env")
    assert v["env"]["ASCEND_VISIBLE_DEVICES"] == "1" and v["env"]["ASCEND_DOCKER_RUNTIME"] == "True" and len(v["env"]) == 14
    v = p("collect-env/collect_env-tail-no-processes-and-cann-8.2.RC1.txt", "toolkit-install-info")
    assert (v["version"], v["innerversion"]) == ("8.2.RC1", "V100R001C22SPC001B231")


def test_collect_env_without_conda_lists_no_package_for_it():
    # verbatim from the collect_env output in vllm-project/vllm-ascend#1154
    text = ("Versions of relevant libraries:\n[pip3] numpy==1.26.4\n[pip3] torch==2.5.1+cpu\n"
            "[pip3] torch-npu==2.5.1.dev20250320\n[conda] Could not collect\nvLLM Version: 0.9.0\n")
    v = parse(text, "collect-env").value
    assert v["packages"] == {"numpy": "1.26.4", "torch": "2.5.1+cpu", "torch_npu": "2.5.1.dev20250320", "vllm": "0.9.0"}


def test_ecc_of_one_die_with_corrected_hbm_errors():
    v = p("own/npu-smi-ecc-a3-die1-hbm-single-bit.txt", "npu-smi-ecc")
    assert (v["npu_id"], v["chip_id"], v["chip_count"]) == (5, 1, 2)
    assert (v["hbm_single_bit_error_count"], v["hbm_single_bit_aggregate_total_err_cnt"],
            v["hbm_double_bit_error_count"], v["hbm_single_bit_isolated_pages_count"]) == (3, 17, 0, 2)
