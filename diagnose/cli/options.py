"""Options shared by several subcommands, and the helpers that act on them."""
from __future__ import annotations

import argparse
from typing import NoReturn

from ..services.errors import DoctorError
from ..services.errors import message as message_of


LANGS = ("en", "zh")


#: argparse's messages in Chinese: (pattern, template)
ARGPARSE_ZH = (
    (r"unrecognized arguments: (.*)", "无法识别的参数：{0}"),
    (r"the following arguments are required: (.*)", "缺少必需的参数：{0}"),
    (r"argument (\S+): invalid choice: (.*) \(choose from (.*)\)", "参数 {0}：无效的选项 {1}（可选：{2}）"),
    (r"argument (\S+): expected one argument", "参数 {0} 需要一个值"),
    (r"argument (\S+): expected at least one argument", "参数 {0} 至少需要一个值"),
    (r"argument (\S+): invalid (\w+) value: (.*)", "参数 {0}：无效的 {1} 值 {2}"),
    (r"argument (\S+): not allowed with argument (\S+)", "参数 {0} 不能与 {1} 同时使用"),
    (r"ambiguous option: (.*)", "有歧义的选项：{0}"),
    (r"invalid choice: (.*) \(choose from (.*)\)", "无效的选项 {0}（可选：{1}）"),
)


def argparse_texts(message: str) -> dict[str, str]:
    """An argparse error message as {"en": ..., "zh": ...} (the English one where no pattern fits)."""
    import re

    for pattern, zh in ARGPARSE_ZH:
        m = re.fullmatch(pattern, message)
        if m:
            return {"en": message, "zh": zh.format(*m.groups())}
    return {"en": message}


class _ChineseHelpFormatter(argparse.HelpFormatter):
    """argparse's layout with lines cut by terminal columns, between Chinese characters too."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        from ..render.cjk import wrap

        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        from ..render.cjk import wrap

        return "\n".join(indent + line for line in wrap(text, width - len(indent)))


class Parser(argparse.ArgumentParser):
    """argparse that reports usage errors in one line and exits 2."""

    def error(self, message: str) -> NoReturn:
        import difflib
        import re

        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            choices = re.findall(r"'([^']*)'", m.group(2))
            near = difflib.get_close_matches(m.group(1), choices, n=1, cutoff=0.6)
            if near:
                what = "what_command" if self.prog == "ascend-doctor" else "what_choice"
                raise DoctorError(key="did_you_mean", prog=self.prog, given=m.group(1), near=near[0],
                                  what={"en": message_of(what, "en"), "zh": message_of(what, "zh")})
        m = re.match(r"unrecognized arguments: (\S+)", message)
        if m and m.group(1).startswith("--"):
            near = difflib.get_close_matches(m.group(1).split("=")[0], sorted(self._all_options()), n=1, cutoff=0.7)
            if near:
                raise DoctorError(key="did_you_mean", prog=self.prog, given=m.group(1), near=near[0],
                                  what={"en": message_of("what_option", "en"), "zh": message_of("what_option", "zh")})
        raise DoctorError(key="see_help", prog=self.prog, message=argparse_texts(message))

    def format_help(self) -> str:
        """The help screen in the user's language: the commands' descriptions and option help from
        help_zh.py, argparse's headings too (option names and values stay as they are typed)."""
        if default_lang() != "zh":
            return super().format_help()
        import re

        from .help_zh import HEADINGS_ZH, HELP_ZH

        saved: list[tuple[object, str, str]] = []

        def swap(obj, attr: str) -> None:
            text = getattr(obj, attr, None)
            if isinstance(text, str) and text in HELP_ZH:
                saved.append((obj, attr, text))
                setattr(obj, attr, HELP_ZH[text])

        swap(self, "description")
        for action in self._actions:
            swap(action, "help")
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    swap(choice, "help")
        formatter_class, self.formatter_class = self.formatter_class, _ChineseHelpFormatter
        try:
            text = super().format_help()
        finally:
            self.formatter_class = formatter_class
            for obj, attr, original in saved:
                setattr(obj, attr, original)
        heads = "|".join(re.escape(h) for h in HEADINGS_ZH)
        return re.sub(rf"(?m)^({heads})", lambda m: HEADINGS_ZH[m.group(1)], text)

    def _all_options(self) -> set[str]:
        """Every long option of this parser and of its subcommands (argparse reports a subcommand's unknown
        option from the top parser)."""
        out = {o for o in self._option_string_actions if o.startswith("--")}
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    out |= {o for o in sub._option_string_actions if o.startswith("--")}
        return out


#: ``--lang`` given anywhere on the command line (set by main for one run)
LANG_OVERRIDE: str | None = None


def default_lang() -> str:
    """``--lang`` wherever it was given, else ``zh`` when the locale says Chinese (ASCEND_DOCTOR_LANG,
    LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else ``en``."""
    from ..render.console import locale_lang

    return LANG_OVERRIDE or locale_lang()


def add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGS, default=None, help="language of the output (default: from the locale)")


def lang_of(args: argparse.Namespace) -> str:
    return getattr(args, "lang", None) or default_lang()


def add_kb(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--kb", metavar="PATH", default=None,
                        help="knowledge-base database file (default: $ASCEND_DOCTOR_KB or the user cache)")


def add_format(parser: argparse.ArgumentParser, choices=("text", "json"), default="text") -> None:
    parser.add_argument("--format", choices=choices, default=default, help=f"output format (default: {default})")


def open_kb(args: argparse.Namespace):
    """The knowledge base of ``--kb`` (``--force`` rebuilds it); see services.knowledge.open_kb."""
    from ..services.knowledge import open_kb as open_knowledge

    return open_knowledge(getattr(args, "kb", None), force=bool(getattr(args, "force", False)), lang=lang_of(args))
