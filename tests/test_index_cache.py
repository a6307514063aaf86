"""The matcher's indexes are computed once per knowledge, then read from beside the database."""
from __future__ import annotations

from types import SimpleNamespace

from ascend_doctor.diagnose.matcher.index_cache import cached_index


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
