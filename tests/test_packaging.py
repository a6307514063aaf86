"""The wheel carries every module and data file of kb/, rules/ and diagnose/ under ascend_doctor.*"""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ROOT

MAPPING = {"kb": "ascend_doctor/kb", "rules": "ascend_doctor/rules", "diagnose": "ascend_doctor/diagnose"}


def _tracked_or_present(folder: str) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT / folder):
        dirnames[:] = [d for d in dirnames if d != "__pycache__" and not d.startswith(".")]
        out += [Path(dirpath) / f for f in filenames if not f.endswith(".pyc")]
    return out


def _expected_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    if rel.parts[:2] == ("diagnose", "_pkg"):
        return "ascend_doctor/" + "/".join(rel.parts[2:])
    return MAPPING[rel.parts[0]] + "/" + "/".join(rel.parts[1:])


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
                   check=True, capture_output=True, timeout=600)
    wheel = next(out.glob("ascend_doctor-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        return set(z.namelist())


def test_every_module_and_data_file_is_in_the_wheel(wheel_names):
    expected = {_expected_name(p) for folder in MAPPING for p in _tracked_or_present(folder)}
    missing = sorted(expected - wheel_names)
    assert not missing, f"{len(missing)} files missing from the wheel, e.g. {missing[:10]}"
    assert "ascend_doctor/__init__.py" in wheel_names and "ascend_doctor/__main__.py" in wheel_names
    assert any(n.startswith("ascend_doctor/kb/knowledge/") and n.endswith(".toml") for n in wheel_names)


def test_no_generic_top_level_names_are_installed(wheel_names):
    tops = {n.split("/", 1)[0] for n in wheel_names}
    assert not tops & {"kb", "rules", "diagnose", "tests"}, tops
    assert {t for t in tops if not t.endswith(".dist-info")} == {"ascend_doctor"}


def test_console_script_and_module_entry_point(cli_proc):
    r = cli_proc("--version")
    assert r.code == 0 and r.out.startswith("ascend-doctor ")
    p = subprocess.run([sys.executable, "-m", "ascend_doctor", "--version"], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout == r.out
