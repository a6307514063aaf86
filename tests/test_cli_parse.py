"""ascend-doctor parse FILE|- as a user runs it."""
from __future__ import annotations

import json
from pathlib import Path

S = Path(__file__).parent / "fixtures" / "samples"


def test_parse_auto_finds_blocks_in_an_issue_body(cli):
    r = cli("parse", str(S / "own/issue-body-with-table-and-versions.txt"))
    assert r.code == 0
    blocks = json.loads(r.out)["blocks"]
    assert [b["kind"] for b in blocks] == ["npu-smi-info", "toolkit-install-info", "collect-env", "dcmi-error"]
    assert blocks[0]["value"]["devices"][0]["name"] == "910B4"


def test_parse_stdin_with_kind(cli):
    text = (S / "npu-smi-info/310p3-npuid6-25.3.rc1-power-NA.txt").read_text()
    r = cli("parse", "-", "--kind", "npu-smi-info", stdin=text)
    assert r.code == 0
    b = json.loads(r.out)["blocks"][0]
    assert b["status"] == "ok" and b["value"]["devices"][0]["npu_id"] == 6


def test_parse_text_format_escapes_markup(cli, tmp_path):
    f = tmp_path / "x.txt"
    f.write_text("[bold red]NPU ID[/]\nVersion=25.2.0\nascendhal_version=[red]x[/red]\ncompatible_version_fw=[7.0.0,7.7.99]\n")
    r = cli("parse", str(f), "--format", "text")
    assert r.code == 0 and "[red]x[/red]" in r.out


def test_parse_unknown_text_exit_1(cli):
    r = cli("parse", "-", "--kind", "npu-smi-board", stdin="hello\n")
    assert r.code == 1 and json.loads(r.out)["blocks"][0]["status"] == "unparsed"
    r = cli("parse", "-", "--format", "text", stdin="just words\n")
    assert r.code == 1 and "No known tool output" in r.out


def test_parse_errors_are_one_line(cli, tmp_path):
    r = cli("parse", str(tmp_path / "missing.txt"))
    assert r.code == 2 and "file not found" in r.err and r.err.count("\n") == 1
    r = cli("parse", str(tmp_path))
    assert r.code == 2 and "directory" in r.err
    r = cli("parse", "-", "--kind", "bogus")
    assert r.code == 2 and "invalid choice" in r.err


def test_parse_non_utf8_bytes(cli, tmp_path):
    f = tmp_path / "bin.txt"
    f.write_bytes((S / "version-files/etc-ascend_install.info-driver-firmware.txt").read_bytes() + b"\xff\xfe\x00junk\n")
    r = cli("parse", str(f))
    assert r.code == 0 and json.loads(r.out)["blocks"][0]["value"]["user"] == "HwHiAiUser"
