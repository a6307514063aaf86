"""``ascend-doctor compat`` and the compatibility matrices it reads (kb/knowledge/compat/*.toml)."""
from __future__ import annotations

import csv
import json
import shutil

import pytest

from ascend_doctor.diagnose.services.compat import VersionMatcher, run_query
from ascend_doctor.kb.paths import KNOWLEDGE_DIR
from ascend_doctor.kb.query import KnowledgeBase

from .conftest import FIXTURES

REFERENCE = FIXTURES / "compat" / "vllm-ascend-release-matrix.csv"
MATRICES = ("hdk-cann", "torch-npu", "vllm-ascend", "mindie-cann", "engine-hardware", "products", "python-deps",
            "triton-ascend", "mindspore-cann")
KEYS = {"hdk-cann": "cann", "torch-npu": "torch_npu", "vllm-ascend": "vllm_ascend", "mindie-cann": "mindie",
        "engine-hardware": "engine", "products": "product", "python-deps": "package", "triton-ascend": "triton_ascend",
        "mindspore-cann": "mindspore"}


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """A knowledge base holding only the real compatibility matrices (independent of the problem files)."""
    d = tmp_path_factory.mktemp("compat-kb") / "knowledge"
    (d / "problems").mkdir(parents=True)
    (d / "codes").mkdir()
    for name in ("vocabulary.toml", "synonyms.toml"):
        shutil.copy(KNOWLEDGE_DIR / name, d / name)
    shutil.copytree(KNOWLEDGE_DIR / "compat", d / "compat")
    k = KnowledgeBase(d.parent / "kb.sqlite", knowledge_dir=d, overlays=[])
    yield k
    k.close()


def _q(kb, **q):
    return run_query(kb.compat, {k: q.get(k) for k in ("cann", "hdk", "torch_npu", "vllm_ascend", "engine", "product")})


def _section(result, matrix, startswith=""):
    secs = [s for s in result["sections"] if s["matrix"] == matrix and s["title"].startswith(startswith)]
    assert secs, [s["title"] for s in result["sections"]]
    return secs[0]["rows"]


def test_every_matrix_exists_with_its_key_and_sources(kb):
    for m in MATRICES:
        rows = kb.compat(m)
        assert rows, m
        for r in rows:
            assert r.get(KEYS[m]), (m, r)
            assert r["source"].startswith(("https://", "reference/")), (m, r)


def test_vllm_ascend_matrix_transcribes_the_reference_csv_fully(kb):
    rows = {r["vllm_ascend"]: r for r in kb.compat("vllm-ascend")}
    with REFERENCE.open(encoding="utf-8") as fh:
        ref = list(csv.DictReader(fh))
    assert len(ref) >= 20
    for line in ref:
        r = rows[line["vllm_ascend"]]
        assert r["cann"] == line["stable_cann"]
        assert r["torch"] == line["torch"] and r["torch_npu"] == line["torch_npu"]
        assert r["python"] == line["python"].replace(" ", "")
        assert r.get("triton_ascend", "N/A") == line["triton_ascend"]
        assert r.get("mooncake", "N/A") == line["mooncake"]
        assert (",".join(r["vllm"]) if isinstance(r["vllm"], list) else r["vllm"]) == line["vllm"].replace("/", ",")


def test_cann_83rc1_lists_hdk_torch_npu_and_engines(kb):
    res = _q(kb, cann="8.3.RC1")
    hdk = _section(res, "hdk-cann")
    assert any("25.3.RC1" in r["hdk"] for r in hdk)
    wheels = {r["torch_npu"] for r in _section(res, "torch-npu") if r.get("cann") == "8.3.RC1"}
    assert {"2.8.0", "2.7.1", "2.6.0.post3", "2.1.0.post17"} <= wheels
    assert "2.9.0" not in wheels                      # that one pairs with CANN 8.5.0
    assert [r["vllm_ascend"] for r in _section(res, "vllm-ascend")] == ["v0.11.0rc1"]


def test_cann_case_insensitive_and_series(kb):
    lower = _q(kb, cann="8.3.rc1")
    assert any("25.3.RC1" in r["hdk"] for r in _section(lower, "hdk-cann"))
    series = _q(kb, cann="8.5.X")
    canns = {r["cann"] for r in _section(series, "hdk-cann")}
    assert {"8.5.0", "8.5.1", "8.5.2", "8.5.0.alpha001"} <= canns
    assert not any(c.startswith("9.") for c in canns)


def test_hdk_series_in_matrix_matches_concrete_version(kb):
    res = _q(kb, hdk="25.5.1")
    canns = {r["cann"] for r in _section(res, "hdk-cann", "CANN releases documented to work")}
    assert {"8.5.0", "9.1.0", "9.2.0", "9.0.1"} <= canns       # via 25.5.X lines and exact 25.5.1
    assert "8.3.RC1" not in canns
    # 25.5.10 is in the 25.5.X line but 25.5.1 must not match 25.5.10 by prefix
    res = _q(kb, hdk="25.5.10")
    assert "9.0.0" in {r["cann"] for r in _section(res, "hdk-cann", "CANN releases documented to work")}
    assert all("25.5.X" in r["hdk"] for r in _section(res, "hdk-cann", "CANN releases documented to work"))


def test_pair_verdicts(kb):
    bad = _q(kb, cann="9.2.0", hdk="25.2.0")["verdicts"][0]
    assert bad["verdict"] == "not compatible" and "9.2.0" in bad["sources"][0]
    good = _q(kb, cann="9.1.0", hdk="26.0.RC1")["verdicts"][0]
    assert good["verdict"] == "compatible"
    rc_case = _q(kb, cann="9.1.0", hdk="26.0.rc1")["verdicts"][0]
    assert rc_case["verdict"] == "compatible"
    other_rc = _q(kb, cann="9.1.0", hdk="26.0.RC3")["verdicts"][0]
    assert other_rc["verdict"] == "not documented"
    tn = _q(kb, cann="8.5.0", torch_npu="2.9.0")["verdicts"][0]
    assert tn["verdict"] == "compatible"
    tn_bad = _q(kb, cann="9.1.0", torch_npu="2.6.0")["verdicts"][0]
    assert tn_bad["verdict"] == "not the documented pairing" and "8.2.RC1" in tn_bad["documented"]


def test_torch_npu_unlisted_post_release_falls_back_to_its_pytorch_line(kb):
    res = _q(kb, torch_npu="2.7.1.post99")
    rows = _section(res, "torch-npu")
    assert rows and all(r["torch"] == "2.7.1" for r in rows)


def test_vllm_ascend_with_or_without_v_and_its_hdk(kb):
    for name in ("v0.11.0rc1", "0.11.0rc1"):
        res = _q(kb, vllm_ascend=name)
        row = _section(res, "vllm-ascend")[0]
        assert row["cann"] == "8.3.RC1" and row["torch_npu"] == "2.7.1"
        assert any("25.3.RC1" in r["hdk"] for r in _section(res, "hdk-cann"))


def test_engine_and_product(kb):
    res = _q(kb, engine="vllm-ascend", product="Atlas 800 (model 9000)")
    row = _section(res, "engine-hardware", "Hardware for")[0]
    assert "910" in row["unsupported"] and "a2" in row["supported"] and "310p" in row["experimental"]
    assert res["verdicts"] and res["verdicts"][0]["verdict"] == "910: unsupported"
    prods = _section(_q(kb, product="a3"), "products")
    assert {"Atlas 800I A3"} <= {r["product"] for r in prods}
    a3 = next(r for r in prods if r["product"] == "Atlas 800I A3")
    assert a3["npus_per_server"] == "16" and a3["memory_gb_per_npu"] == "64"
    sg = _section(_q(kb, engine="SGLang"), "engine-hardware")[0]
    assert sg["supported"] == ["a2", "a3"]


def test_nothing_known_gives_no_sections(kb):
    assert _q(kb, cann="1.2.3")["sections"] == []


def test_matcher_series_is_not_a_prefix_match():
    m = VersionMatcher()
    assert m.matches("25.5.1", "25.5.X")
    assert not m.matches("25.50.1", "25.5.X")
    assert not m.matches("8.5.0", "8.5.0.alpha001")
    assert m.same("V0.9.1", "0.9.1")


# -- the command line, on the real knowledge base ---------------------------------------------------

def test_cli_compat_text(cli):
    r = cli("compat", "--cann", "8.3.RC1")
    assert r.code == 0, r.err
    assert "25.3.RC1" in r.out and "2.7.1" in r.out and "v0.11.0rc1" in r.out
    assert "source: https://" in r.out


def test_cli_compat_json(cli):
    r = cli("compat", "--cann", "9.2.0", "--hdk", "25.2.0", "--format", "json")
    assert r.code == 1, r.err                  # not compatible: a script can gate on it
    data = json.loads(r.out)
    assert data["query"] == {"cann": "9.2.0", "hdk": "25.2.0"}
    assert data["verdicts"][0]["verdict"] == "not compatible"


def test_cli_compat_errors(cli):
    r = cli("compat")
    assert r.code == 2 and r.err.count("\n") == 1
    r = cli("compat", "--cann", "0.0.1")
    assert r.code == 1 and "no compatibility data" in r.err


def test_compat_exit_codes_gate_a_script(cli):
    """0 documented compatible, 1 incompatible / undocumented / unknown, 2 not a version."""
    assert cli("compat", "--cann", "9.1.0", "--hdk", "25.5.0").code == 0
    r = cli("compat", "--cann", "9.2.0", "--hdk", "25.2.0")
    assert r.code == 1 and "exit code 1" in r.out
    assert cli("compat", "--cann", "9.9.9").code == 1
    for bad in (">=8.0", "8.x; rm -rf /", "latest"):
        r = cli("compat", "--cann", bad)
        assert r.code == 2 and len(r.err.strip().splitlines()) == 1, bad


def test_compat_list_shows_the_known_versions(cli):
    r = cli("compat", "--list")
    assert r.code == 0
    assert "9.1.0" in r.out and "cann:" in r.out
    r = cli("compat", "--list", "--format", "json")
    import json

    assert "9.1.0" in json.loads(r.out)["cann"]


def test_cann_lists_the_triton_ascend_release_built_for_it(kb):
    """The triton-ascend installation guide's table: 3.2.0 for CANN 8.5.0, 3.2.0rc4 for the 8.3 releases."""
    assert [r["triton_ascend"] for r in _section(_q(kb, cann="8.5.0"), "triton-ascend")] == ["3.2.0"]
    assert [r["triton_ascend"] for r in _section(_q(kb, cann="8.3.RC1"), "triton-ascend")] == ["3.2.0rc4"]


def test_cann_lists_the_mindspore_releases_built_for_it(kb):
    """MindSpore's release list: 2.3.0 and 2.3.1 for CANN 8.0.RC2 (community build 8.0.RC2.beta1), 2.7.2 for 8.5.0."""
    assert [r["mindspore"] for r in _section(_q(kb, cann="8.0.RC2"), "mindspore-cann")] == ["2.3.1", "2.3.0"]
    assert [r["mindspore"] for r in _section(_q(kb, cann="8.0.RC2.beta1"), "mindspore-cann")] == ["2.3.1", "2.3.0"]
    assert [r["mindspore"] for r in _section(_q(kb, cann="8.5.0"), "mindspore-cann")] == ["2.7.2"]
