"""KB lint: quality gates over the shipped knowledge (kb/knowledge/).

Ids unique; every problem has a source, a fix with steps and symptoms in English and Chinese;
every signature compiles, finds its positive examples and none of its negative ones, finds nothing
in the clean logs of healthy runs (false-positive guard) and never backtracks catastrophically;
every version in the compatibility matrices reads with the version grammar.
"""
from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from ascend_doctor.kb.loader import load
from ascend_doctor.kb.paths import KNOWLEDGE_DIR
from ascend_doctor.kb.regex_safety import DEFAULT_BOUND, check

from .conftest import FIXTURES

CLEAN_LOGS = FIXTURES / "clean-logs"


@pytest.fixture(scope="module")
def knowledge():
    kn, issues = load(KNOWLEDGE_DIR)
    return kn, issues


def _fmt(items: list[str], n: int = 25) -> str:
    return "\n".join(items[:n]) + (f"\n... and {len(items) - n} more" if len(items) > n else "")


def test_knowledge_validates(knowledge):
    _, issues = knowledge
    assert not issues, _fmt([str(i) for i in issues])


def test_there_is_knowledge_to_lint(knowledge):
    kn, _ = knowledge
    assert len(kn.problems) >= 30 and len(kn.codes) >= 100
    assert sum(len(p.signatures) for p in kn.problems) >= 30


def test_problem_ids_unique(knowledge):
    kn, _ = knowledge
    seen: dict[str, str] = {}
    dups = []
    for p in kn.problems:
        if p.id in seen:
            dups.append(f"{p.id}: {seen[p.id]} and {p.file}:{p.line}")
        seen.setdefault(p.id, f"{p.file}:{p.line}")
    assert not dups, _fmt(dups)


def test_code_keys_unique(knowledge):
    kn, _ = knowledge
    seen, dups = set(), []
    for c in kn.codes:
        if (c.family, c.code) in seen:
            dups.append(f"{c.family}:{c.code} at {c.file}:{c.line}")
        seen.add((c.family, c.code))
    assert not dups, _fmt(dups)


def test_every_problem_has_source_fix_and_bilingual_symptoms(knowledge):
    kn, _ = knowledge
    bad = []
    for p in kn.problems:
        where = f"{p.file}:{p.line} {p.id}"
        if not p.sources:
            bad.append(f"{where}: no source")
        if not p.fixes or not all(f.steps for f in p.fixes):
            bad.append(f"{where}: no fix with steps")
        for lang in ("en", "zh"):
            if not [s for s in p.symptoms.get(lang, []) if s.strip()]:
                bad.append(f"{where}: no {lang} symptom")
            for what in ("title", "summary", "root_cause"):
                if not getattr(p, what).get(lang, "").strip():
                    bad.append(f"{where}: no {lang} {what}")
        if any(re.search(r"[\u4e00-\u9fff]", s) for s in p.symptoms.get("zh", [])) is False:
            bad.append(f"{where}: zh symptoms contain no Chinese")
    assert not bad, _fmt(bad)


def test_every_code_has_meaning_causes_sources_and_existing_links(knowledge):
    kn, _ = knowledge
    ids = {p.id for p in kn.problems}
    bad = []
    for c in kn.codes:
        where = f"{c.file}:{c.line} {c.family}:{c.code}"
        if not c.sources:
            bad.append(f"{where}: no source")
        if not c.causes.get("en") or not c.causes.get("zh"):
            bad.append(f"{where}: causes missing in en or zh")
        bad += [f"{where}: links missing problem {pid}" for pid in c.problems if pid not in ids]
    assert not bad, _fmt(bad)


def _signatures(kn):
    for p in kn.problems:
        for i, s in enumerate(p.signatures, 1):
            yield f"{p.file} {p.id} signature {i}", s


def _hit(sig, compiled, line: str) -> bool:
    """How the scanner decides: the literal pre-filter, then the regex."""
    return sig.literal in line and compiled.search(line) is not None


def test_every_signature_compiles_and_fits_its_examples(knowledge):
    kn, _ = knowledge
    bad = []
    for where, s in _signatures(kn):
        try:
            rx = re.compile(s.regex)
        except re.error as exc:
            bad.append(f"{where}: does not compile: {exc}")
            continue
        if not s.match or not s.no_match:
            bad.append(f"{where}: needs positive and negative examples")
        bad += [f"{where}: misses its example {m[:100]!r}" for m in s.match if not _hit(s, rx, m)]
        bad += [f"{where}: matches its negative example {m[:100]!r}" for m in s.no_match if _hit(s, rx, m)]
        if len(s.literal.strip()) < 3:
            bad.append(f"{where}: literal {s.literal!r} is too short to pre-filter")
    assert not bad, _fmt(bad)


def _clean_log_files() -> list[Path]:
    if not CLEAN_LOGS.is_dir():
        return []
    return sorted(p for p in CLEAN_LOGS.rglob("*") if p.is_file() and p.name not in ("SOURCES.md", "README.md"))


def _lines(path: Path):
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            yield n, line.rstrip("\n")


def test_clean_logs_corpus_exists():
    files = _clean_log_files()
    assert files, f"no clean logs under {CLEAN_LOGS}: the false-positive guard has nothing to check"
    assert sum(1 for f in files for _ in _lines(f)) >= 50


def test_no_signature_fires_on_clean_logs(knowledge):
    kn, _ = knowledge
    files = _clean_log_files()
    assert files, f"no clean logs under {CLEAN_LOGS}"
    # a benign problem's signature names a line of healthy runs: firing there is its job (and a benign finding
    # never reaches "likely", see test_diagnose's clean-log tests)
    benign = {p.id for p in kn.problems if p.severity == "info"}
    sigs = [(where, s, re.compile(s.regex)) for where, s in _signatures(kn) if where.split()[1] not in benign]
    hits = []
    for f in files:
        for n, line in _lines(f):
            for where, s, rx in sigs:
                if _hit(s, rx, line):
                    hits.append(f"{where} fires on {f.relative_to(CLEAN_LOGS)}:{n}: {line[:120]!r}")
    assert not hits, _fmt(hits)


def test_no_signature_backtracks_catastrophically(knowledge):
    kn, _ = knowledge
    items = list(_signatures(kn))
    assert items
    results = check([s.regex for _, s in items])
    slow = [f"{where}: {s.regex!r} {'did not finish' if t.seconds is None else ''} "
            f"within {DEFAULT_BOUND} s on long adversarial lines {t.error}".strip()
            for (where, s), t in zip(items, results) if not t.safe]
    assert not slow, _fmt(slow)


def test_the_backtracking_guard_catches_a_bad_regex():
    good, bad = check([r"HCCL_E_TIMEOUT \d+", r"ERRfixture:(\w+\s?)*$"])
    assert good.safe and not bad.safe


VERSION_COLUMNS = {
    "hdk-cann": ("cann", "hdk", "hdk_incompatible", "recommended", "paired"),
    "torch-npu": ("torch_npu", "torch", "cann", "python", "cann_range"),
    "vllm-ascend": ("vllm_ascend", "vllm", "python", "cann", "torch", "torch_npu", "triton_ascend", "mooncake"),
    "mindie-cann": ("mindie", "cann", "pta", "hdk", "torch"),
    "mindspore-cann": ("mindspore", "cann", "python"),
    "python-deps": ("cann",),
}


def test_compat_versions_read_with_the_version_grammar(knowledge):
    version = pytest.importorskip("ascend_doctor.kb.language.version")
    kn, _ = knowledge
    bad = []
    for r in kn.compat:
        for col in VERSION_COLUMNS.get(r.matrix, ()):
            for v in (r.data.get(col) if isinstance(r.data.get(col), list) else [r.data.get(col)]):
                if not v:
                    continue
                try:
                    version.parse_spec(v)
                except Exception as exc:  # noqa: BLE001
                    bad.append(f"{r.file}:{r.line} {r.matrix}.{col} = {v!r}: {exc}")
    assert not bad, _fmt(bad)


def test_compat_matrices_named_in_the_contract_exist(knowledge):
    kn, _ = knowledge
    matrices = {r.matrix for r in kn.compat}
    assert {"hdk-cann", "torch-npu", "vllm-ascend", "mindie-cann", "engine-hardware", "products",
            "python-deps", "triton-ascend", "mindspore-cann"} <= matrices


# --- fix commands, over the whole knowledge ------------------------------------------------------------
def test_disruptive_steps_and_internal_material_fail_kb_lint(knowledge):
    """A step that reboots, restarts a service, uninstalls, kills or resets is never the first step of a fix
    and starts with a warning in both languages (K104); no user-facing text shows internal material (K101)."""
    from ascend_doctor.kb.authoring.lint import quality_findings

    kn, _ = knowledge
    bad = [str(f) for f in quality_findings(kn) if f.code in ("K101", "K104")]
    assert not bad, _fmt(bad)


@pytest.mark.parametrize("command, disruptive", [
    ("swapoff -a", True),
    ("fallocate -l 16G /swapfile && mkswap /swapfile && swapon /swapfile", True),
    ("rm -rf /var/lib/dkms/davinci_ascend", True),
    ("sudo reboot", True),
    ("/usr/local/Ascend/driver/script/uninstall.sh", True),
    ("./Ascend-hdk-910b-npu-firmware_7.7.0.1.231.run --uninstall", True),
    ("./Ascend-cann-toolkit_8.1.RC1_linux-aarch64.run --check", False),
    ("swapon --show", False),
    ("rm -rf build && pip install -v -e .", False),
    ("rm -rf ~/.triton/cache/*", False),
    ("ipcs -m; ipcrm -m <shmid>", True),      # deletes a shared memory segment another process may still use
    ("ipcs -m", False),
])
def test_what_counts_as_a_disruptive_command(command, disruptive):
    """Commands that change the whole machine (swap, system directories, reboots) need K104's warning; clearing a
    build directory or a cache does not."""
    from ascend_doctor.kb.authoring.lint import DISRUPTIVE

    assert bool(DISRUPTIVE.search(command)) is disruptive


def test_every_signature_source_is_a_source_of_its_problem(knowledge):
    """Where a signature's example lines were copied from is a source the user sees in `explain` (K108)."""
    from ascend_doctor.kb.authoring.lint import quality_findings

    kn, _ = knowledge
    bad = [str(f) for f in quality_findings(kn) if f.code == "K108"]
    assert not bad, _fmt(bad)
