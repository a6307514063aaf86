"""Chinese text wraps between characters (not only at spaces); Latin words, commands and URLs never break."""
from __future__ import annotations

import re

from hypothesis import given, strategies as st
from rich.console import Console

from ascend_doctor.diagnose.render import cjk


def lines(text: str, width: int) -> list[str]:
    cjk.enable()
    console = Console(width=width, record=True, file=open("/dev/null", "w"))
    console.print(text)
    return [ln.rstrip() for ln in console.export_text().splitlines()]


def test_chinese_fills_the_line():
    out = lines("该 NPU 已被其他容器占用，请先停止占用它的容器再重新启动当前容器。", 20)
    assert out[0].startswith("该 NPU 已被其他")      # not "该 NPU" alone on its line
    assert all(ln[:1] not in "，。）：" for ln in out)  # closing punctuation never starts a line


def test_latin_words_are_not_broken():
    out = lines("pip install torch==2.6.0 then run python -m pip check please", 20)
    words = " ".join(out).split()
    assert words == "pip install torch==2.6.0 then run python -m pip check please".split()


def test_opening_punctuation_stays_with_what_follows():
    out = lines("安装与之配套的版本（pip install torch）然后", 12)
    assert not any(ln.endswith("（") for ln in out)


@given(st.text(alphabet=st.sampled_from(list("ab 1-/你好，。（）“”…\t")), max_size=40))
def test_every_character_belongs_to_a_unit(text):
    """The word splitters must cover the whole text, or the toolkits would drop what is left."""
    assert "".join(m.group(0) for m in _iter(cjk.TEXTUAL_CHUNK, text)) == text
    if text.strip():
        assert "".join(m.group(0) for m in _iter(cjk.RICH_WORD, text)) == text


def _iter(pattern: re.Pattern, text: str):
    pos = 0
    while pos < len(text):
        m = pattern.match(text, pos)
        if m is None or m.end() == pos:
            break
        yield m
        pos = m.end()
