"""The knowledge base survives what users' machines do to it (reliability review D3, D9, D10 and
'no writable cache, no product'): a catastrophic regex in an overlay, a bad overlay already in the
overlay directory, two concurrent 'kb add', damage in the middle of the cached database, a home
directory that does not exist."""
from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys

from ascend_doctor.kb.build import overlay_files
from ascend_doctor.kb.paths import overlay_dir
from ascend_doctor.kb.query import KnowledgeBase

from .conftest import ROOT
from .test_kb_overlay import SITE_FILE

REDOS = re.sub(r"\[\[problem\.signature\]\].*?(?=\n\n)", """[[problem.signature]]
literal = "aaaa"
regex = '(a+)+$'
match = ["aaaa"]
no_match = ["bbbb"]""", SITE_FILE.replace("site-nfs-model-dir-slow", "site-redos"), flags=re.S)


def test_kb_add_refuses_a_catastrophic_regex(cli, home):
    assert "(a+)+$" in REDOS
    src = home / "redos.toml"
    src.write_text(REDOS, encoding="utf-8")
    r = cli("kb", "add", str(src))
    assert r.code == 2, (r.out, r.err)
    assert "unsafe" in r.out and "nothing added" in r.err
    assert not (overlay_dir() / "redos.toml").exists()


def test_a_bad_overlay_in_the_directory_is_left_out_with_a_warning(cli, home):
    d = overlay_dir()
    d.mkdir(parents=True)
    # a release adds a built-in problem with the id a site already used; a file copied in by hand
    (d / "dup.toml").write_text(SITE_FILE.replace("site-nfs-model-dir-slow", "npu-out-of-memory"), encoding="utf-8")
    (d / "broken.toml").write_text("[family\n", encoding="utf-8")
    (d / "redos.toml").write_text(REDOS, encoding="utf-8")
    (d / "good.toml").write_text(SITE_FILE, encoding="utf-8")
    r = cli("explain", "561000")
    assert r.code == 0, r.err
    for name in ("dup.toml", "broken.toml", "redos.toml"):
        assert f"{name} was left out" in r.err, r.err
    assert "good.toml was left out" not in r.err
    r = cli("explain", "site-nfs-model-dir-slow")
    assert r.code == 0
    r = cli("diagnose", "--no-env", "--text", "ERROR " + "a" * 40 + "!")   # would hang with the regex in
    assert r.code in (0, 1)


def test_concurrent_kb_add_of_one_id_adds_it_once(home, tmp_path):
    env = {**os.environ, "ASCEND_DOCTOR_DATA": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}
    files = []
    for name in ("a.toml", "b.toml"):
        p = tmp_path / name
        p.write_text(SITE_FILE.replace("site-nfs-model-dir-slow", "site-race"), encoding="utf-8")
        files.append(p)
    exe = [sys.executable, "-m", "ascend_doctor"]
    procs = [subprocess.Popen([*exe, "kb", "add", str(f)], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for f in files]
    codes = sorted(p.wait(timeout=120) for p in procs)
    assert codes == [0, 2], [p.stderr.read() for p in procs]
    assert len(list((home / "data" / "overlay").glob("*.toml"))) == 1


def test_damage_in_the_middle_of_the_cache_is_found_and_rebuilt(kdir, tmp_path):
    db = tmp_path / "kb.sqlite"
    with KnowledgeBase(db, knowledge_dir=kdir) as kb:
        ids = kb.problem_ids()
    size = db.stat().st_size
    assert size > 64 * 1024
    with open(db, "r+b") as fh:                    # random bytes in the middle, header and kb_meta intact
        fh.seek(size // 2)
        fh.write(os.urandom(16 * 1024))
    warnings = []
    with KnowledgeBase(db, knowledge_dir=kdir, warn=warnings.append) as kb:
        assert kb.problem_ids() == ids
    assert any("bad-0" in w for w in warnings), warnings
    assert (tmp_path / "kb.sqlite.bad-0").exists()         # kept aside, never deleted
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_kb_build_force_rebuilds(cli, kdir, tmp_path):
    db = tmp_path / "kb.sqlite"
    with KnowledgeBase(db, knowledge_dir=kdir):
        pass
    first = db.stat().st_mtime_ns
    with KnowledgeBase(db, knowledge_dir=kdir, force=True):
        pass
    assert db.stat().st_mtime_ns != first


def test_no_home_directory_still_gives_a_knowledge_base(tmp_path):
    """A service account / runAsUser with HOME=/nonexistent: explain works, says where the database
    went, and never creates the missing home."""
    missing = tmp_path / "nonexistent"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "ASCEND_DOCTOR"))}
    env.update(HOME=str(missing), TMPDIR=str(tmp_path / "tmp"), ASCEND_DOCTOR_DATA=str(tmp_path / "data"))
    (tmp_path / "tmp").mkdir()
    r = subprocess.run([sys.executable, "-m", "ascend_doctor", "explain", "561000"], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    assert "561000" in r.stdout
    assert "cannot write the knowledge-base cache" in r.stderr
    assert not missing.exists()
    built = tmp_path / "tmp" / f"ascend-doctor-{os.getuid()}" / "kb.sqlite"
    assert built.is_file() and (built.parent.stat().st_mode & 0o077) == 0
    # a second run reuses it
    r = subprocess.run([sys.executable, "-m", "ascend_doctor", "explain", "561000"], env=env, cwd=ROOT,
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0 and "building the knowledge base" not in r.stderr
    assert "cannot write the knowledge-base cache" not in r.stderr       # said once, when it was built


def test_overlay_files_lists_only_toml(home):
    d = overlay_dir()
    d.mkdir(parents=True)
    (d / ".lock").write_text("")
    assert overlay_files() == []
