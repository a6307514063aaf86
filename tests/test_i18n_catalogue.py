"""Every text the front ends write of their own exists in English and Chinese (tests/i18n.py finds the
tables): the same keys, every Chinese entry written (not left in English), the same placeholders."""
from __future__ import annotations

import re
import string

from .i18n import DATA, WORD, catalogues, pairs

CJK = re.compile(r"[\u3400-\u9fff]")
#: names that read the same in Chinese: products, packages, keys
SAME = {"python", "torch", "numpy", "vllm", "sglang", "mindie", "ascend", "atlas", "doctor", "cann", "py", "duo", "pro",
        "rank"}


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def test_the_catalogues_are_found():
    names = {where for where, _ in catalogues()}
    for expected in ("ascend_doctor.diagnose.tui.words.LABELS", "ascend_doctor.diagnose.render.check_common.LABELS",
                     "ascend_doctor.diagnose.matcher.reasons.LABELS", "ascend_doctor.diagnose.services.errors.LABELS"):
        assert expected in names


def test_every_key_has_both_languages():
    for where, table in catalogues():
        en, zh = table["en"], table["zh"]
        assert type(en) is type(zh), where
        if isinstance(en, dict):
            assert set(en) == set(zh), f"{where}: only in en {set(en) - set(zh)}, only in zh {set(zh) - set(en)}"


def test_every_chinese_entry_is_written():
    untranslated = []
    for where, key, en, zh in pairs():
        if not isinstance(en, str):
            continue
        assert isinstance(zh, str) and zh.strip(), f"{where}[{key!r}] has no Chinese"
        if CJK.search(zh):
            continue
        # no Chinese character: fine only for names, keys and symbols (NPU, torch_npu, Bus-Id, AICore(%))
        words = {w.lower() for w in WORD.findall(DATA.sub(" ", zh))} - SAME
        if words:
            untranslated.append(f"{where}[{key!r}] = {zh!r}")
    assert not untranslated, "English left in the Chinese tables:\n" + "\n".join(untranslated)


def test_the_same_placeholders_in_both_languages():
    for where, key, en, zh in pairs():
        if isinstance(en, str) and isinstance(zh, str):
            assert _fields(en) == _fields(zh), f"{where}[{key!r}]: {_fields(en)} vs {_fields(zh)}"
