"""Exit 2, one line, for the user's setting rather than exit 3 (reliability review D12): closed standard
streams, output to a full device, input nested too deeply; --debug accepted after the subcommand."""
from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT

EXE = [sys.executable, "-m", "ascend_doctor"]


def _errors(stderr: str) -> list[str]:
    """stderr lines but the one-time notice of a knowledge-base build (order of tests decides it)."""
    return [ln for ln in stderr.strip().splitlines() if not ln.startswith("ascend-doctor: building")]


def _run(*argv, **kw):
    return subprocess.run([*EXE, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120, **kw)


def test_diagnose_stdin_closed_is_a_usage_error():
    r = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *EXE, "diagnose", "--no-env", "-"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "internal error" not in r.stderr and len(_errors(r.stderr)) == 1


def test_check_with_stdout_closed_keeps_its_exit_code():
    r = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *EXE, "check", "--sim", "healthy-a2-host"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_output_to_a_full_device_is_exit_2():
    with open("/dev/full", "w") as full:
        r = subprocess.run([*EXE, "explain", "561000"], cwd=ROOT, stdout=full, stderr=subprocess.PIPE,
                           text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "No space left" in r.stderr and "internal error" not in r.stderr


def test_deeply_nested_snapshot_is_exit_2(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 100000 + "]" * 100000)
    r = _run("check", "--replay", str(p))
    assert r.returncode == 2, r.stderr
    assert "internal error" not in r.stderr


def test_debug_after_the_subcommand_is_accepted():
    r = _run("explain", "561000", "--debug")
    assert r.returncode == 0, r.stderr


def test_parse_stdin_closed_is_a_usage_error():
    r = subprocess.run(["sh", "-c", 'exec "$@" <&-', "sh", *EXE, "parse", "-"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "closed" in r.stderr
