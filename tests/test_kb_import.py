"""Knowledge bundles: ``kb export -o FILE.tar.gz`` and ``kb import FILE.tar.gz`` carry overlay files to machines
without a network; every member is checked before anything is installed, and all files go in or none."""
from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from ascend_doctor.kb.paths import overlay_dir

from .test_kb_overlay import SITE_FILE

OTHER_FILE = SITE_FILE.replace("site-nfs-model-dir-slow", "site-other-problem").replace(
    'name = "site"', 'name = "site2"').replace("/mnt/nfs-models", "/mnt/other-models")


def _bundle(path: Path, members: list[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _file(name: str, text: str) -> tuple[tarfile.TarInfo, bytes]:
    return tarfile.TarInfo(name), text.encode("utf-8")


def _kind(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, linkname
    return info, None


def test_export_then_import_on_another_machine(cli, home, tmp_path, monkeypatch):
    (home / "site.toml").write_text(SITE_FILE, encoding="utf-8")
    assert cli("kb", "add", str(home / "site.toml")).code == 0
    out = tmp_path / "knowledge.tar.gz"
    r = cli("kb", "export", "-o", str(out))
    assert r.code == 0 and "1 overlay file(s): site.toml" in r.out, r.err
    with tarfile.open(out) as tar:
        (m,) = tar.getmembers()
        assert (m.name, m.mode, m.uname, m.uid) == ("site.toml", 0o644, "", 0)
    # the offline machine: its own data directory
    monkeypatch.setenv("ASCEND_DOCTOR_DATA", str(tmp_path / "offline-data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "offline-cache"))
    r = cli("kb", "import", str(out))
    assert r.code == 0, r.out + r.err
    assert "imported 1 overlay file(s)" in r.out and "site.toml" in r.out
    assert (overlay_dir() / "site.toml").read_text(encoding="utf-8") == SITE_FILE
    r = cli("search", "nfs model loading slow", "--format", "json")
    assert "site-nfs-model-dir-slow" in r.out
    r = cli("kb", "import", str(out), "--lang", "zh")
    assert r.code == 0 and "已替换同名的用户覆盖层文件：site.toml" in r.out


def test_one_invalid_file_and_nothing_is_installed(cli, home, tmp_path):
    bad = SITE_FILE.replace('severity = "warning"', 'severity = "warning"\nfixs = []')
    b = _bundle(tmp_path / "k.tar.gz", [_file("a-good.toml", OTHER_FILE), _file("b-bad.toml", bad)])
    r = cli("kb", "import", str(b))
    assert r.code == 2 and "b-bad.toml" in r.out and "unknown key 'fixs'" in r.out
    assert r.err.count("\n") == 1 and "nothing was installed" in r.err and "first: b-bad.toml:" in r.err
    assert not overlay_dir().exists() or not list(overlay_dir().glob("*.toml"))


def test_files_that_clash_with_each_other_are_refused_together(cli, home, tmp_path):
    b = _bundle(tmp_path / "k.tar.gz", [_file("one.toml", SITE_FILE),
                                        _file("two.toml", SITE_FILE.replace('name = "site"', 'name = "site2"'))])
    r = cli("kb", "import", str(b))
    assert r.code == 2 and "duplicate" in r.out and not list(overlay_dir().glob("*.toml"))


@pytest.mark.parametrize("members, words", [
    ([_kind("evil.toml", tarfile.SYMTYPE, "/etc/passwd")], "evil.toml is a link"),
    ([_file("a.toml", OTHER_FILE), _kind("b.toml", tarfile.LNKTYPE, "a.toml")], "b.toml is a link"),
    ([_file("/etc/cron.d/x.toml", OTHER_FILE)], "points outside the bundle"),
    ([_file("../../x.toml", OTHER_FILE)], "points outside the bundle"),
    ([_file("k/../../x.toml", OTHER_FILE)], "points outside the bundle"),
    ([_kind("dev.toml", tarfile.CHRTYPE)], "dev.toml is not a regular file"),
    ([_kind("fifo.toml", tarfile.FIFOTYPE)], "fifo.toml is not a regular file"),
    ([_file("a/b/x.toml", OTHER_FILE)], "deeper than one folder"),
    ([_file("a/x.toml", OTHER_FILE), _file("b/y.toml", OTHER_FILE)], "deeper than one folder"),
    ([_file("README.md", "hello")], "README.md is not a .toml knowledge file"),
    ([_file("-rf.toml", OTHER_FILE)], "a file name is letters"),
    ([_file("x.toml", OTHER_FILE), _file("k/x.toml", OTHER_FILE)], "twice"),
    ([(tarfile.TarInfo("latin.toml"), "name = 'caf\xe9'".encode("latin-1"))], "not UTF-8"),
])
def test_a_bad_member_refuses_the_whole_bundle_before_anything_is_installed(cli, home, tmp_path, members, words):
    b = _bundle(tmp_path / "k.tar.gz", [_file("good.toml", OTHER_FILE)] + members)
    r = cli("kb", "import", str(b))
    assert r.code == 2 and words in r.err and r.err.count("\n") == 1 and "Traceback" not in r.err, r.err
    assert "nothing was installed" in r.err
    assert not overlay_dir().exists() or not list(overlay_dir().iterdir())
    assert not (tmp_path / "etc").exists()


def test_a_folder_at_the_top_is_fine(home, tmp_path):
    from ascend_doctor.kb.overlay_archive import unpack

    b = _bundle(tmp_path / "k.tar.gz", [_kind("knowledge", tarfile.DIRTYPE), _file("knowledge/x.toml", OTHER_FILE),
                                        _file("./y.toml", OTHER_FILE.replace("site-other", "site-third"))])
    assert sorted(unpack(b)) == ["x.toml", "y.toml"]


def test_not_an_archive_or_missing(cli, home, tmp_path):
    (tmp_path / "x.tar.gz").write_text("plain text")
    r = cli("kb", "import", str(tmp_path / "x.tar.gz"))
    assert r.code == 2 and "is not a .tar.gz knowledge bundle" in r.err
    r = cli("kb", "import", str(tmp_path / "missing.tar.gz"), "--lang", "zh")
    assert r.code == 2 and "文件不存在" in r.err and "没有安装任何文件" in r.err
    r = cli("kb", "import", str(tmp_path))
    assert r.code == 2 and r.err.count("\n") == 1
    b = _bundle(tmp_path / "empty.tar.gz", [_kind("only-a-folder", tarfile.DIRTYPE)])
    r = cli("kb", "import", str(b))
    assert r.code == 2 and "holds no .toml file" in r.err


def test_a_failed_write_puts_back_what_was_there(home, tmp_path, monkeypatch):
    from ascend_doctor.kb import overlay

    d = overlay_dir()
    d.mkdir(parents=True)
    (d / "a.toml").write_text(SITE_FILE, encoding="utf-8")
    calls = []
    real = overlay.install

    def flaky(text, name, directory=None):
        calls.append(name)
        if name == "c.toml":
            raise OSError(28, "No space left on device")
        return real(text, name, directory)
    monkeypatch.setattr(overlay, "install", flaky)
    new_a = SITE_FILE.replace("very slow", "extremely slow")
    with pytest.raises(OSError):
        overlay.import_files({"a.toml": new_a, "b.toml": OTHER_FILE,
                              "c.toml": OTHER_FILE.replace("site-other", "site-c").replace('"site2"', '"site3"')
                              .replace("other-models", "c-models")})
    assert (d / "a.toml").read_text(encoding="utf-8") == SITE_FILE and not (d / "b.toml").exists()
    assert sorted(p.name for p in d.glob("*.toml")) == ["a.toml"]


def test_export_errors(cli, home, tmp_path):
    r = cli("kb", "export", "-o", str(tmp_path / "k.tar.gz"))
    assert r.code == 1 and "no overlay file to export" in r.err
    (home / "site.toml").write_text(SITE_FILE, encoding="utf-8")
    assert cli("kb", "add", str(home / "site.toml")).code == 0
    r = cli("kb", "export", "-o", str(tmp_path / "k.tar.gz"), "nope.toml")
    assert r.code == 1 and "no overlay named nope.toml" in r.err
    (tmp_path / "keep.tar.gz").write_text("precious")
    r = cli("kb", "export", "-o", str(tmp_path / "keep.tar.gz"))
    assert r.code == 2 and "--force" in r.err and (tmp_path / "keep.tar.gz").read_text() == "precious"
    r = cli("kb", "export", "-o", "-")
    assert r.code == 2 and "binary archive" in r.err
    r = cli("kb", "export", "-o", str(tmp_path / "keep.tar.gz"), "--force", "site.toml")
    assert r.code == 0 and tarfile.is_tarfile(tmp_path / "keep.tar.gz")
