"""The offline install: 'make wheelhouse' puts install.sh beside the wheels; the script refuses a Python or a
machine the wheels were not made for, in one line. (.ci/run makes a wheelhouse for this machine and installs
from it with no index and no pip configuration.)"""
from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys

import pytest

from .conftest import ROOT
from .test_integrations import tool

SCRIPT = ROOT / "diagnose" / "_pkg" / "wheelhouse-install.sh"


def _folder(tmp_path, py: str, arch: str):
    d = tmp_path / "wheelhouse"
    d.mkdir()
    shutil.copy(SCRIPT, d / "install.sh")
    (d / "PYTHON_VERSION").write_text(py + "\n")
    (d / "ARCH").write_text(arch + "\n")
    return d


def _run(d, env=None):
    return subprocess.run(["sh", str(d / "install.sh"), str(d / "venv")], capture_output=True, text=True,
                          env={**os.environ, "PYTHON": sys.executable, **(env or {})}, timeout=60)


def test_another_python_version_is_refused_in_one_line(tmp_path):
    d = _folder(tmp_path, "2.7", platform.machine())
    r = _run(d)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "these wheels are for Python 2.7" in r.stderr and "set PYTHON=" in r.stderr
    assert not (d / "venv").exists()


def test_another_machine_is_refused(tmp_path):
    here = "%d.%d" % sys.version_info[:2]
    other = "x86_64" if platform.machine() == "aarch64" else "aarch64"
    r = _run(_folder(tmp_path, here, other))
    assert r.returncode == 2 and f"for {other} and this machine is {platform.machine()}" in r.stderr


def test_a_missing_interpreter_is_named(tmp_path):
    r = _run(_folder(tmp_path, "3.9", platform.machine()), env={"PYTHON": "/nonexistent/python3.9"})
    assert r.returncode == 2 and "cannot run '/nonexistent/python3.9'" in r.stderr


@pytest.mark.skipif(tool("shellcheck") is None, reason="shellcheck not installed")
def test_install_script_passes_shellcheck():
    r = subprocess.run([tool("shellcheck"), "-s", "sh", str(SCRIPT)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout
