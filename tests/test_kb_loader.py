"""Validation of knowledge files: precise file:line messages for every mistake a writer can make."""
from __future__ import annotations

from pathlib import Path

from ascend_doctor.kb.loader import load


def _issues(kdir: Path) -> list[str]:
    _, issues = load(kdir)
    return [str(i) for i in issues]


def test_mini_knowledge_is_valid(kdir):
    kn, issues = load(kdir)
    assert issues == []
    assert {p.id for p in kn.problems} == {"weight-load-hang-kernel-hdk", "moe-dispatch-561000-a2-direct"}
    p = next(p for p in kn.problems if p.id == "weight-load-hang-kernel-hdk")
    assert p.versions == {"driver": "<25.5.3", "kernel": ">=5.19"}
    assert [f.kind for f in p.fixes] == ["workaround", "permanent"]
    assert p.fixes[0].steps[1].command == "export VLLM_ENGINE_READY_TIMEOUT_S=100000"
    assert {c.code for c in kn.codes} == {"561000", "561xxx", "161002", "9"}


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _line_of(path: Path, needle: str) -> int:
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if needle in line:
            return i
    raise AssertionError(needle)


def test_unknown_key_reported_with_file_and_line(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, 'severity = "error"\nhardware = ["a2", "a3"]', 'severity = "error"\nfixs = []\nhardware = ["a2", "a3"]')
    line = _line_of(f, "fixs = []")
    assert f"problems/kernel-os.toml:{line}: problem 'weight-load-hang-kernel-hdk': unknown key 'fixs'" in "\n".join(_issues(kdir))


def test_missing_required_field(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, 'root_cause.zh = "该内核下驱动无法锁定 mmap 方式映射的 safetensors 文件页。"\n', "")
    msgs = _issues(kdir)
    assert any("problem 'weight-load-hang-kernel-hdk': 'root_cause.zh' is missing or empty" in m for m in msgs), msgs


def test_duplicate_id(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, 'id = "moe-dispatch-561000-a2-direct"', 'id = "weight-load-hang-kernel-hdk"')
    msgs = _issues(kdir)
    assert any("duplicate id" in m and "weight-load-hang-kernel-hdk" in m for m in msgs), msgs


def test_link_to_missing_problem(kdir):
    f = kdir / "codes" / "aclnn.toml"
    _edit(f, 'problems = ["moe-dispatch-561000-a2-direct"]', 'problems = ["no-such-problem"]')
    line = _line_of(f, 'problems = ["no-such-problem"]')
    expected = f"codes/aclnn.toml:{line}: code '561000': linked problem 'no-such-problem' does not exist"
    assert any(m.endswith(expected) for m in _issues(kdir))


def test_regex_that_does_not_compile(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, r"regex = 'Loading safetensors checkpoint shards:\s+0%'", "regex = 'Loading (safetensors'")
    msgs = _issues(kdir)
    assert any("regex does not compile" in m for m in msgs), msgs


def test_regex_must_match_its_examples_and_not_its_counter_examples(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, r"regex = 'Loading safetensors checkpoint shards:\s+0%'", r"regex = 'Loading safetensors checkpoint shards:\s+\d+%'")
    msgs = _issues(kdir)
    assert any("regex matches its no_match example" in m for m in msgs), msgs
    _edit(f, r"regex = 'Loading safetensors checkpoint shards:\s+\d+%'", r"regex = 'Loading safetensors checkpoint shards:\s+5%'")
    msgs = _issues(kdir)
    assert any("regex does not match its example" in m for m in msgs), msgs


def test_literal_must_be_in_examples(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, 'literal = "aclnnMoeDistributeDispatch"', 'literal = "DispatchV5"')
    assert any("literal 'DispatchV5' is not in match example" in m for m in _issues(kdir))


def test_vocabulary_and_sources_are_checked(kdir):
    f = kdir / "problems" / "kernel-os.toml"
    _edit(f, 'hardware = ["a2", "a3"]', 'hardware = ["a2", "a9"]')
    _edit(f, 'sources = ["https://www.hiascend.com/document/detail/zh/canncommercial/"]', 'sources = ["my memory"]')
    _edit(f, 'sources = ["https://www.hiascend.com/document/detail/zh/canncommercial/", "https://www.hiascend.com/document/detail/zh/canncommercial/"]', 'sources = ["reference/error-codes.md#1"]')
    msgs = "\n".join(_issues(kdir))
    assert "'hardware' has 'a9', not in vocabulary.toml" in msgs
    assert "source 'my memory' is not a public URL" in msgs
    assert "source 'reference/error-codes.md#1' is not a public URL" in msgs


def test_toml_syntax_error_has_line(kdir):
    f = kdir / "codes" / "hccl.toml"
    f.write_text(f.read_text() + "\n[[code]\n", encoding="utf-8")
    msgs = _issues(kdir)
    assert any("/codes/hccl.toml:" in m and "TOML syntax" in m for m in msgs), msgs


def test_version_strings_stay_strings(tmp_path, kdir):
    # TOML keeps "8.0" a string (the reason the KB is TOML and not YAML)
    kn, _ = load(kdir)
    row_hdk = [r for r in kn.compat if r.matrix == "hdk-cann"][0]
    assert row_hdk.data["cann"] == "8.5.0" and isinstance(row_hdk.data["cann"], str)
