"""``--help`` in Chinese: every description and option help a command writes has its Chinese in
cli/help_zh.py, keeps the option names it mentions, and the help screens show no English sentence."""
from __future__ import annotations

import argparse
import re

import pytest

from ascend_doctor.diagnose.cli.help_zh import HELP_ZH
from ascend_doctor.diagnose.cli.main import build_parser


def _texts(parser: argparse.ArgumentParser) -> list[str]:
    out = [parser.description] if parser.description else []
    for action in parser._actions:
        if action.help and action.help is not argparse.SUPPRESS:
            out.append(action.help)
        if isinstance(action, argparse._SubParsersAction):
            out += [c.help for c in action._choices_actions if c.help]
            for sub in action.choices.values():
                out += _texts(sub)
    return out


def _commands() -> list[str]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


def test_every_help_text_has_its_chinese_and_none_is_left_over():
    texts = set(_texts(build_parser()))
    missing = sorted(texts - set(HELP_ZH))
    assert not missing, f"help texts without Chinese in cli/help_zh.py: {missing}"
    stale = sorted(set(HELP_ZH) - texts)
    assert not stale, f"Chinese for help texts no command writes any more: {stale}"


def test_the_chinese_keeps_every_option_name_it_mentions():
    for en, zh in HELP_ZH.items():
        for opt in re.findall(r"(?<![\w-])--[a-z][a-z-]*", en):
            assert opt in zh, (opt, zh)
        assert re.search(r"[\u4e00-\u9fff]", zh), zh


@pytest.mark.parametrize("command", [None, *_commands()])
def test_help_screens_in_chinese_show_no_english_sentence(cli_proc, command):
    argv = ["--lang", "zh", *([command] if command else []), "--help"]
    r = cli_proc(*argv)
    assert r.code == 0, r.err
    assert r.out.startswith("用法：")
    assert "options:" not in r.out and "optional arguments:" not in r.out and "show this help" not in r.out
    flat = " ".join(r.out.split())
    for en in HELP_ZH:
        assert en not in flat, en
    # and English stays English
    r = cli_proc(*([command] if command else []), "--help", "--lang", "en")
    assert r.code == 0 and r.out.startswith("usage:")
