"""``ascend-doctor bundle`` on the command line: the file (0600, never clobbered, never written through a
link), the preview (writes nothing, never prints a collected text), both languages, bad input in one line."""
from __future__ import annotations

import tarfile

import pytest


def test_writes_a_0600_archive_and_says_what_it_holds(cli, tmp_path):
    out = tmp_path / "b.tar.gz"
    r = cli("bundle", "--sim", "healthy-a2-host", "-o", str(out), "--timeout", "2")
    assert r.code == 0, r.err
    assert (out.stat().st_mode & 0o777) == 0o600
    assert r.err.startswith(f"wrote {out}:") and "mode 0600" in r.err and r.out == ""
    with tarfile.open(out) as tar:
        assert any(n.endswith("/manifest.json") for n in tar.getnames())


def test_an_existing_file_is_kept_and_a_link_is_replaced_not_followed(cli, tmp_path):
    keep = tmp_path / "keep.tar.gz"
    keep.write_text("precious")
    r = cli("bundle", "--sim", "healthy-a2-host", "-o", str(keep))
    assert r.code == 2 and "--force" in r.err and keep.read_text() == "precious"
    assert r.err.count("\n") == 1
    target = tmp_path / "target.conf"
    target.write_text("cfg")
    target.chmod(0o644)
    link = tmp_path / "link.tar.gz"
    link.symlink_to(target)
    r = cli("bundle", "--sim", "healthy-a2-host", "-o", str(link))
    assert r.code == 2 and target.read_text() == "cfg"                  # a link is an existing file too
    r = cli("bundle", "--sim", "healthy-a2-host", "-o", str(link), "--force", "--timeout", "2")
    assert r.code == 0, r.err
    assert target.read_text() == "cfg" and (target.stat().st_mode & 0o777) == 0o644
    assert not link.is_symlink() and (link.stat().st_mode & 0o777) == 0o600


def test_preview_lists_and_writes_nothing(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = cli("bundle", "--sim", "healthy-a2-vllm-container", "--preview", "--timeout", "2")
    assert r.code == 0, r.err
    assert "nothing written" in r.out and "npu-smi/ecc-i7.txt" in r.out and "dmesg -T: permission denied" in r.out
    assert "logs/root/ascend/log/debug/plog/plog-1187_20250612132005430.log" in r.out
    assert "/var/log/npu/slog: not there" in r.out and "Host name: removed" in r.out
    assert "HF_TOKEN" in r.out                                           # left out of the snapshot: the name only
    assert "hf_SimulatedHubToken4f9c2e" not in r.out
    assert "aclInit" not in r.out and "Health Status" not in r.out        # never a collected text
    assert list(tmp_path.iterdir()) == []


def test_chinese(cli, tmp_path):
    out = tmp_path / "b.tar.gz"
    r = cli("bundle", "--sim", "healthy-300i-duo", "--preview", "-o", str(out), "--lang", "zh", "--timeout", "2")
    assert r.code == 0, r.err
    assert "收集的内容：" in r.out and "主机名：已移除" in r.out and "本次未写入" in r.out
    assert r.err.startswith("已写入 ") and "权限 0600" in r.err
    r = cli("bundle", "--sim", "healthy-300i-duo", "-o", str(out), "--lang", "zh")
    assert r.code == 2 and "已存在" in r.err and "--force" in r.err


@pytest.mark.parametrize("argv, words", [
    (["--sim", "healthy-a2-host"], "needs -o FILE.tar.gz"),
    (["--sim", "healthy-a2-host", "-o", "-"], "binary archive"),
    (["--sim", "healthy-a2-host", "--preview", "--log-limit", "lots"], "--log-limit 'lots'"),
    (["--sim", "nope", "--preview"], "unknown profile 'nope'"),
    (["--sim", "healthy-a2-host", "-o", "/nonexistent-dir/b.tar.gz"], "cannot write /nonexistent-dir/b.tar.gz"),
    (["--sim", "healthy-a2-host", "--preview", "--timeout", "nan"], "--timeout"),
])
def test_bad_input_is_one_line_and_exit_2(cli, argv, words):
    r = cli("bundle", *argv)
    assert r.code == 2 and words in r.err and r.err.count("\n") == 1 and "Traceback" not in r.err, r.err


def test_a_directory_as_output_is_refused(cli, tmp_path):
    r = cli("bundle", "--sim", "healthy-a2-host", "-o", str(tmp_path))
    assert r.code == 2 and "directory" in r.err and list(tmp_path.iterdir()) == []


def test_control_characters_in_names_from_the_machine_never_reach_the_terminal(tmp_path):
    from ascend_doctor.diagnose.bundle.model import Entry, skipped
    from ascend_doctor.diagnose.render.bundle_text import preview
    from ascend_doctor.diagnose.services.bundle import Bundle

    evil = "/root/ascend/log/\x1b]0;pwned\x07plog.log"
    b = Bundle(meta={"include_hostname": False},
               entries=[Entry(kind="log", source=evil, name="logs" + evil, data=b"\x1b[31mred\n"),
                        skipped("log", evil + ".2", "link")])
    text = preview(b, "en")
    assert "\x1b" not in text and "\x07" not in text and "\\x1b]0;pwned" in text and "red" not in text
