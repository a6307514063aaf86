"""pytest plugin: ``pytest --ascend-doctor`` runs the environment check once per session, before any test.

When the machine is broken (a result at or above ``--ascend-doctor-fail-on``, default ``error``) the
session stops before collecting tests and the check report is printed, so an NPU test suite never
spends an hour failing for an unmapped /dev/devmm_svm. Options:

    --ascend-doctor                      run the check
    --ascend-doctor-fail-on LEVEL        error (default) | warning | never
    --ascend-doctor-sim PROFILE          check a bundled simulated machine (for testing the plugin)
    --ascend-doctor-replay FILE          check a recorded snapshot
    --ascend-doctor-only IDS / --ascend-doctor-skip IDS   rules or groups, comma-separated
    --ascend-doctor-report FILE          also write the JSON report

The report is also kept on ``config._ascend_doctor_report`` (a CheckReport) and summarised in the
pytest header. Nothing is imported unless ``--ascend-doctor`` is given.
"""
from __future__ import annotations


def pytest_addoption(parser) -> None:
    group = parser.getgroup("ascend-doctor")
    group.addoption("--ascend-doctor", action="store_true", default=False,
                    help="run the ascend-doctor environment check before the tests")
    group.addoption("--ascend-doctor-fail-on", default="error", choices=("error", "warning", "never"),
                    help="stop the session when a result is at or above this level (default: error)")
    group.addoption("--ascend-doctor-sim", default=None, metavar="PROFILE",
                    help="check a bundled simulated machine instead of this one")
    group.addoption("--ascend-doctor-replay", default=None, metavar="FILE",
                    help="check the machine recorded in a snapshot file")
    group.addoption("--ascend-doctor-only", action="append", default=[], metavar="IDS",
                    help="run only these rules or groups")
    group.addoption("--ascend-doctor-skip", action="append", default=[], metavar="IDS",
                    help="do not run these rules or groups")
    group.addoption("--ascend-doctor-report", default=None, metavar="FILE", help="also write the JSON report")


def _run_check(config):
    import pytest

    from .render.console import locale_lang
    from .render.registry import render
    from .services.check import check, rule_words
    from .services.errors import DoctorError
    from .services.machine import MachineSpec

    opt = config.getoption
    if opt("--ascend-doctor-sim") and opt("--ascend-doctor-replay"):
        raise pytest.UsageError("ascend-doctor: give --ascend-doctor-sim or --ascend-doctor-replay, not both")
    try:
        machine = MachineSpec(sim=opt("--ascend-doctor-sim"), replay=opt("--ascend-doctor-replay"))
        report = check(machine, only=rule_words(opt("--ascend-doctor-only")), skip=rule_words(opt("--ascend-doctor-skip")),
                       fail_on=opt("--ascend-doctor-fail-on"), lang=locale_lang())
    except (DoctorError, ValueError) as exc:
        raise pytest.UsageError(f"ascend-doctor: {exc}") from exc
    path = opt("--ascend-doctor-report")
    if path:
        from .files import write_error, write_file

        try:
            write_file(path, render("check", report, "json"))
        except OSError as exc:
            raise pytest.UsageError(f"ascend-doctor: {write_error(path, exc)}") from exc
    return report


def pytest_configure(config) -> None:
    if not config.getoption("--ascend-doctor", default=False):
        return
    config._ascend_doctor_report = _run_check(config)


def pytest_report_header(config):
    report = getattr(config, "_ascend_doctor_report", None)
    if report is None:
        return None
    from .render.check_common import summary_line

    return f"ascend-doctor: {summary_line(report)} ({report.origin or 'live'})"


def pytest_sessionstart(session) -> None:
    report = getattr(session.config, "_ascend_doctor_report", None)
    if report is None or report.exit_code == 0:
        return
    import pytest

    from .render.registry import render

    text = render("check", report, "text")
    tr = session.config.pluginmanager.get_plugin("terminalreporter")
    if tr is not None:
        tr.write_line("")
        for line in text.rstrip("\n").splitlines():
            tr.write_line(line)
    # exit status 1, as when tests fail: the session failed, early
    pytest.exit(f"ascend-doctor: the machine is not ready (results at or above --ascend-doctor-fail-on="
                f"{report.fail_on}); tests not run", returncode=1)
