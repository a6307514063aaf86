"""Shared test fixtures.

Every test runs with its own cache/data directories so the user's real ~/.cache and ~/.local are
never touched; the knowledge base is built once per session in a session-wide cache.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MINI_KB = FIXTURES / "kb-mini"


@pytest.fixture(scope="session")
def session_dirs(tmp_path_factory):
    base = tmp_path_factory.mktemp("ascend-doctor-home")
    dirs = {"cache": base / "cache", "data": base / "data", "site": base / "site-knowledge"}
    # build the session's knowledge base before any test runs, so that no test's output depends on
    # whether it happened to be the one that built it (the build prints a one-time notice)
    from ascend_doctor.kb.query import KnowledgeBase

    KnowledgeBase(dirs["cache"] / "ascend-doctor" / "kb.sqlite", overlays=[]).close()
    return dirs


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch, session_dirs):
    monkeypatch.setenv("XDG_CACHE_HOME", str(session_dirs["cache"]))
    monkeypatch.setenv("ASCEND_DOCTOR_DATA", str(session_dirs["data"]))
    monkeypatch.delenv("ASCEND_DOCTOR_KB", raising=False)
    monkeypatch.setenv("ASCEND_DOCTOR_LANG", "en")
    # the machine's own /etc/ascend-doctor/knowledge.d never takes part in a test
    monkeypatch.setenv("ASCEND_DOCTOR_SITE_KNOWLEDGE", str(session_dirs["site"]))


@pytest.fixture
def home(tmp_path, monkeypatch):
    """Own data and cache dirs for one test (never the session's or the user's)."""
    monkeypatch.setenv("ASCEND_DOCTOR_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path


@pytest.fixture
def kdir(tmp_path) -> Path:
    """A writable copy of the small test knowledge set, with the real vocabulary."""
    import shutil

    from ascend_doctor.kb.paths import KNOWLEDGE_DIR

    d = tmp_path / "knowledge"
    shutil.copytree(MINI_KB, d)
    shutil.copy(KNOWLEDGE_DIR / "vocabulary.toml", d / "vocabulary.toml")
    return d


@dataclass
class CLIResult:
    code: int
    out: str
    err: str


@pytest.fixture
def cli():
    """Run the CLI in-process: cli("explain", "561000") -> CLIResult."""
    from ascend_doctor.diagnose.cli.main import main

    def run(*argv: str, stdin: str | None = None) -> CLIResult:
        out, err = io.StringIO(), io.StringIO()
        old_stdin = sys.stdin
        if stdin is not None:
            sys.stdin = io.StringIO(stdin)
        try:
            with redirect_stdout(out), redirect_stderr(err):
                code = main(list(argv))
        finally:
            sys.stdin = old_stdin
        return CLIResult(code, out.getvalue(), err.getvalue())

    return run


@pytest.fixture
def cli_proc():
    """Run the installed console script in a subprocess (for exit codes, tracebacks, real stdio)."""
    exe = Path(sys.executable).with_name("ascend-doctor")

    def run(*argv: str, stdin: str | None = None, env: dict | None = None, timeout: float = 60) -> CLIResult:
        p = subprocess.run([str(exe), *argv], input=stdin, capture_output=True, text=True, timeout=timeout,
                           env={**os.environ, **(env or {})})
        return CLIResult(p.returncode, p.stdout, p.stderr)

    return run


def accuracy_bench():
    """bench/accuracy.py as a module (the tests of diagnosis accuracy share its loading and scoring)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import accuracy
    finally:
        sys.path.pop(0)
    return accuracy
