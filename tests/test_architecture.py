"""The import rules of docs/architecture.md, enforced."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg_parts = ("ascend_doctor." + ".".join(path.relative_to(ROOT).with_suffix("").parts)).split(".")
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg_parts[: len(pkg_parts) - node.level]
                names.add(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                names.add(node.module)
    return names


def _modules(folder: str):
    return [p for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts]


def test_kb_imports_nothing_of_ours():
    for p in _modules("kb"):
        bad = {n for n in _imports(p) if n.startswith(("ascend_doctor.rules", "ascend_doctor.diagnose"))}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


def test_the_language_imports_only_itself_and_the_toml_shim():
    """Knowledge and rules share one condition and version language; it depends on nothing else."""
    for p in _modules("kb/language"):
        bad = {n for n in _imports(p) if n.startswith("ascend_doctor.")
               and not n.startswith(("ascend_doctor.kb.language", "ascend_doctor.kb.toml"))}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


def test_rules_import_only_kb():
    for p in _modules("rules"):
        bad = {n for n in _imports(p) if n.startswith("ascend_doctor.diagnose")}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


def test_renderers_never_import_probes_or_the_system():
    for p in _modules("diagnose/render"):
        bad = {n for n in _imports(p) if n.startswith(("ascend_doctor.diagnose.probes", "ascend_doctor.diagnose.system"))}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


def test_front_ends_other_than_the_cli_never_import_the_cli():
    """The TUI and the pytest plugin call the services (diagnose/services), never cli/ modules."""
    for p in _modules("diagnose/tui") + [ROOT / "diagnose" / "pytest_plugin.py"] + _modules("diagnose/services") \
            + _modules("diagnose/render"):
        bad = {n for n in _imports(p) if n.startswith("ascend_doctor.diagnose.cli")}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


def test_services_take_values_not_argparse():
    for p in _modules("diagnose/services"):
        assert "argparse" not in _imports(p), f"{p.relative_to(ROOT)} imports argparse"


def test_only_the_tui_imports_textual():
    for p in _modules("diagnose") + _modules("rules") + _modules("kb"):
        if "tui" in p.relative_to(ROOT).parts or p.name == "tui.py":
            continue
        bad = {n for n in _imports(p) if n.split(".")[0] == "textual"}
        assert not bad, f"{p.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("argv", [["explain", "561000"], ["search", "hang"], ["--help"]])
def test_light_commands_do_not_load_textual(argv):
    code = ("import sys; from ascend_doctor.diagnose.cli.main import main\n"
            f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
            "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('textual',)); "
            "print('HEAVY', heavy)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert "HEAVY []" in p.stdout, p.stdout[-500:] + p.stderr[-500:]


def test_commands_render_through_the_registry():
    """A command parses, calls a service and hands the report to render/registry.py (via cli/output.emit):
    no command builds JSON or prints through its own console, so every --format comes from one table."""
    for p in _modules("diagnose/cli/commands"):
        text = p.read_text(encoding="utf-8")
        bad = [w for w in ("dumps_json", "Console(", "json.dumps(", "print_json(") if w in text]
        assert not bad, f"{p.relative_to(ROOT)} renders by itself ({', '.join(bad)})"


@pytest.mark.parametrize("folder,package", [("diagnose", "ascend_doctor.diagnose"), ("kb", "ascend_doctor.kb"),
                                            ("rules", "ascend_doctor.rules")])
def test_a_package_imports_its_own_modules_relatively(folder, package):
    """One import style: a module names its own package's modules relatively (``from ..evidence import``),
    other packages absolutely (``from ascend_doctor.kb.query import``)."""
    for p in _modules(folder):
        if "_pkg" in p.parts:                 # the ascend_doctor package itself
            continue
        tree = ast.parse(p.read_text(encoding="utf-8"))
        bad = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level and n.module
               and (n.module == package or n.module.startswith(package + "."))]
        bad += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
                if a.name == package or a.name.startswith(package + ".")]
        assert not bad, f"{p.relative_to(ROOT)} imports its own package absolutely: {bad}"
