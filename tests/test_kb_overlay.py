"""User overlays: ``ascend-doctor kb add FILE.toml`` (validated like built-in knowledge) and their use."""
from __future__ import annotations

from pathlib import Path

from ascend_doctor.kb.build import overlay_files
from ascend_doctor.kb.paths import overlay_dir
from ascend_doctor.kb.query import KnowledgeBase


SITE_FILE = '''
[family]
name = "site"
title.en = "Our site's own problems"
title.zh = "本站点自己的问题"

[[problem]]
id = "site-nfs-model-dir-slow"
title.en = "Model directory on NFS makes loading crawl"
title.zh = "模型目录放在 NFS 上导致加载极慢"
summary.en = "Our cluster keeps models on an NFS share; loading from it takes many minutes."
summary.zh = "本集群把模型放在 NFS 共享上，从中加载需要很多分钟。"
root_cause.en = "The share is mounted with small read sizes."
root_cause.zh = "该共享以较小的读块挂载。"
severity = "warning"
hardware = ["any"]
components = ["os"]
symptoms.en = ["model loading from /mnt/nfs-models is very slow"]
symptoms.zh = ["从 /mnt/nfs-models 加载模型很慢"]
sources = ["user:site runbook page 12"]

[[problem.signature]]
literal = "/mnt/nfs-models"
regex = 'open .*?/mnt/nfs-models/\\S+ took \\d{3,} s'
match = ["open /mnt/nfs-models/qwen/model-00001.safetensors took 412 s"]
no_match = ["open /mnt/nfs-models/qwen/model-00001.safetensors took 2 s"]

[[problem.fix]]
kind = "workaround"
summary.en = "Copy the model to local disk first"
summary.zh = "先把模型复制到本地盘"

[[problem.fix.step]]
en = "Copy the model directory to local NVMe and point the engine at the copy."
zh = "把模型目录复制到本地 NVMe，并让引擎使用该副本。"
command = "cp -r /mnt/nfs-models/qwen /data/models/"
'''


def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_add_copies_a_valid_file_into_the_overlay_dir(cli, home):
    src = _write(home, "site.toml", SITE_FILE)
    r = cli("kb", "add", str(src))
    assert r.code == 0, r.err
    target = overlay_dir() / "site.toml"
    assert target.read_text(encoding="utf-8") == SITE_FILE
    assert str(target) in r.out
    assert str(home / "data") in str(target)
    r = cli("kb", "overlays")
    assert "site.toml" in r.out


def test_added_problems_take_part_in_search_explain_and_stats(home, kdir):
    from ascend_doctor.kb import overlay

    src = _write(home, "site.toml", SITE_FILE)
    target, issues = overlay.add(src, knowledge_dir=kdir)
    assert issues == [] and target.is_file()
    kb = KnowledgeBase(home / "kb.sqlite", knowledge_dir=kdir, overlays=overlay_files())
    try:
        p = kb.problem("site-nfs-model-dir-slow")
        assert p is not None and p.origin == "user" and p.family == "site"
        assert kb.search("nfs model loading slow")[0].ref == "site-nfs-model-dir-slow"
        assert kb.search("模型 加载 很慢 NFS")[0].ref == "site-nfs-model-dir-slow"
        sigs = [s for s in kb.signatures() if s.problem_id == "site-nfs-model-dir-slow"]
        assert sigs and sigs[0].literal == "/mnt/nfs-models"
        stats = kb.stats()
        assert stats["problems"]["user"] == {"site": 1}
        assert "site" not in stats["problems"]["builtin"]
    finally:
        kb.close()


def test_add_rejects_an_invalid_file_and_writes_nothing(cli, home):
    bad = SITE_FILE.replace('severity = "warning"', 'severity = "warning"\nfixs = []')
    src = _write(home, "site.toml", bad)
    r = cli("kb", "add", str(src))
    assert r.code == 2
    assert f"{src}:" in r.out and "unknown key 'fixs'" in r.out
    assert r.err.count("\n") == 1 and "nothing added" in r.err
    assert not (overlay_dir() / "site.toml").exists()


def test_add_rejects_a_duplicate_of_a_builtin_id(cli, home):
    dup = SITE_FILE.replace("site-nfs-model-dir-slow", "weight-load-hang-kernel-hdk")
    src = _write(home, "dup.toml", dup)
    r = cli("kb", "add", str(src))
    assert r.code == 2 and "duplicate id" in r.out
    assert not (overlay_dir() / "dup.toml").exists()


def test_add_rejects_a_signature_that_misses_its_example(cli, home):
    bad = SITE_FILE.replace("took 412 s", "took 4 s")
    r = cli("kb", "add", str(_write(home, "site.toml", bad)))
    assert r.code == 2 and "regex does not match its example" in r.out


def test_readding_the_same_name_replaces_it(cli, home):
    src = _write(home, "site.toml", SITE_FILE)
    assert cli("kb", "add", str(src)).code == 0
    src.write_text(SITE_FILE.replace("very slow", "extremely slow"), encoding="utf-8")
    r = cli("kb", "add", str(src))
    assert r.code == 0, r.out + r.err
    assert "extremely slow" in (overlay_dir() / "site.toml").read_text(encoding="utf-8")


def test_add_and_remove_errors(cli, home):
    r = cli("kb", "add", str(home / "missing.toml"))
    assert r.code == 2 and "no such file" in r.err and r.err.count("\n") == 1
    r = cli("kb", "add", str(_write(home, "faultdiag-mine.toml", SITE_FILE)))
    assert r.code == 2 and "import-faultdiag" in r.err
    r = cli("kb", "add", str(_write(home, "site.txt", SITE_FILE)))
    assert r.code == 2
    r = cli("kb", "remove", "nothing.toml")
    assert r.code == 1
    assert cli("kb", "add", str(_write(home, "site.toml", SITE_FILE))).code == 0
    r = cli("kb", "remove", "site.toml")
    assert r.code == 0 and not (overlay_dir() / "site.toml").exists()


def _with_condition(condition: str) -> str:
    return SITE_FILE.replace('sources = ["user:site runbook page 12"]',
                             f'sources = ["user:site runbook page 12"]\nconfirm_when = {condition}')


def test_add_checks_conditions_with_the_real_grammar(cli, home):
    """An overlay condition that could never match (a misspelt operator, a value of the wrong type, a fact
    key no probe produces) is refused with the file and line, instead of silently never matching."""
    line = _with_condition("{}").splitlines().index("confirm_when = {}") + 1
    cases = [
        ('{ fact = "kernel.release", op = "version_gte_typo", value = "6.0" }', "unknown op 'version_gte_typo'"),
        ('{ fact = "npu.count", op = "lt", value = "eight" }', "op lt needs a number"),
        ('{ fact = "kernel.release", op = "version_ge", value = "six" }', "kernel"),
        ('{ fact = "kernel.relase", op = "version_ge", value = "6.0" }', "unknown fact key 'kernel.relase'"),
        ('{ all = [{ fact = "npu.count", op = "ge", value = 1 }, { fact = "hardware.famly", op = "eq", value = "a2" }] }',
         "confirm_when.all[1]: unknown fact key 'hardware.famly'"),
    ]
    for condition, message in cases:
        src = _write(home, "site.toml", _with_condition(condition))
        for command, code in ((("kb", "add", str(src)), 2), (("kb", "validate", str(src)), 1)):
            r = cli(*command)
            assert r.code == code, (condition, command, r.out, r.err)
            assert f"{src}:{line}:" in r.out and message in r.out, (condition, r.out)
        assert not (overlay_dir() / "site.toml").exists()


def test_add_accepts_a_valid_condition_and_it_is_evaluated(cli, home):
    good = _with_condition('{ fact = "env.MODEL_DIR", op = "matches", value = "^/mnt/nfs-models" }')
    r = cli("kb", "add", str(_write(home, "site.toml", good)))
    assert r.code == 0, r.out + r.err


def test_site_overlays_are_read_for_every_user_and_a_user_file_replaces_one(cli, home, monkeypatch):
    """An administrator's /etc/ascend-doctor/knowledge.d (ASCEND_DOCTOR_SITE_KNOWLEDGE) is part of the
    knowledge of every user; a user overlay of the same name replaces it; it is never written."""
    site = home / "site-knowledge"
    site.mkdir()
    (site / "site.toml").write_text(SITE_FILE, encoding="utf-8")
    monkeypatch.setenv("ASCEND_DOCTOR_SITE_KNOWLEDGE", str(site))
    r = cli("explain", "site-nfs-model-dir-slow")
    assert r.code == 0 and "NFS" in r.out, r.out + r.err
    r = cli("kb", "overlays")
    assert "site.toml  (site)" in r.out and str(site) in r.out
    mine = SITE_FILE.replace("Model directory on NFS makes loading crawl", "Our NFS model share is slow")
    assert cli("kb", "add", str(_write(home, "site.toml", mine))).code == 0
    r = cli("explain", "site-nfs-model-dir-slow")
    assert r.code == 0 and "Our NFS model share is slow" in r.out
    assert "site.toml  (user)" in cli("kb", "overlays").out
    assert (site / "site.toml").read_text(encoding="utf-8") == SITE_FILE
