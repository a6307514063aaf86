"""``pytest --ascend-doctor``: the check runs once per session and stops a session on a broken machine."""
from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TESTS = """
def test_one():
    assert True

def test_two():
    assert True
"""


def test_broken_machine_stops_the_session_with_the_report(pytester):
    pytester.makepyfile(TESTS)
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "container-missing-device-nodes",
                                        "-p", "no:cacheprovider")
    out = res.stdout.str()
    assert res.ret == 1
    assert "/dev/devmm_svm" in out and "→ Fix:" in out
    assert "tests not run" in out
    assert "2 passed" not in out


def test_healthy_machine_runs_the_tests_and_says_so(pytester):
    pytester.makepyfile(TESTS)
    report = pytester.path / "report.json"
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "healthy-a3-host",
                                        "--ascend-doctor-report", str(report), "-p", "no:cacheprovider")
    assert res.ret == 0
    res.stdout.fnmatch_lines(["ascend-doctor: * passed*", "*2 passed*"])
    assert '"schema": "ascend-doctor/check/1"' in report.read_text()


def test_fail_on_warning_and_never(pytester):
    pytester.makepyfile(TESTS)
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "kernel-6-hdk-25.5-weight-hang",
                                        "-p", "no:cacheprovider")
    assert res.ret == 0                               # warnings only
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "kernel-6-hdk-25.5-weight-hang",
                                        "--ascend-doctor-fail-on", "warning", "-p", "no:cacheprovider")
    assert res.ret == 1
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "no-driver",
                                        "--ascend-doctor-fail-on", "never", "-p", "no:cacheprovider")
    assert res.ret == 0


def test_without_the_flag_nothing_runs(pytester):
    pytester.makepyfile(TESTS)
    res = pytester.runpytest_subprocess("--ascend-doctor-sim", "no-driver", "-p", "no:cacheprovider")
    assert res.ret == 0
    assert "ascend-doctor:" not in res.stdout.str()


def test_bad_profile_is_a_usage_error(pytester):
    pytester.makepyfile(TESTS)
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "no-such-profile",
                                        "-p", "no:cacheprovider")
    assert res.ret == pytest.ExitCode.USAGE_ERROR


def test_a_bad_report_path_is_one_usage_error(pytester):
    pytester.makepyfile(TESTS)
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "healthy-a2-host",
                                        "--ascend-doctor-report", "/nonexistent/dir/r.json", "-p", "no:cacheprovider")
    err = res.stderr.str()
    assert res.ret == 4 and "INTERNALERROR" not in err + res.stdout.str()
    assert "cannot write /nonexistent/dir/r.json" in err


def test_sim_and_replay_together_is_a_usage_error(pytester):
    pytester.makepyfile(TESTS)
    res = pytester.runpytest_subprocess("--ascend-doctor", "--ascend-doctor-sim", "healthy-a2-host",
                                        "--ascend-doctor-replay", "x.json", "-p", "no:cacheprovider")
    assert res.ret == 4 and "not both" in res.stderr.str()
