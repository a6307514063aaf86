"""Compiling the knowledge into SQLite: automatic, atomic, safe under concurrency, read-only queries."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap

import pytest

from ascend_doctor.kb.build import ensure_built, read_meta
from ascend_doctor.kb.query import KnowledgeBase


def test_built_on_first_use_and_queried(tmp_path, kdir):
    db = tmp_path / "kb.sqlite"
    kb = KnowledgeBase(db, knowledge_dir=kdir)
    assert db.exists()
    p = kb.problem("weight-load-hang-kernel-hdk")
    assert p.title["zh"] == "新内核与旧 HDK 组合下权重加载卡住"
    assert p.fixes[0]["kind"] == "workaround"
    assert p.fixes[0]["steps"][0]["command"] == "--safetensors-load-strategy eager"
    codes = kb.codes("561000")
    assert [c.code for c in codes] == ["561000", "561xxx"]          # exact first, then the range
    assert codes[0].problems == ["moe-dispatch-561000-a2-direct"]
    assert [c.code for c in kb.codes("561103")] == ["561xxx"]        # only the range knows it
    assert kb.codes("999999") == []
    assert kb.problems_for_code("561000") == ["moe-dispatch-561000-a2-direct"]
    assert kb.code_names("hccl_e_timeout")[0].code == "9"
    assert kb.compat("hdk-cann")[0]["hdk"][0] == "25.5.X"
    kb.close()


def test_rebuilt_when_a_knowledge_file_changes(tmp_path, kdir):
    db = tmp_path / "kb.sqlite"
    KnowledgeBase(db, knowledge_dir=kdir).close()
    before = read_meta(db)["content_hash"]
    f = kdir / "codes" / "hccl.toml"
    f.write_text(f.read_text().replace("HCCL operation timed out.", "HCCL operation timed out (changed)."))
    kb = KnowledgeBase(db, knowledge_dir=kdir)
    assert read_meta(db)["content_hash"] != before
    assert kb.codes("9")[0].meaning["en"] == "HCCL operation timed out (changed)."
    kb.close()


def test_not_rebuilt_when_nothing_changed(tmp_path, kdir):
    db = tmp_path / "kb.sqlite"
    KnowledgeBase(db, knowledge_dir=kdir).close()
    mtime = db.stat().st_mtime_ns
    KnowledgeBase(db, knowledge_dir=kdir).close()
    assert db.stat().st_mtime_ns == mtime


def test_queries_open_the_database_read_only(tmp_path, kdir):
    db = tmp_path / "kb.sqlite"
    kb = KnowledgeBase(db, knowledge_dir=kdir)
    from sqlalchemy import text
    from sqlalchemy.exc import OperationalError

    with pytest.raises(OperationalError, match="readonly"):
        with kb._engine.begin() as con:
            con.execute(text("DELETE FROM problem"))
    kb.close()


@pytest.mark.parametrize("content", [b"this is not a database at all\n" * 100, b""])
def test_a_corrupt_cache_file_is_kept_aside_and_rebuilt(home, kdir, content, monkeypatch):
    from ascend_doctor.kb.paths import default_db_path

    monkeypatch.delenv("ASCEND_DOCTOR_KB", raising=False)
    db = default_db_path()
    db.parent.mkdir(parents=True)
    db.write_bytes(content)
    warnings = []
    kb = KnowledgeBase(knowledge_dir=kdir, warn=warnings.append)
    assert kb.problem("weight-load-hang-kernel-hdk") is not None
    kb.close()
    assert len(warnings) == 1 and "not an ascend-doctor knowledge base" in warnings[0]
    kept = list(db.parent.glob("kb.sqlite.bad-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == content       # nothing is lost


@pytest.mark.parametrize("content", [b"this is not a database at all\n" * 100, b"", None])
def test_a_named_path_holding_a_file_that_is_not_ours_is_refused_and_left_alone(tmp_path, kdir, content):
    """--kb pointing at the user's own SQLite database or any file (a typo): refused, the file untouched."""
    from ascend_doctor.kb.build import ForeignFileRefused

    db = tmp_path / "kb.sqlite"
    if content is None:                      # another program's SQLite database
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE notes (x TEXT)")
        con.execute("INSERT INTO notes VALUES ('precious')")
        con.commit()
        con.close()
    else:
        db.write_bytes(content)
    before = db.read_bytes()
    with pytest.raises(ForeignFileRefused, match="not an ascend-doctor knowledge base.*left as it is"):
        KnowledgeBase(db, knowledge_dir=kdir)
    with pytest.raises(ForeignFileRefused):
        KnowledgeBase(db, knowledge_dir=kdir, force=True)
    assert db.read_bytes() == before and not list(tmp_path.glob("kb.sqlite.bad-*"))


def test_a_damaged_knowledge_base_of_ours_at_a_named_path_is_rebuilt(tmp_path, kdir):
    db = tmp_path / "kb.sqlite"
    KnowledgeBase(db, knowledge_dir=kdir).close()
    data = bytearray(db.read_bytes())
    data[len(data) // 2:len(data) // 2 + 4096] = b"\xff" * 4096   # damage in the middle: kb_meta still reads
    db.write_bytes(bytes(data))
    warnings = []
    KnowledgeBase(db, knowledge_dir=kdir, warn=warnings.append).close()
    assert warnings and "damaged" in warnings[0] and list(tmp_path.glob("kb.sqlite.bad-*"))


def test_twenty_processes_on_an_empty_cache_all_succeed(tmp_path, kdir):
    db = tmp_path / "cache" / "kb.sqlite"
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from ascend_doctor.kb.query import KnowledgeBase
        kb = KnowledgeBase(Path({str(db)!r}), knowledge_dir=Path({str(kdir)!r}))
        p = kb.problem("weight-load-hang-kernel-hdk")
        assert p is not None and kb.codes("561000")
        print("ok")
    """)
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(20)]
    results = [p.communicate(timeout=120) + (p.returncode,) for p in procs]
    assert all(rc == 0 and out.strip() == "ok" for out, err, rc in results), [r for r in results if r[2]]
    # one good database, no temporary files left behind
    assert read_meta(db)["application"] == "ascend-doctor-kb"
    leftovers = [p.name for p in db.parent.iterdir() if p.name not in ("kb.sqlite", "kb.sqlite.lock")]
    assert leftovers == []


def test_invalid_knowledge_is_refused_and_leaves_no_database(tmp_path, kdir):
    from ascend_doctor.kb.build import KnowledgeError

    f = kdir / "problems" / "kernel-os.toml"
    f.write_text(f.read_text().replace('severity = "error"', 'severity = "bad"', 1))
    db = tmp_path / "kb.sqlite"
    with pytest.raises(KnowledgeError) as exc:
        ensure_built(db, knowledge_dir=kdir, overlays=[])
    assert "severity 'bad'" in str(exc.value.issues[0])
    assert not db.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("kb.sqlite.") and p.name.endswith(".tmp")] == []


def test_env_variable_overrides_the_database_path(tmp_path, monkeypatch):
    from ascend_doctor.kb.paths import default_db_path

    monkeypatch.setenv("ASCEND_DOCTOR_KB", str(tmp_path / "elsewhere.sqlite"))
    assert default_db_path() == tmp_path / "elsewhere.sqlite"
    monkeypatch.delenv("ASCEND_DOCTOR_KB")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    assert default_db_path() == tmp_path / "c" / "ascend-doctor" / "kb.sqlite"
