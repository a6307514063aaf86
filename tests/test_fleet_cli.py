"""`ascend-doctor fleet`: inputs (files, directories, clush names, broken and foreign files), options
(--expect-nodes, --baseline, --group-by, --rank-table, --fail-on), exit codes, and every output format
(text with folded ranges, JSON ascend-doctor/fleet/1, JUnit, Markdown, Prometheus) plus
`check --format prometheus`. Untrusted text from snapshots is escaped."""
from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET

import pytest


@pytest.fixture(scope="module")
def fleet_dir(tmp_path_factory):
    """The rolling-upgrade fleet written as files, once for the module."""
    from ascend_doctor.diagnose.services.fleet import write_sim_fleet

    d = tmp_path_factory.mktemp("fleet") / "rolling"
    write_sim_fleet("rolling-upgrade-64", str(d))
    return d


@pytest.fixture
def small(tmp_path):
    """Four healthy nodes as files."""
    from ascend_doctor.diagnose.services.fleet import write_sim_fleet

    d = tmp_path / "small"
    write_sim_fleet("rank-table-lies-4", str(d))
    return d


def test_text_folds_node_ranges_and_hides_clean_nodes(cli, fleet_dir):
    r = cli("fleet", str(fleet_dir), "--expect-nodes", "node[001-064]")
    assert r.code == 1, r.err
    out = r.out
    assert "AD-FLEET-004" in out and "node[057-064]" in out and "8.3.RC1" in out
    assert "53 node(s) with no findings hidden" in out
    assert out.index("Fleet rules") < out.index("Nodes × checks")
    assert "node001" not in out.split("Nodes × checks")[1]
    v = cli("fleet", str(fleet_dir), "-v")
    assert "node[001-004,006-022" in v.out.split("Nodes × checks")[1] and "Versions by cohort" in v.out


def test_json_schema_and_exit_code(cli, fleet_dir, tmp_path):
    r = cli("fleet", str(fleet_dir), "--format", "json", "--fail-on", "never")
    assert r.code == 0
    d = json.loads(r.out)
    assert d["schema"] == "ascend-doctor/fleet/1" and d["summary"]["exit_code"] == 0
    assert d["fleet"]["received"] == 64 and d["fleet"]["groups"] == [{"key": {"hardware.family": "a2"}, "nodes": "node[001-064]", "count": 64}]
    cann = next(x for x in d["rules"] if x["rule"] == "AD-FLEET-004")
    assert cann["status"] == "FAIL" and cann["outliers"] == [f"node{i:03d}" for i in range(57, 65)]
    subj = cann["scopes"][0]["subjects"][0]
    assert subj["reference"] == {"value": "8.2.RC1", "from": "majority", "units": 56}
    assert [c["value"] for c in subj["cohorts"]] == ["8.2.RC1", "8.3.RC1"]
    node = next(n for n in d["nodes"] if n["node"] == "node057")
    assert node["summary"]["fail"] == 1 and any(x["rule"] == "AD-PY-010" for x in node["results"])


def test_junit_has_a_fleet_suite_and_one_per_node(cli, fleet_dir, tmp_path):
    out = tmp_path / "fleet.xml"
    r = cli("fleet", str(fleet_dir), "--format", "junit", "-o", str(out))
    assert r.code == 1 and r.out == ""
    root = ET.parse(out).getroot()
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert set(suites) == {"fleet"} | {f"node{i:03d}" for i in range(1, 65)}
    failed = [c.get("name") for c in suites["fleet"].findall("testcase") if c.find("failure") is not None]
    assert any(n.startswith("AD-FLEET-004") for n in failed) and any(n.startswith("AD-FLEET-011") for n in failed)
    assert suites["node057"].get("failures") == "1" and suites["node001"].get("failures") == "0"
    assert int(root.get("tests")) == sum(int(s.get("tests")) for s in suites.values())


def test_markdown_has_the_version_matrix(cli, fleet_dir):
    r = cli("fleet", str(fleet_dir), "--format", "markdown")
    assert "| CANN | `8.2.RC1` | `node[001-056]` (56) |" in r.out
    assert "|  | `8.3.RC1` ⚠️ | `node[057-064]` (8) |" in r.out
    assert "`AD-FLEET-011`" in r.out


def test_prometheus_textfile_parses(cli, fleet_dir, tmp_path):
    parser = pytest.importorskip("prometheus_client.parser")
    out = tmp_path / "fleet.prom"
    r = cli("fleet", str(fleet_dir), "--format", "prometheus", "-o", str(out))
    assert r.code == 1
    fams = {f.name: f for f in parser.text_string_to_metric_families(out.read_text())}
    status = {s.labels["rule"]: s.value for s in fams["ascend_doctor_fleet_rule_status"].samples}
    assert status["AD-FLEET-004"] == 2 and status["AD-FLEET-020"] == 1 and status["AD-FLEET-002"] == 0
    outliers = {(s.labels["rule"], s.labels["node"]) for s in fams["ascend_doctor_fleet_outlier"].samples}
    assert ("AD-FLEET-011", "node023") in outliers and len([o for o in outliers if o[0] == "AD-FLEET-004"]) == 8
    nodes = {s.labels["state"]: s.value for s in fams["ascend_doctor_fleet_nodes"].samples}
    assert nodes["received"] == 64 and nodes["unreadable"] == 0


def test_check_prometheus_for_one_node_is_written_whole(cli, tmp_path):
    parser = pytest.importorskip("prometheus_client.parser")
    out = tmp_path / "node.prom"
    r = cli("check", "--sim", "healthy-a2-host", "--format", "prometheus", "-o", str(out))
    assert r.code == 0, r.err
    fams = {f.name: f for f in parser.text_string_to_metric_families(out.read_text())}
    assert fams["ascend_doctor_up"].samples[0].value == 1
    info = fams["ascend_doctor_versions_info"].samples[0].labels
    assert info["cann"] == "8.2.RC1" and info["family"] == "a2"
    assert len(fams["ascend_doctor_hccn_link_up"].samples) == 8
    assert fams["ascend_doctor_npu_count"].samples[0].value == 8
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".")]   # no temporary file left behind


def test_broken_and_foreign_files_are_unreadable_nodes_never_an_abort(cli, small):
    (small / "node05.json").write_text('{"format": "ascend-doctor-snapshot", "version": 1, "meta"')
    (small / "node06.json").write_text('{"hello": "world"}')
    (small / "notes.txt").write_text("not a node")          # not a snapshot name in a directory: ignored
    r = cli("fleet", str(small), "--format", "json", "--no-per-node")
    d = json.loads(r.out)
    assert r.code == 1
    assert {u["node"] for u in d["fleet"]["unreadable"]} == {"node05", "node06"}
    cov = next(x for x in d["rules"] if x["rule"] == "AD-FLEET-001")
    assert cov["status"] == "FAIL" and cov["outliers"] == ["node05", "node06"]


def test_clush_rcopy_names_and_duplicates(cli, small, tmp_path):
    d = tmp_path / "clush"
    d.mkdir()
    for i, f in enumerate(sorted(small.iterdir()), 1):
        shutil.copy(f, d / f"ad.json.host{i}")
    from ascend_doctor.diagnose.services.fleet import node_name_of

    assert node_name_of("/x/ad.json.host7") == "host7" and node_name_of("node3.json") == "node3"
    r = cli("fleet", str(d), "--format", "json", "--no-per-node")
    names = [n["node"] for n in json.loads(r.out)["nodes"]]
    assert names == ["node01", "node02", "node03", "node04"]        # meta.node wins over the file name
    shutil.copy(small / "node01.json", d / "again.json")
    dup = json.loads(cli("fleet", str(d), "--format", "json", "--no-per-node").out)
    assert [u["reason"] for u in dup["fleet"]["unreadable"]][0].startswith(str(d / "again.json"))


@pytest.mark.parametrize("args, words", [
    (["fleet"], "give snapshot files"),
    (["fleet", "/nonexistent/dir"], "no such file or directory"),
    (["fleet", "--sim", "nope"], "unknown simulated fleet"),
    (["fleet", "--sim", "clock-skew-8", "--expect-nodes", "node[1-"], "--expect-nodes"),
    (["fleet", "--sim", "clock-skew-8", "--group-by", "nope.key"], "--group-by nope.key"),
    (["fleet", "--sim", "clock-skew-8", "--only", "AD-FLEET-999"], "unknown fleet rule"),
    (["fleet", "--sim", "clock-skew-8", "--baseline", "/nonexistent.toml"], "--baseline"),
])
def test_bad_usage_is_one_line_and_exit_2(cli, args, words):
    r = cli(*args)
    assert r.code == 2 and words in r.err and r.err.count("\n") == 1 and "Traceback" not in r.err


def test_empty_directory_is_a_usage_error(cli, tmp_path):
    r = cli("fleet", str(tmp_path))
    assert r.code == 2 and "no snapshot files" in r.err


def test_expect_nodes_and_baseline(cli, small, tmp_path):
    r = cli("fleet", str(small), "--expect-nodes", "node[01-05]", "--format", "json", "--no-per-node")
    cov = next(x for x in json.loads(r.out)["rules"] if x["rule"] == "AD-FLEET-001")
    assert cov["outliers"] == ["node05"]
    base = tmp_path / "expect.toml"
    base.write_text('[expect]\n"cann.version" = "8.3.RC1"\n')
    r = cli("fleet", str(small), "--baseline", str(base), "--format", "json", "--no-per-node")
    cann = next(x for x in json.loads(r.out)["rules"] if x["rule"] == "AD-FLEET-004")
    assert cann["status"] == "FAIL" and cann["outliers"] == ["node01", "node02", "node03", "node04"]
    assert cann["scopes"][0]["subjects"][0]["reference"]["from"] == "baseline"
    (tmp_path / "bad.toml").write_text("no table")
    assert cli("fleet", str(small), "--baseline", str(tmp_path / "bad.toml")).code == 2


def test_group_by_a_label_and_a_central_rank_table(cli, small, tmp_path):
    r = cli("fleet", str(small), "--group-by", "hardware.family,label.rack", "--format", "json", "--no-per-node")
    assert json.loads(r.out)["fleet"]["group_by"] == ["hardware.family", "label.rack"]
    table = {"status": "completed", "version": "1.0", "server_count": "1", "server_list": [
        {"server_id": "172.16.1.2", "device": [{"device_id": "0", "device_ip": "10.20.1.99", "rank_id": "0"}]}]}
    (tmp_path / "rt.json").write_text(json.dumps(table))
    r = cli("fleet", str(small), "--rank-table", str(tmp_path / "rt.json"), "--only", "AD-FLEET-019",
            "--format", "json", "--no-per-node")
    [res] = json.loads(r.out)["rules"]
    assert res["status"] == "FAIL" and res["outliers"] == ["node01"]
    assert "rank table 10.20.1.99, NIC 10.20.1.11" in res["message"]


def test_untrusted_text_from_a_snapshot_is_escaped(cli, small, tmp_path):
    f = small / "node01.json"
    d = json.loads(f.read_text())
    d["meta"]["node"] = "evil[bold]\x1b[31m"
    d["meta"]["labels"] = {"rack": "r1\x1b]0;x\x07"}
    f.write_text(json.dumps(d))
    (small / "node02.json").write_text("[red]\x1b[2J not json")
    r = cli("fleet", str(small), "--no-per-node", "-v")
    assert "\x1b" not in r.out and "\\x1b" in r.out
    for fmt in ("markdown", "junit", "prometheus", "json"):
        out = cli("fleet", str(small), "--no-per-node", "--format", fmt).out
        assert "\x1b" not in out, fmt
