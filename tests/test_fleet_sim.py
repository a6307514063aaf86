"""Simulated fleets as data: every bundled scenario gives exactly its expected findings (fleet rules with
their outliers, per-node rules with their nodes), healthy fleets are clean, and the files written by
'snapshot --sim-fleet' read back to the same report."""
from __future__ import annotations

import json
import os
import stat

import pytest

from ascend_doctor.diagnose.services.fleet import fleet_check
from ascend_doctor.diagnose.simfleet import list_fleets, load_fleet
from ascend_doctor.rules.nodeset import fold

SCENARIOS = [n for n in list_fleets() if n != "scale-1024"]     # scale-1024 is the benchmark (bench/fleet.py)
FINDING = ("FAIL", "WARN", "ERROR")


def findings(report):
    fleet = {r.rule: {"status": r.status, "outliers": fold(r.outliers) if r.outliers else ""}
             for r in report.rules if r.status in FINDING}
    nodes: dict[str, list[str]] = {}
    for n in report.nodes:
        for r in n.results:
            if r.status in FINDING:
                nodes.setdefault(f"{r.rule}/{r.status}", []).append(n.name)
    return fleet, {k: fold(v) for k, v in nodes.items()}


def test_the_issue_scenarios_are_all_there():
    names = set(list_fleets())
    assert len(SCENARIOS) >= 8
    assert {"healthy-a2-64", "rolling-upgrade-64", "tls-split-16", "dup-device-ip-8", "rank-table-lies-4",
            "clock-skew-8", "missing-and-unreadable-8", "a3-superpod-4", "scale-1024"} <= names
    for n in names:
        f = load_fleet(n)
        assert f.description and "\n" not in f.description and f.nodes


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_gives_exactly_its_expected_findings(name):
    fleet = load_fleet(name)
    report = fleet_check(sim=name)
    got_fleet, got_nodes = findings(report)
    want_fleet = {k: {"status": v["status"], "outliers": v.get("outliers", "")}
                  for k, v in (fleet.expected.get("fleet") or {}).items()}
    want_nodes = {f"{k}/{v['status']}": v["nodes"] for k, v in (fleet.expected.get("nodes") or {}).items()}
    assert got_fleet == want_fleet
    assert got_nodes == want_nodes
    assert report.exit_code == (1 if any(v["status"] == "FAIL" for v in want_fleet.values())
                                or any(k.endswith("/FAIL") for k in want_nodes) else 0)


@pytest.mark.parametrize("name", [n for n in SCENARIOS if n.startswith(("healthy-", "heterogeneous-"))])
def test_healthy_fleets_are_clean(name):
    report = fleet_check(sim=name)
    assert findings(report) == ({}, {})
    assert report.exit_code == 0 and not report.unreadable and not report.missing


def test_split_blames_no_one_but_names_both_cohorts():
    [tls] = [r for r in fleet_check(sim="tls-split-16", per_node=False).rules if r.rule == "AD-FLEET-011"]
    assert tls.status == "FAIL" and tls.split and tls.outliers == []
    msg = tls.text("message", "en")
    assert "node[09-16]" in msg and "node[01-08]" in msg


def test_written_fleet_reads_back_the_same(tmp_path, cli):
    out = tmp_path / "fleet"
    r = cli("snapshot", "--sim-fleet", "missing-and-unreadable-8", "-o", str(out))
    assert r.code == 0, r.err
    files = sorted(os.listdir(out))
    assert "node04.json" not in files and len(files) == 7
    assert all(stat.S_IMODE(os.stat(out / f).st_mode) == 0o600 for f in files)
    from_files = fleet_check([str(out)], expect_nodes="node[01-08]")
    assert findings(from_files) == findings(fleet_check(sim="missing-and-unreadable-8"))
    r = cli("snapshot", "--sim-fleet", "missing-and-unreadable-8", "-o", str(out))
    assert r.code == 2 and "exists" in r.err and "--force" in r.err


def test_sim_nodes_have_their_own_addresses_and_names():
    report = fleet_check(sim="rank-table-lies-4", per_node=False)
    ips = {n.name: [d["ipaddr"] for d in n.facts.value("hccn.devices")] for n in report.nodes}
    assert ips["node01"][0] == "10.20.1.11" and ips["node04"][7] == "10.20.4.18"
    assert {n.facts.value("rank_table")["self"]["server_id"] for n in report.nodes} == \
        {"172.16.1.2", "172.16.1.3", "172.16.1.4", "172.16.1.5"}
    assert json.dumps(report.nodes[0].labels) == "{}"


def test_profiles_lists_the_fleets(cli):
    r = cli("profiles", "--fleets", "--format", "json")
    rows = {f["name"]: f for f in json.loads(r.out)["fleets"]}
    assert r.code == 0 and rows["scale-1024"]["nodes"] == 1024
    assert rows["rolling-upgrade-64"]["expected"]["AD-FLEET-004"]["outliers"] == "node[057-064]"
