"""The front door: explain, search, kb, errors and exit codes, as a user meets them."""
from __future__ import annotations

import json

import pytest


@pytest.mark.parametrize("code, family, needle", [
    ("561000", "aclnn", "ACLNN_ERR_INNER"),
    ("EI0006", "cann", "EI0006"),
    ("ei0006", "cann", "EI0006"),
    ("-8005", "dcmi", "-8005"),
    ("507033", "acl", "507033"),
    ("ERR00100", "torch_npu", "ERR00100"),
])
def test_explain_every_code_family(cli, code, family, needle):
    r = cli("explain", code)
    assert r.code == 0, r.err
    assert needle in r.out and f"family: {family}" in r.out
    j = json.loads(cli("explain", code, "--format", "json").out)
    assert j["kind"] == "code" and any(c["family"] == family for c in j["codes"])


def test_explain_507033_lists_its_distinct_causes(cli):
    j = json.loads(cli("explain", "507033", "--format", "json").out)
    c = next(c for c in j["codes"] if c["family"] == "acl")
    assert len(c["causes"]["en"]) >= 3
    assert {"device-open-failed", "opp-mismatch-device-setup"} <= set(c["problems"])


def test_explain_problem_id_shows_root_cause_and_both_fixes(cli):
    r = cli("explain", "weight-load-hang-kernel-hdk")
    assert r.code == 0, r.err
    assert "--safetensors-load-strategy eager" in r.out
    assert "VLLM_ENGINE_READY_TIMEOUT_S" in r.out
    assert "Temporary fix" in r.out and "Permanent fix" in r.out
    zh = cli("explain", "weight-load-hang-kernel-hdk", "--lang", "zh")
    assert "临时方案" in zh.out and "长期方案" in zh.out


def test_explain_unknown_code_says_so_with_nearest(cli):
    r = cli("explain", "561999x")
    assert r.code == 1
    assert "unknown code or id '561999x'" in r.err and "nearest known codes" in r.err
    assert r.out == ""
    assert len(r.err.strip().splitlines()) == 1


def test_explain_code_in_a_known_range(cli):
    r = cli("explain", "561777")
    assert r.code == 0
    assert "561xxx" in r.out


@pytest.mark.parametrize("query", ["权重加载 卡住", "weight loading hang"])
def test_search_weight_load_hang_first(cli, query):
    r = cli("search", query, "--format", "json")
    assert r.code == 0, r.err
    results = json.loads(r.out)["results"]
    assert results[0]["ref"] == "weight-load-hang-kernel-hdk", results[:3]


def test_search_without_results_exits_1(cli):
    r = cli("search", "qwertyuiop zxcvbnm")
    assert r.code == 1 and "No known problem" in r.out


def test_kb_validate_and_stats(cli):
    r = cli("kb", "validate")
    assert r.code == 0, r.out[-2000:]
    stats = json.loads(cli("kb", "stats", "--format", "json").out)
    assert sum(stats["problems"]["builtin"].values()) >= 39      # seed problems + 30 more
    assert set(stats["codes"]["builtin"]) >= {"aclnn", "acl", "cann", "dcmi", "hccl", "torch_npu"}


@pytest.mark.parametrize("argv", [["explain"], ["--nope"], ["search", "x", "--limit", "0"], ["kb"], ["explain", ""],
                                  ["search", "--format", "yaml", "x"], ["frobnicate"]])
def test_usage_errors_are_one_line_exit_2(cli_proc, argv):
    r = cli_proc(*argv)
    assert r.code == 2, (argv, r.out, r.err)
    assert "Traceback" not in r.err
    assert len(r.err.strip().splitlines()) == 1, r.err


def test_a_kb_path_holding_another_file_is_refused_and_left_alone(cli_proc, tmp_path):
    db = tmp_path / "notes.txt"
    db.write_text("garbage")
    r = cli_proc("explain", "561000", "--kb", str(db))
    assert r.code == 2 and "Traceback" not in r.err and len(r.err.strip().splitlines()) == 1
    assert "not an ascend-doctor knowledge base" in r.err and "left as it is" in r.err
    assert db.read_text() == "garbage" and not list(tmp_path.glob("notes.txt.bad-*"))


def test_markup_in_user_input_is_not_interpreted(cli):
    r = cli("explain", "[bold red]x[/]")
    assert r.code == 1 and "[bold red]x[/]" in r.err


def test_lang_is_accepted_anywhere_and_for_every_command(cli):
    assert "类别" in cli("--lang", "zh", "explain", "561000").out
    assert "类别" in cli("explain", "561000", "--lang=zh").out
    assert cli("profiles", "--lang", "zh").code == 0
    r = cli("--lang", "fr", "explain", "561000")
    assert r.code == 2 and "en or zh" in r.err


def test_a_mistyped_command_gets_a_suggestion(cli):
    r = cli("expain", "561000")
    assert r.code == 2 and "did you mean 'explain'" in r.err


def test_a_mistyped_option_gets_a_suggestion(cli):
    r = cli("explain", "561000", "--formt", "json")
    assert r.code == 2 and "did you mean '--format'" in r.err and "Traceback" not in r.err


@pytest.mark.parametrize("argv", [
    ("explain", "561000"), ("search", "weight loading hang"), ("rules",), ("profiles",), ("facts", "--sim", "healthy-a2-host"),
    ("compat", "--list"), ("kb", "stats"),
])
def test_every_listing_command_has_text_and_json_from_one_table(cli, argv):
    text = cli(*argv)
    assert text.code == 0, text.err
    j = cli(*argv, "--format", "json")
    assert j.code == 0, j.err
    json.loads(j.out)


def test_output_to_a_pipe_is_never_hard_wrapped(cli):
    """Commands and URLs stay on one line when the output is not a terminal, so they can be copied whole."""
    r = cli("explain", "weight-load-hang-kernel-hdk")
    assert r.code == 0, r.err
    commands = [ln.strip() for ln in r.out.splitlines() if "VLLM_ENGINE_READY_TIMEOUT_S" in ln]
    assert commands and all(len(ln) > 0 for ln in commands)
    sources = [ln.strip() for ln in r.out.splitlines() if ln.strip().startswith("https://")]
    assert sources and all(" " not in s for s in sources)
    long_lines = [ln for ln in r.out.splitlines() if len(ln) > 100]
    assert long_lines, "nothing was longer than 100 columns: the output is still wrapped"
    s = cli("search", "weight loading hang")
    assert all(ln.lstrip()[:1].isdigit() or ln.startswith("ascend-doctor") for ln in s.out.splitlines() if ln.strip())


@pytest.mark.parametrize("lang, needle", [("en", "Prints no message of its own: it stops without a message"),
                                          ("zh", "无专属报错信息: 卡住且无报错")])
def test_explain_says_how_a_failure_that_prints_nothing_shows(cli, lang, needle):
    """A hang, a slowdown, a wrong answer print no error to search for: explain says what the user sees instead,
    in text and JSON."""
    assert needle in cli("explain", "npu-smi-hang", "--lang", lang).out
    assert json.loads(cli("explain", "npu-smi-hang", "--format", "json").out)["problem"]["silent"] == "hang"
