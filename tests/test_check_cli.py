"""``ascend-doctor check`` and ``ascend-doctor rules`` end to end on the bundled profiles."""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ascend_doctor.diagnose.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
PROFILES = ROOT / "diagnose" / "profiles"


def _profiles():
    if not PROFILES.is_dir():
        return []
    return sorted(p.name for p in PROFILES.iterdir() if (p / "profile.toml").is_file())


def _expected(name: str) -> list[str]:
    from ascend_doctor.kb.toml import tomllib

    with open(PROFILES / name / "profile.toml", "rb") as fh:
        return list(tomllib.load(fh).get("expected_problems", []))


def check_json(capsys, *argv) -> tuple[int, dict]:
    rc = main(["check", "--format", "json", *argv])
    out = capsys.readouterr().out
    return rc, json.loads(out)


HEALTHY = [p for p in _profiles() if p.startswith("healthy-")]
BROKEN = [p for p in _profiles() if not p.startswith("healthy-")]


@pytest.mark.parametrize("profile", HEALTHY)
def test_healthy_profiles_have_no_warning_or_failure(profile, capsys):
    rc, data = check_json(capsys, "--sim", profile)
    bad = [(r["rule"], r["status"], r["message"]) for r in data["results"] if r["status"] in ("WARN", "FAIL")]
    assert not bad, f"{profile}: {bad}"
    assert rc == 0


@pytest.mark.parametrize("profile", BROKEN)
def test_broken_profiles_produce_their_expected_problems(profile, capsys):
    expected = _expected(profile)
    assert expected, f"{profile} names no expected_problems"
    rc, data = check_json(capsys, "--sim", profile, "--fail-on", "warning")
    found = {r["problem"] for r in data["results"] if r["status"] in ("WARN", "FAIL")}
    missing = set(expected) - found
    assert not missing, f"{profile}: expected {sorted(missing)}, found {sorted(found)}"
    assert rc == 1


def test_json_schema(capsys):
    rc, data = check_json(capsys, "--sim", "cann-newer-than-driver")
    assert data["schema"] == "ascend-doctor/check/1"
    assert rc == 1
    for r in data["results"]:
        assert set(r) >= {"rule", "status", "severity", "title", "message", "fix", "problem"}
        assert r["status"] in ("PASS", "WARN", "FAIL", "SKIP", "ERROR")
        if r["status"] in ("WARN", "FAIL"):
            assert r["fix"] and r["problem"]
    fail = next(r for r in data["results"] if r["rule"] == "AD-CANN-001")
    assert fail["status"] == "FAIL" and "9.2.0" in fail["message"] and "25.2.0" in fail["message"]
    assert {f["key"] for f in data["facts"]} >= {"cann.version", "driver.version"}
    s = data["summary"]
    assert s["total"] == len(data["results"]) == sum(s[k] for k in ("pass", "warn", "fail", "skip", "error"))
    assert s["exit_code"] == 1 and s["fail_on"] == "error"


def test_fail_on_levels(capsys):
    # the weight-load hang profile has warnings only
    rc, _ = check_json(capsys, "--sim", "kernel-6-hdk-25.5-weight-hang")
    assert rc == 0
    rc, _ = check_json(capsys, "--sim", "kernel-6-hdk-25.5-weight-hang", "--fail-on", "warning")
    assert rc == 1
    rc, _ = check_json(capsys, "--sim", "no-driver", "--fail-on", "never")
    assert rc == 0


def test_only_and_skip(capsys):
    rc, data = check_json(capsys, "--sim", "no-driver", "--only", "driver", "--skip", "AD-DRV-001")
    rules = {r["rule"] for r in data["results"]}
    assert rules and all(r.startswith("AD-DRV-") for r in rules) and "AD-DRV-001" not in rules
    rc, data = check_json(capsys, "--sim", "no-driver", "--only", "AD-DRV-001,container.devmm-svm-missing")
    assert {r["rule"] for r in data["results"]} == {"AD-DRV-001", "AD-CONT-001"}
    assert main(["check", "--sim", "no-driver", "--only", "bogus"]) == 2
    assert "unknown rule or group 'bogus'" in capsys.readouterr().err


def test_text_output_is_grouped_with_fix_lines(capsys):
    rc = main(["check", "--sim", "container-missing-device-nodes", "--lang", "en"])
    out = capsys.readouterr().out
    assert rc == 1
    for section in ("Driver and firmware", "CANN", "Python stack", "Container", "Devices", "Network"):
        assert section in out
    assert "✗ /dev/devmm_svm mapped into the container" in out
    assert "→ Fix:" in out and "container-device-nodes-missing" in out
    assert "Summary:" in out
    rc = main(["check", "--sim", "container-missing-device-nodes", "--lang", "zh"])
    assert "容器" in capsys.readouterr().out


def test_verbose_adds_evidence_facts_and_skips(capsys):
    main(["check", "--sim", "npu-smi-hangs", "-v", "--only", "driver"])
    out = capsys.readouterr().out
    assert "Evidence:" in out and "Facts used:" in out
    assert "npu_smi.info = (timeout" in out
    assert "10000 ms" in out          # probe timing


def test_several_outputs_in_one_run(tmp_path, capsys):
    j, x, m, o = (tmp_path / n for n in ("r.json", "r.xml", "r.md", "r.txt"))
    rc = main(["check", "--sim", "torch-npu-mismatch", "--json", str(j), "--junit", str(x), "--markdown", str(m),
               "--output", str(o)])
    assert rc == 1
    assert capsys.readouterr().out == ""
    assert json.loads(j.read_text())["schema"] == "ascend-doctor/check/1"
    assert "Summary:" in o.read_text()
    root = ET.fromstring(x.read_text())
    cases = root.findall(".//testcase")
    data = json.loads(j.read_text())
    assert len(cases) == len(data["results"])
    assert int(root.get("failures")) == data["summary"]["fail"]
    assert int(root.get("skipped")) == data["summary"]["skip"]
    assert int(root.get("errors")) == data["summary"]["error"]
    assert len(root.findall(".//testcase/skipped")) == data["summary"]["skip"]
    md = m.read_text()
    assert "**Environment**" in md and "torch_npu" in md and "`AD-PY-001`" in md and "torch-npu-torch-mismatch" in md


def test_bad_output_path_and_duplicates(tmp_path, capsys):
    assert main(["check", "--sim", "no-driver", "--json", str(tmp_path / "no" / "such" / "dir.json")]) == 2
    assert "cannot write" in capsys.readouterr().err
    f = str(tmp_path / "same")
    assert main(["check", "--sim", "no-driver", "--json", f, "--junit", f]) == 2
    assert main(["check", "--sim", "no-such-profile"]) == 2


def test_untrusted_text_is_escaped(monkeypatch, capsys):
    from ascend_doctor.diagnose.render.registry import render as render_as
    from ascend_doctor.diagnose.services.check import build_report
    from ascend_doctor.rules.fixtures import fact_set

    def render(report, fmt):
        return render_as("check", report, fmt)

    facts = fact_set({"container.kind": "docker", "dev.nodes": ["[bold red]x[/bold red]", "a|b<script>"],
                      "hardware.family": "a2"})
    report = build_report(facts, only=["AD-CONT-001"])
    text = render(report, "text")
    assert "[bold red]x[/bold red]" in text
    md = render(report, "markdown")
    assert "<script>" not in md and "a\\|b" in md
    ET.fromstring(render(report, "junit").split("\n", 1)[1])


def test_rules_and_explain(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "AD-CONT-001" in out and "Container" in out
    assert main(["rules", "--format", "json", "--group", "network"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] and all(r["group"] == "network" for r in data["rules"])
    assert main(["rules", "--group", "nope"]) == 2
    capsys.readouterr()
    assert main(["explain", "AD-CONT-001"]) == 0
    out = capsys.readouterr().out
    assert "devmm_svm" in out and "container-device-nodes-missing" in out
    assert main(["explain", "container.devmm-svm-missing", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["id"] == "AD-CONT-001"


def test_check_never_imports_textual():
    code = ("import sys; from ascend_doctor.diagnose.cli.main import main; "
            "rc = main(['check', '--sim', 'healthy-a2-host', '--format', 'json', '--output', '/dev/null']); "
            "assert 'textual' not in sys.modules, 'textual imported'; print('ok')")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.stdout.strip() == "ok", res.stderr


def test_a_report_written_to_a_device_or_a_pipe_leaves_it_in_place(tmp_path):
    """'-o /dev/null' or a FIFO a CI job reads: the report is written into it; the node is never replaced by a
    file (as root, renaming a temporary file over /dev/null turned it into a regular file)."""
    import os
    import stat
    import threading

    from ascend_doctor.diagnose.files import write_file

    fifo = tmp_path / "report.fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()), daemon=True)
    reader.start()
    write_file(str(fifo), '{"ok": true}\n')
    reader.join(timeout=30)
    assert got == [b'{"ok": true}\n']
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert not [p.name for p in tmp_path.iterdir() if p.name != "report.fifo"]      # no temporary file left
    if os.path.exists("/dev/null") and stat.S_ISCHR(os.lstat("/dev/null").st_mode):
        write_file("/dev/null", "x")
        assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)


def test_junit_warning_type_is_the_documented_word(cli, tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "r.xml"
    cli("check", "--sim", "kernel-6-hdk-25.5-weight-hang", "--fail-on", "warning", "--junit", str(out))
    types = {el.get("type") for el in ET.parse(out).iter("failure")}
    assert "warning" in types and "warn" not in types


def test_the_python_checked_is_the_users_workload_interpreter(tmp_path, monkeypatch):
    """Installed in its own venv, ascend-doctor must still inspect the venv / conda env the user works in."""
    import os
    import sys

    from ascend_doctor.diagnose.services.errors import UsageError
    from ascend_doctor.diagnose.services.machine import workload_python

    venv = tmp_path / "work-venv"
    (venv / "bin").mkdir(parents=True)
    os.symlink(sys.executable, venv / "bin" / "python")
    assert workload_python(None, {"VIRTUAL_ENV": str(venv), "PATH": "/usr/bin"}) == str(venv / "bin" / "python")
    assert workload_python(None, {"CONDA_PREFIX": str(venv), "PATH": "/usr/bin"}) == str(venv / "bin" / "python")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(sys.executable, bindir / "python3")
    assert workload_python(None, {"PATH": str(bindir)}) == str(bindir / "python3")
    assert workload_python(None, {"PATH": str(tmp_path / "none")}) == sys.executable
    with pytest.raises(UsageError):
        workload_python("/nonexistent/python", {})


def test_a_bad_python_is_a_usage_error(cli):
    r = cli("check", "--python", "/nonexistent/python")
    assert r.code == 2 and "not an executable file" in r.err


def test_a_top_line_verdict_and_one_docker_run_line(cli):
    r = cli("check", "--sim", "container-missing-device-nodes")
    lines = r.out.splitlines()
    assert any("problem(s) found" in ln for ln in lines[:8])
    docker = [ln for ln in lines if ln.startswith("docker run")]
    assert len(docker) == 1 and "--device /dev/devmm_svm" in docker[0] and "/usr/local/Ascend/driver/lib64" in docker[0]
    r = cli("check", "--sim", "healthy-a2-host")
    assert "Everything looks right." in r.out or "could not run" in r.out
    r = cli("check", "--sim", "container-missing-device-nodes", "--format", "markdown")
    assert "problem(s) found" in r.out and "```\ndocker run" in r.out


def test_a_machine_without_ascend_says_so():
    from ascend_doctor.diagnose.render.check_common import no_ascend
    from ascend_doctor.kb.language.facts import Fact, FactSet

    bare = FactSet()
    bare.add(Fact("dev.nodes", [], "ok", "/dev"))
    bare.add(Fact("npu_smi.path", None, "missing", "PATH"))
    assert no_ascend(bare)
    bare.add(Fact("pkg.torch_npu", "2.7.1", "ok", "python"))
    assert not no_ascend(bare)


def test_the_header_names_an_a3_by_its_soc(cli):
    r = cli("check", "--sim", "healthy-a3-host")
    assert "NPU Ascend910_9391" in r.out.replace("\n", " ")


def test_one_output_file_under_two_spellings_is_refused(tmp_path, monkeypatch):
    """-o report --json ../dir/report name one file: refused before anything is written, not overwritten
    by the second format."""
    from ascend_doctor.diagnose.cli.main import main

    d = tmp_path / "dir"
    d.mkdir()
    monkeypatch.chdir(d)
    assert main(["check", "--sim", "no-driver", "-o", "report", "--json", "../dir/report"]) == 2
    assert not (d / "report").exists()
