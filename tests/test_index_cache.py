"""The matcher's indexes are computed once per knowledge, then read from beside the database."""
from __future__ import annotations

import marshal
from types import SimpleNamespace

from ascend_doctor.kb.index_cache import _PY, cached_index


def _file(tmp_path, name):
    return tmp_path / f"kb.{name}.{_PY}.marshal"


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
    assert len(calls) == 1 and _file(tmp_path, "symptoms").exists()
    cached_index(_kb(tmp_path, "h2"), "symptoms", 1, build, ok)              # other knowledge
    cached_index(_kb(tmp_path, "h2"), "symptoms", 2, build, ok)              # another shape of the index
    assert len(calls) == 3


def test_a_corrupt_or_foreign_file_is_rebuilt_and_a_read_only_directory_is_no_error(tmp_path):
    _file(tmp_path, "symptoms").write_bytes(b"\x00not marshal")
    assert cached_index(_kb(tmp_path), "symptoms", 1, lambda: [1], lambda x: isinstance(x, list)) == [1]
    _file(tmp_path, "symptoms").write_bytes(marshal.dumps({"key": "1:h1", "index": {"wrong": "shape"}}))
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
    assert _file(tmp_path, "problems").exists() and _file(tmp_path, "retrieval").exists()
    assert runs[0] == runs[1] and runs[0][1]
    with KnowledgeBase(db, overlays=[]) as kb:
        assert kb.problems() == kb._problem_infos(kb._rows("SELECT * FROM problem ORDER BY family, id"))


def test_the_index_read_back_has_the_types_json_gives_and_the_old_json_file_goes(tmp_path):
    """A tuple built is a list read back, on the first run as on every later one (the matcher sees one shape);
    the JSON file an earlier release wrote beside the database is removed when its successor is written."""
    (tmp_path / "kb.symptoms.json").write_text('{"key": "old", "index": []}')
    built = cached_index(_kb(tmp_path), "symptoms", 1, lambda: {"p": ("a", 1)}, lambda x: isinstance(x, dict))
    read = cached_index(_kb(tmp_path), "symptoms", 1, lambda: {"p": ("b", 2)}, lambda x: isinstance(x, dict))
    assert built == read == {"p": ["a", 1]}
    assert not (tmp_path / "kb.symptoms.json").exists()


def test_a_truncated_file_is_rebuilt(tmp_path):
    cached_index(_kb(tmp_path), "symptoms", 1, lambda: [1, 2, 3], lambda x: isinstance(x, list))
    data = _file(tmp_path, "symptoms").read_bytes()
    _file(tmp_path, "symptoms").write_bytes(data[: len(data) // 2])
    assert cached_index(_kb(tmp_path), "symptoms", 1, lambda: [4], lambda x: isinstance(x, list)) == [4]


def test_a_problem_read_from_the_copy_is_a_whole_problem(tmp_path):
    """The words of a problem read from beside the database are decoded when first asked for; every way a
    front end reads a problem (its fields, dataclasses.asdict, a copy sent to another process) sees all of it."""
    import copy
    import dataclasses
    import pickle
    import shutil

    from ascend_doctor.kb.query import KnowledgeBase, ProblemInfo

    with KnowledgeBase() as kb:
        src = kb.path
    db = tmp_path / "kb.sqlite"
    shutil.copy(src, db)
    for _ in range(2):                       # built, then read back
        with KnowledgeBase(db, overlays=[]) as kb:
            copied = {p.id: p for p in kb.problems()}
            fresh = {p.id: p for p in kb._problem_infos(kb._rows("SELECT * FROM problem ORDER BY family, id"))}
    p = copied["hccl-buffsize-too-small-moe"]
    assert isinstance(p, ProblemInfo) and not hasattr(p, "no_such_field")   # asking for another name loses nothing
    assert pickle.loads(pickle.dumps(p)) == fresh[p.id] == p        # before its words were read ...
    assert dataclasses.asdict(p) == dataclasses.asdict(fresh[p.id])
    assert p.title["en"] and p.fixes and p.sources
    assert pickle.loads(pickle.dumps(p)) == copy.deepcopy(p) == fresh[p.id]   # ... and after


def test_reading_an_index_leaves_the_garbage_collector_as_it_was(tmp_path):
    import gc

    from ascend_doctor.kb.index_cache import no_gc

    kb = _kb(tmp_path)
    for enabled in (True, False):
        (gc.enable if enabled else gc.disable)()
        try:
            cached_index(kb, "x", 1, lambda: {"a": [1, 2]}, lambda x: isinstance(x, dict))   # built
            assert cached_index(kb, "x", 1, lambda: {}, lambda x: isinstance(x, dict)) == {"a": [1, 2]}  # read
            with no_gc():
                assert not gc.isenabled()
            assert gc.isenabled() == enabled
        finally:
            gc.enable()
