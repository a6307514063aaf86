"""The generated catalogue docs/kb/ (``ascend-doctor kb docs``) and its freshness."""
from __future__ import annotations

from pathlib import Path

from ascend_doctor.kb import docs
from ascend_doctor.kb.loader import load
from ascend_doctor.kb.paths import KNOWLEDGE_DIR

from .conftest import ROOT

DOCS_KB = ROOT / "docs" / "kb"


def test_docs_kb_is_up_to_date():
    pages = docs.generate()
    committed = {p.name: p.read_text(encoding="utf-8") for p in DOCS_KB.glob("*.md")} if DOCS_KB.is_dir() else {}
    missing = sorted(set(pages) - set(committed))
    extra = sorted(n for n in set(committed) - set(pages) if committed[n].startswith(docs.MARKER))
    stale = sorted(n for n in set(pages) & set(committed) if pages[n] != committed[n])
    assert not (missing or extra or stale), (
        f"docs/kb is out of date (missing {missing}, extra {extra}, stale {stale}): run 'ascend-doctor kb docs'")


def test_catalogue_covers_every_problem_code_and_matrix():
    kn, issues = load(KNOWLEDGE_DIR)
    assert not issues
    pages = docs.render(kn)
    assert "index.md" in pages
    for p in kn.problems:
        page = pages[f"problems-{p.family}.md"]
        md = docs._md
        assert f'<a id="{p.id}"></a>' in page and md(p.title["en"]) in page and md(p.title["zh"]) in page
        for s in p.sources:
            assert s in page
        for f in p.fixes:
            assert md(f.summary["en"]) in page
            for st in f.steps:
                assert md(st.en) in page
    for c in kn.codes:
        assert f"`{c.code}`" in pages[f"codes-{c.family}.md"]
    for r in kn.compat:
        assert r.source in pages[f"compat-{r.matrix}.md"]
    index = pages["index.md"]
    for name in pages:
        if name != "index.md":
            assert f"]({name})" in index


def test_cli_writes_and_removes_stale_pages(cli, tmp_path: Path):
    out = tmp_path / "kbdocs"
    out.mkdir()
    (out / "problems-gone.md").write_text(docs.MARKER + "\nold\n", encoding="utf-8")
    (out / "notes.md").write_text("hand-written, keep\n", encoding="utf-8")
    r = cli("kb", "docs", "--output", str(out))
    assert r.code == 0, r.err
    assert (out / "index.md").is_file()
    assert not (out / "problems-gone.md").exists() and (out / "notes.md").is_file()
    again = cli("kb", "docs", "--output", str(out))
    assert again.code == 0 and " 0 written" in again.out
