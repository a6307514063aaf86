"""The matcher's indexes are computed once per knowledge, then read from beside the database."""
from __future__ import annotations

from types import SimpleNamespace

from ascend_doctor.kb.index_cache import cached_index


def _kb(tmp_path, content_hash="h1"):
    return SimpleNamespace(content_hash=content_hash, path=str(tmp_path / "kb.sqlite"))


def test_an_index_is_built_once_per_knowledge_and_version(tmp_path):
    calls = []

    def build():
        calls.append(1)
        return [["p", "phrase", "phrase"]]

    ok = lambda x: isinstance(x, list)                                       # noqa: E731
    assert cached_index(_kb(tmp_path), "symptoms", 1, build, ok) == [["p", "phrase", "phrase"]]
    assert cached_index(_kb(tmp_path), "symptoms", 1, build, ok) == [["p", "phrase", "phrase"]]
    assert len(calls) == 1 and (tmp_path / "kb.symptoms.json").exists()
    cached_index(_kb(tmp_path, "h2"), "symptoms", 1, build, ok)              # other knowledge
    cached_index(_kb(tmp_path, "h2"), "symptoms", 2, build, ok)              # another shape of the index
    assert len(calls) == 3


def test_a_corrupt_or_foreign_file_is_rebuilt_and_a_read_only_directory_is_no_error(tmp_path):
    (tmp_path / "kb.symptoms.json").write_text("{not json")
    assert cached_index(_kb(tmp_path), "symptoms", 1, lambda: [1], lambda x: isinstance(x, list)) == [1]
    (tmp_path / "kb.symptoms.json").write_text('{"key": "1:h1", "index": {"wrong": "shape"}}')
    assert cached_index(_kb(tmp_path), "symptoms", 1, lambda: [2], lambda x: isinstance(x, list)) == [2]
    # a directory that cannot be written (here: gone) costs the cache, never the answer
    assert cached_index(_kb(tmp_path / "gone"), "symptoms", 1, lambda: [3], lambda x: True) == [3]
    assert not (tmp_path / "gone").exists()


def test_the_problems_and_the_retriever_read_from_the_cache_are_those_built_from_the_database(tmp_path):
    """The JSON copies beside the database (problems, the retriever's index) give what SQL and a fresh build
    give: a report is diagnosed the same on the first run and on every later one."""
    import shutil

    from ascend_doctor.diagnose.services.diagnosis import diagnose
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        src = kb.path
    db = tmp_path / "kb.sqlite"
    shutil.copy(src, db)
    report = ("[Bug]: HCCL_BUFFSIZE too small, EI0006 on Atlas 800I A2\n"
              "RuntimeError: The Inner error is reported as above. ERR99999 UNKNOWN application exception")
    runs = []
    for _ in range(2):                       # the first run builds the caches, the second reads them
        with KnowledgeBase(db, overlays=[]) as kb:
            runs.append((kb.problems(), [(f.id, f.score) for f in diagnose(kb, text=report).findings]))
    assert (tmp_path / "kb.problems.json").exists() and (tmp_path / "kb.retrieval.json").exists()
    assert runs[0] == runs[1] and runs[0][1]
    with KnowledgeBase(db, overlays=[]) as kb:
        assert kb.problems() == kb._problem_infos(kb._rows("SELECT * FROM problem ORDER BY family, id"))
