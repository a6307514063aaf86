"""``ascend-doctor kb import-faultdiag``: MindCluster FaultDiag's kg-config.json as a user overlay.

Tested with a small fixture written in the kg-config.json format (tests/fixtures/faultdiag/), never
with Huawei's own file.
"""
from __future__ import annotations

import json
import re
import shutil

import pytest

from ascend_doctor.kb import faultdiag
from ascend_doctor.kb.build import overlay_files
from ascend_doctor.kb.loader import load
from ascend_doctor.kb.paths import KNOWLEDGE_DIR, overlay_dir
from ascend_doctor.kb.query import KnowledgeBase

from .conftest import FIXTURES, MINI_KB

SMALL = FIXTURES / "faultdiag" / "kg-config-small.json"


@pytest.fixture(scope="module")
def converted(tmp_path_factory):
    d = tmp_path_factory.mktemp("fd")
    kd = d / "knowledge"
    shutil.copytree(MINI_KB, kd)
    shutil.copy(KNOWLEDGE_DIR / "vocabulary.toml", kd / "vocabulary.toml")
    repo = faultdiag.read_kg(SMALL)
    text, report = faultdiag.build_overlay(repo, kd, [], d)
    path = d / "faultdiag.toml"
    path.write_text(text, encoding="utf-8")
    kn, issues = load(kd, [path])
    assert issues == []
    return {"text": text, "report": report, "kn": kn, "path": path, "kdir": kd}


def _problem(kn, pid):
    return next(p for p in kn.problems if p.id == pid)


def test_every_usable_entry_becomes_a_problem_and_a_code(converted):
    rep, kn = converted["report"], converted["kn"]
    assert rep.entries == 10 and rep.problems == 9 and rep.codes == 9
    assert [d.split(":")[0] for d in rep.dropped_entries] == ["TEST_Broken_10"]
    fd = [p for p in kn.problems if p.origin == "faultdiag"]
    assert len(fd) == 9 and all(p.family == "faultdiag" for p in fd)
    p = _problem(kn, "fd-test-hccl-timeout-01")
    assert p.sources == ["faultdiag:TEST_HCCL_Timeout_01"]
    assert p.codes == ["TEST_HCCL_TIMEOUT_01"]
    assert p.title == {"en": "Test: collective waited too long for a peer", "zh": "测试：集合通信等待对端超时"}
    assert [s.en for s in p.fixes[0].steps] == ["1. Check that the processes on every node started;",
                                                 "2. Check the network between the nodes."]
    assert "ascend-fd" in p.components and "cann" in p.components
    # propagation edges become links, but only to entries that exist
    assert p.related == ["fd-test-net-linkdown-02"]
    codes = {c.code: c for c in kn.codes if c.origin == "faultdiag"}
    assert codes["0x8C0FFEE1"].family == "faultdiag" and codes["0x8C0FFEE1"].problems == ["fd-0x8c0ffee1"]


def test_missing_english_falls_back_to_chinese_and_no_suggestion_gets_a_step(converted):
    p = _problem(converted["kn"], "fd-test-nopattern-08")
    assert p.title["en"] == p.title["zh"] == "测试：没有日志模式的条目"
    assert p.signatures == []
    assert "contact Huawei technical support" in p.fixes[0].steps[0].en


def test_and_group_signature_needs_every_substring_in_any_order(converted):
    p = _problem(converted["kn"], "fd-test-hccl-timeout-01")
    (sig,) = p.signatures
    assert sig.literal == "wait peer timeout"
    rx = re.compile(sig.regex)
    assert rx.search("[ERROR] HCCL(1234) wait peer timeout, rank=3 peer=5")
    assert rx.search("rank=3: wait peer timeout")            # order does not matter
    assert not rx.search("[ERROR] HCCL(1234) wait peer timeout")
    assert not rx.search("rank=3 ok")


def test_or_of_groups_becomes_several_signatures(converted):
    p = _problem(converted["kn"], "fd-test-net-linkdown-02")
    assert sorted(s.literal for s in p.signatures) == ["LINK_DOWN_EVENT", "link status change"]
    two = next(s for s in p.signatures if s.literal == "link status change")
    assert re.search(two.regex, "port 3 link status change: up -> down")
    assert not re.search(two.regex, "port 3 link status change: up")


def test_real_regex_kept_bad_ones_skipped_with_reasons(converted):
    kn, rep = converted["kn"], converted["report"]
    (sig,) = _problem(kn, "fd-0x8c0ffee1").signatures
    assert sig.regex == "fixture_ecc multi_bit_cnt=[1-9][0-9]{0,3}"
    assert sig.literal == "fixture_ecc multi_bit_cnt="
    assert re.search(sig.regex, sig.match[0])
    skipped = "\n".join(rep.skipped_patterns)
    assert "TEST_Regex_NoLiteral_04: regex has no fixed text" in skipped
    assert "TEST_Regex_Broken_06: regex does not compile" in skipped
    assert "TEST_Regex_Catastrophic_05: regex backtracks" in skipped
    assert "TEST_ShortPattern_09" in skipped
    assert _problem(kn, "fd-test-regex-catastrophic-05").signatures == []


def test_multi_line_rule_groups_become_weak_signatures(converted):
    p = _problem(converted["kn"], "fd-test-multiline-07")
    assert len(p.signatures) == 2 and all(s.weight == 0.5 for s in p.signatures)
    assert converted["report"].weak_signatures == 2
    assert "vllm-ascend" in p.components


def test_every_generated_regex_is_linear_on_long_lines(converted):
    from ascend_doctor.kb.regex_safety import check

    regexes = [s.regex for p in converted["kn"].problems if p.origin == "faultdiag" for s in p.signatures]
    assert regexes and all(t.safe for t in check(regexes))


def test_import_cli_writes_faultdiag_toml_and_entries_are_searchable(cli, home, kdir):
    r = cli("kb", "import-faultdiag", str(SMALL))
    assert r.code == 0, r.err
    target = overlay_dir() / "faultdiag.toml"
    assert target.is_file() and str(target) in r.out
    assert "9 problems, 9 codes" in r.out and "skipped pattern: TEST_Regex_Broken_06" in r.out
    kb = KnowledgeBase(home / "kb.sqlite", knowledge_dir=kdir, overlays=overlay_files())
    try:
        stats = kb.stats()
        assert stats["problems"]["faultdiag"] == {"faultdiag": 9}
        assert stats["codes"]["faultdiag"] == {"faultdiag": 9}
        assert sum(stats["problems"]["builtin"].values()) == 2           # built-ins counted apart
        assert kb.search("collective waited too long peer")[0].ref == "fd-test-hccl-timeout-01"
        assert kb.search("网口断开")[0].ref == "fd-test-net-linkdown-02"
        (code,) = kb.codes("test_hccl_timeout_01")
        assert code.origin == "faultdiag" and code.problems == ["fd-test-hccl-timeout-01"]
        assert kb.problems_for_code("0x8c0ffee1") == ["fd-0x8c0ffee1"]
        lits = {s.literal for s in kb.signatures()}
        assert {"wait peer timeout", "LINK_DOWN_EVENT"} <= lits
    finally:
        kb.close()


def test_reimport_replaces_the_file(cli, home):
    assert cli("kb", "import-faultdiag", str(SMALL)).code == 0
    data = json.loads(SMALL.read_text(encoding="utf-8"))
    del data["knowledge-repository"]["TEST_Net_LinkDown_02"]
    smaller = home / "kg.json"
    smaller.write_text(json.dumps(data), encoding="utf-8")
    r = cli("kb", "import-faultdiag", str(smaller))
    assert r.code == 0, r.err
    text = (overlay_dir() / "faultdiag.toml").read_text(encoding="utf-8")
    assert "fd-test-net-linkdown-02" not in text and "fd-test-hccl-timeout-01" in text


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    ("{not json", "is not JSON"),
    ("[1, 2]", "no 'knowledge-repository'"),
    ('{"knowledge-repository": []}', "no 'knowledge-repository'"),
    ('{"knowledge-repository": {}}', "empty"),
    ('{"knowledge-repository": {"A": 1, "B": "x"}}', "no 'attribute'"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(cli, home, content, message):
    d = overlay_dir()
    d.mkdir(parents=True)
    before = d / "faultdiag.toml"
    before.write_text("# an earlier import\n", encoding="utf-8")
    path = home / "kg-config.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    r = cli("kb", "import-faultdiag", str(path))
    assert r.code == 2
    assert message in r.err and r.err.count("\n") == 1 and "Traceback" not in r.err
    assert before.read_text(encoding="utf-8") == "# an earlier import\n"
    assert sorted(p.name for p in d.iterdir()) == ["faultdiag.toml"]


def test_found_in_an_installed_ascend_fd_package(cli, home, monkeypatch):
    site = home / "site"
    pkg = site / "ascend_fd" / "configuration"
    pkg.mkdir(parents=True)
    (site / "ascend_fd" / "__init__.py").write_text("raise RuntimeError('must not be imported')\n")
    shutil.copy(SMALL, pkg / "kg-config.json")
    monkeypatch.syspath_prepend(str(site))
    assert faultdiag.find_installed() == pkg / "kg-config.json"
    r = cli("kb", "import-faultdiag")
    assert r.code == 0, r.err
    assert (overlay_dir() / "faultdiag.toml").is_file()


def test_no_installed_package_and_no_path(cli, home, monkeypatch):
    monkeypatch.setattr(faultdiag, "find_installed", lambda: None)
    r = cli("kb", "import-faultdiag")
    assert r.code == 2 and "ascend_fd" in r.err and r.err.count("\n") == 1
    assert not (overlay_dir() / "faultdiag.toml").exists()
