"""Search: English and Chinese, synonyms, codes, ranking."""
from __future__ import annotations

import pytest

from ascend_doctor.kb.query import KnowledgeBase

from .conftest import MINI_KB


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    kb = KnowledgeBase(tmp_path_factory.mktemp("kb") / "kb.sqlite", knowledge_dir=MINI_KB)
    yield kb
    kb.close()


@pytest.mark.parametrize("query", [
    "weight loading hang", "权重加载 卡住", "权重加载一直卡死", "model loading stuck", "Loading safetensors 0%",
    "权重 加载 卡住",        # Chinese words typed apart are the same words
])
def test_weight_load_hang_first(kb, query):
    hits = kb.search(query)
    assert hits, query
    assert hits[0].ref == "weight-load-hang-kernel-hdk", [(h.ref, h.score) for h in hits]


def test_code_query_finds_the_code_first(kb):
    hits = kb.search("561000")
    assert hits[0].kind == "code" and hits[0].ref == "aclnn:561000"


def test_expert_parallel_two_nodes_in_chinese(kb):
    hits = kb.search("双机直连 专家并行")
    assert hits[0].ref == "moe-dispatch-561000-a2-direct"


def test_two_character_chinese_words_alone_are_found(kb):
    """Only short Chinese words (no word of three or more characters): found by a scan, not the trigram index."""
    hits = kb.search("直连")
    assert hits and hits[0].ref == "moe-dispatch-561000-a2-direct", [(h.ref, h.score) for h in hits]


def test_nothing_matches(kb):
    assert kb.search("zebra giraffe") == []
    assert kb.search("   ") == []


def test_kind_filter(kb):
    assert all(h.kind == "problem" for h in kb.search("561000 dispatch", kinds=("problem",)))


def test_normalizer_folds_synonyms_both_ways(kb):
    n = kb.normalizer
    assert "hang" in n.terms("一直卡住了")
    assert n.terms("Weight-Loading stuck") == ["weight", "loading", "hang"]


def test_the_shipped_synonyms_read_chinese_reports_in_the_knowledges_words():
    """Users write 推理 / 量化 / 多卡 where the knowledge often says inference / quantization / multi-card."""
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        terms = kb.normalizer.terms("多卡推理时量化模型精度下降，启动后崩溃")
    assert {"multi-card", "inference", "quantization", "accuracy", "startup", "crash"} <= set(terms), terms


def test_a_missing_thing_reads_the_same_in_every_phrasing():
    """'这个版本根本不存在' (this version does not exist at all), 'does not exist' and 'not found' say one thing."""
    from ascend_doctor.kb.query import KnowledgeBase

    with KnowledgeBase() as kb:
        n = kb.normalizer
        assert n.terms("torch-npu 2.7.1.dev20250724 找不到")[-2:] == ["not", "found"]
        assert n.terms("torch-npu 2.7.1.dev20250724 这个版本根本不存在")[-2:] == ["not", "found"]
        assert n.terms("model path does not exist") == ["model", "path", "not", "found"]
