"""The sentences of bundle and kb export/import exist in English and Chinese, with the same placeholders."""
from __future__ import annotations

import re
import string

from ascend_doctor.diagnose.bundle.model import REASONS
from ascend_doctor.diagnose.render.messages import MESSAGES, human_size, message

CJK = re.compile(r"[\u4e00-\u9fff]")


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


def test_every_sentence_in_both_languages_with_the_same_placeholders():
    for key, texts in MESSAGES.items():
        assert set(texts) == {"en", "zh"}, key
        assert _fields(texts["en"]) == _fields(texts["zh"]), key
        assert not CJK.search(texts["en"]) and CJK.search(texts["zh"]), key


def test_every_reason_and_redaction_kind_has_words():
    from ascend_doctor.diagnose.bundle import redact

    for reason in REASONS:
        assert f"bundle.reason.{reason}" in MESSAGES
    kinds = set(re.findall(r'count\("(\w+)"', open(redact.__file__, encoding="utf-8").read()))
    assert kinds and all(f"bundle.redaction.{k}" in MESSAGES for k in kinds), kinds


def test_message_and_sizes():
    assert message("output.exists", "zh", path="x") == "x 已存在；请换一个文件名，或加 --force 覆盖它"
    assert message("output.exists", "fr", path="x").startswith("x exists")
    assert (human_size(5), human_size(1536), human_size(3 << 20)) == ("5 B", "1.5 KiB", "3.0 MiB")
