"""``ascend-doctor diagnose``: accuracy floor over the real cases, clean logs, bad inputs, output formats."""
from __future__ import annotations

import json

import pytest

from .conftest import FIXTURES, ROOT, accuracy_bench

CLEAN = FIXTURES / "clean-logs"
CASES = ROOT / "tests" / "diagnosis_cases" / "dev"


@pytest.fixture(scope="module")
def accuracy():
    acc = accuracy_bench()
    from ascend_doctor.kb.query import KnowledgeBase

    cases = acc.load_cases(CASES)
    with KnowledgeBase() as kb:
        return cases, acc.evaluate(kb, cases)


def test_cases_are_complete(accuracy):
    cases, _ = accuracy
    from ascend_doctor.kb.query import KnowledgeBase

    assert len(cases) >= 40
    with KnowledgeBase() as kb:
        ids = set(kb.problem_ids())
    for c in cases:
        # expected = [] : the knowledge holds no cause of this report; the right answer is "no likely cause"
        assert set(c["expected"]) <= ids, c["name"]
        assert c["source"].startswith("https://"), c["name"]
        assert c["input"].strip(), c["name"]


def test_a_report_is_one_case():
    """An issue or pull request is one case in dev and holdout together (a report counted twice weighs twice, and
    one in both splits is tuned on): two cases may share a thread only when it holds two problems, with answers
    that share nothing."""
    import re

    from ascend_doctor.kb.toml import tomllib

    seen: dict = {}
    for f in sorted((ROOT / "tests" / "diagnosis_cases").glob("*/*.toml")):
        case = tomllib.loads(f.read_text(encoding="utf-8"))
        if re.search(r"/(?:issues|pull|pulls|discussions)/\d+", case["source"]):
            seen.setdefault(case["source"].rstrip("/"), []).append((f"{f.parent.name}/{f.name}", set(case["expected"])))
    for source, cases in seen.items():
        for i, (name, expected) in enumerate(cases):
            for other, theirs in cases[i + 1:]:
                assert expected and theirs and not expected & theirs, (source, name, other)


def test_accuracy_floor(accuracy):
    """A floor, not the target (dev figures are training scores; the holdout is reported apart)."""
    _, res = accuracy
    misses = [(r["name"], r["expected"], r["got"]) for r in res["rows"] if r["expected"] and r["rank"] != 1]
    # 0.8 / 0.85 since session 6: dev took two more fresh batches and 9 former holdout cases (their threads
    # were read by a knowledge author) as they came, untuned; 0.85 / 0.9 held before. 0.78 since session 7:
    # 11 more former holdout cases joined dev untuned (top-1 with an answer 239/299 then)
    assert res["top1_answerable"] >= 0.78, misses
    assert res["top3_answerable"] >= 0.85, misses
    called = [(r["name"], r["got"][:1], r["scores"][:1]) for r in res["rows"]
              if not r["expected"] and r["scores"] and r["scores"][0] >= 0.5]
    # 0.85 since session 5: the dev set took two fresh batches of reports as they came (39 of them without
    # an answer in the knowledge), measured before any tuning; 0.9 held only for cases chosen before
    assert res["abstained"] >= 0.85, called


@pytest.mark.parametrize("log", sorted(p.name for p in CLEAN.iterdir() if p.suffix in (".log", ".txt")))
def test_clean_logs_have_no_likely_cause(cli, log):
    r = cli("diagnose", "--no-env", "--format", "json", str(CLEAN / log))
    assert r.code == 0, r.err
    d = json.loads(r.out)
    assert all(f["score"] < 0.5 for f in d["findings"]), d["findings"]


SAMPLES = FIXTURES / "samples"
#: the real tool outputs of healthy machines (npu-smi tables and queries, version files, collect_env, a driver
#: or toolkit installer that ends well); samples that show a fault (a health alarm, an error) are not here
HEALTHY_OUTPUTS = sorted(
    str(p.relative_to(SAMPLES)) for d in ("npu-smi-info", "npu-smi-query", "version-files", "collect-env", "install-logs")
    for p in (SAMPLES / d).glob("*.txt")
    if "alarm" not in p.name and not p.name.startswith("firmware-"))


@pytest.mark.parametrize("sample", HEALTHY_OUTPUTS)
def test_healthy_tool_outputs_point_to_no_cause(sample):
    """A healthy machine's tool output pasted alone (as users paste them beside a question) is no evidence
    of a failure: no finding reaches 0.3."""
    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        d = diagnose(kb, paths=[str(SAMPLES / sample)])
    assert all(f.score < 0.3 for f in d.findings), [(f.id, f.score) for f in d.findings[:3]]


def test_a_firmware_installer_that_ends_well_asks_only_for_its_reboot():
    """The firmware installer's own last line says the upgrade takes effect after a reboot: that is the one
    finding (the installer asks for it), and nothing else reaches 0.3."""
    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        for p in sorted((SAMPLES / "install-logs").glob("firmware-*.txt")):
            d = diagnose(kb, paths=[str(p)])
            assert d.findings[0].id == "firmware-upgrade-needs-reboot", p.name
            assert all(f.score < 0.3 for f in d.findings[1:]), (p.name, [(f.id, f.score) for f in d.findings[:3]])


def test_json_schema(cli, tmp_path):
    p = tmp_path / "worker.log"
    p.write_text("[rank0]: RuntimeError: NPU out of memory. Tried to allocate 3.47 GiB (NPU 0; 60.97 GiB total capacity)\n"
                 "我用的 CANN 8.3.RC1\n", encoding="utf-8")
    r = cli("diagnose", "--no-env", "--format", "json", "--top", "2", str(p))
    assert r.code == 1
    d = json.loads(r.out)
    assert d["schema"] == "ascend-doctor/diagnosis/1"
    assert len(d["findings"]) <= 2
    f = d["findings"][0]
    assert f["id"] == "npu-out-of-memory" and 0 <= f["score"] <= 1
    for key in ("title", "root_cause", "fixes", "evidence"):
        assert f[key]
    assert all({"summary", "steps"} <= set(fx) for fx in f["fixes"])
    assert all({"source", "line", "text"} <= set(e) for e in f["evidence"])
    assert f["evidence"][0]["source"] == str(p) and f["evidence"][0]["line"] == 1
    assert isinstance(d["codes"], list) and isinstance(d["facts"], list)
    assert {"key": "cann.version", "value": "8.3.RC1"}.items() <= next(x for x in d["facts"] if x["key"] == "cann.version").items()


def test_text_output_escapes_markup(cli):
    r = cli("diagnose", "--no-env", "--text", "[bold red]pwned[/bold red] dcmi module initialize failed. ret is -8005")
    assert "[bold red]pwned[/bold red]" in r.out
    assert r.code in (0, 1)


def test_markdown_and_language(cli):
    r = cli("diagnose", "--no-env", "--format", "markdown", "--lang", "zh", "--text",
            "ImportError: libatb.so: cannot open shared object file: No such file or directory")
    assert r.out.startswith("## 诊断结果")
    assert "nnal-atb-not-sourced" in r.out


def test_stdin(cli):
    r = cli("diagnose", "--no-env", "--format", "json", "-",
            stdin="ImportError: libascendcl.so: cannot open shared object file: No such file or directory\n")
    assert json.loads(r.out)["findings"][0]["id"] == "cann-env-not-sourced"


@pytest.mark.parametrize("args,needle", [
    (["/no/such/file.log"], "no such file"),
    (["--top", "0", "--text", "x"], "--top"),
    (["--text", "   "], "empty"),
])
def test_bad_input_one_line_exit_2(cli, args, needle):
    r = cli("diagnose", "--no-env", *args)
    assert r.code == 2
    assert needle in r.err and len(r.err.strip().splitlines()) == 1
    assert "Traceback" not in r.err


def test_binary_and_empty_files(cli, tmp_path):
    b = tmp_path / "core"
    b.write_bytes(b"\x7fELF\x00\x01\x02" * 64)
    e = tmp_path / "empty.log"
    e.write_bytes(b"")
    r = cli("diagnose", "--no-env", str(b), str(e))
    assert r.code == 2 and "binary" in r.err and "empty" in r.err


def test_directory_with_plog_and_gz(cli, tmp_path):
    import gzip

    d = tmp_path / "log" / "debug" / "plog"
    d.mkdir(parents=True)
    (d / "plog-100_20250820.log").write_text(
        "[ERROR] HCCL(100,python3):2025-08-20-10:00:00.000.000 [hccl_socket_manager.cc:778] [200][Wait][LinkEstablish]"
        "wait socket establish timeout, role[1] rank[3] timeout[120]\n")
    with gzip.open(tmp_path / "log" / "old.log.gz", "wt") as fh:
        fh.write("INFO all good\n")
    r = cli("diagnose", "--no-env", "--format", "json", str(tmp_path / "log"))
    d = json.loads(r.out)
    assert d["findings"][0]["id"] == "hccl-connect-timeout"
    assert len(d["inputs"]) == 2


def test_sim_profile_facts_are_used(cli):
    r = cli("profiles")
    if r.code != 0:
        pytest.skip("profiles command not available")
    first = next((ln.split()[0] for ln in r.out.splitlines() if ln.strip() and not ln.startswith(" ")), None)
    r = cli("diagnose", "--sim", first, "--format", "json", "--text", "EZ9999: Inner Error!")
    assert r.code in (0, 1), r.err
    assert json.loads(r.out)["facts"]


@pytest.mark.parametrize("fmt,mark", [("text", "•"), ("markdown", "- ")])
def test_the_check_that_fails_here_is_shown_as_evidence_not_only_in_json(cli, fmt, mark):
    """A cause the machine's own check finds lists that check under its "why" in text and Markdown too (the
    renderers used to drop every fact-kind evidence, leaving an empty "Why:"); the confirm / rule-out notes keep
    their own marked lines."""
    r = cli("diagnose", "--sim", "cann-env-not-sourced", "--format", fmt, "--text", "import torch_npu fails")
    assert "AD-CANN-002 FAIL" in r.out and r.out.count("AD-CANN-002 FAIL") == 1, r.out
    why = r.out.split("AD-CANN-002 FAIL")[0].rsplit("\n", 1)[-1]
    assert mark in why, why


def test_a_variable_the_report_exports_reaches_the_checks(cli):
    """`export ASCEND_LAUNCH_BLOCKING=1` in a pasted launch script is a fact of the report: the check on it names
    the synchronous-launch problem with the check's line as evidence; commented out, it says nothing."""
    script = "export HCCL_BUFFSIZE=1024\n{}export ASCEND_LAUNCH_BLOCKING=1\nvllm serve /models/qwen3-32b -tp 2\n" \
             "推理速度非常慢，吞吐只有预期的十分之一"
    r = cli("diagnose", "--no-env", "--format", "json", "--text", script.format(""))
    found = {f["id"]: f for f in json.loads(r.out)["findings"]}
    assert "synchronous-op-execution-slow" in found, r.out
    assert any("AD-PY-012" in e["text"] for e in found["synchronous-op-execution-slow"]["evidence"])
    r = cli("diagnose", "--no-env", "--format", "json", "--text", script.format("#"))
    assert not any("AD-PY-012" in e["text"] for f in json.loads(r.out)["findings"] for e in f["evidence"])


def test_triton_ascend_and_cann_the_report_names_are_checked_against_the_official_table(cli):
    """triton-ascend 3.2.0 is built for CANN 8.5.0 (the triton-ascend installation guide): a report of it with
    CANN 9.1.0 gets the version-mismatch cause from the table alone, with AD-PY-014's line as evidence."""
    r = cli("diagnose", "--no-env", "--format", "json", "--text",
            "使用CANN-9.1.0和triton-ascend-3.2.0版本拉起训练时报错，报错难以定位。")
    found = {f["id"]: f for f in json.loads(r.out)["findings"]}
    assert "triton-ascend-cann-version-mismatch" in found, r.out
    assert any("AD-PY-014" in e["text"] for e in found["triton-ascend-cann-version-mismatch"]["evidence"])


def test_mindspore_and_cann_the_report_names_are_checked_against_the_release_list(cli):
    """MindSpore 2.3.1 is paired with CANN 8.0.RC2 (MindSpore's release list): a report of it with CANN 8.0.RC3 (same
    8.0 line, another release) gets the version-mismatch cause from the table alone, with AD-PY-015's line as
    evidence; the paired CANN gets no such line."""
    text = "MindSpore 2.3.1 with CANN {}: training fails to start"
    r = cli("diagnose", "--no-env", "--format", "json", "--text", text.format("8.0.RC3"))
    found = {f["id"]: f for f in json.loads(r.out)["findings"]}
    assert "mindspore-cann-version-mismatch" in found, r.out
    assert any("AD-PY-015" in e["text"] and "8.0.RC3" in e["text"] and "2.3.1" in e["text"]
               for e in found["mindspore-cann-version-mismatch"]["evidence"])
    r = cli("diagnose", "--no-env", "--format", "json", "--text", text.format("8.0.RC2"))
    assert not any("AD-PY-015" in e["text"] for f in json.loads(r.out)["findings"] for e in f["evidence"])


def test_a_cann_line_written_short_is_checked_where_its_releases_agree(cli):
    """'CANN 8.5' as people write it is any release of the 8.5 line: MindSpore 2.3.1 pairs with none of them (a
    mismatch), MindSpore 2.7.2 with 8.5.0 (cannot be checked, no warning); HDK 24.1.0 is documented for no
    release of the 8.3 line (8.3.RC1, 8.3.RC2), so the CANN / HDK check fails from the text alone."""
    def checks(text):
        r = cli("diagnose", "--no-env", "--format", "json", "--text", text)
        return " ".join(e["text"] for f in json.loads(r.out)["findings"] for e in f["evidence"])

    assert "AD-PY-015" in checks("MindSpore 2.3.1 with CANN 8.5: training fails to start")
    assert "AD-PY-015" not in checks("MindSpore 2.7.2 with CANN 8.5: training fails to start")
    assert "AD-CANN-001" in checks("CANN 8.3 装好后报错 aclInit failed，驱动版本 24.1.0")
