"""Options shared by several subcommands, and the helpers that act on them."""
from __future__ import annotations

import argparse
from typing import NoReturn

from ..services.errors import DoctorError


LANGS = ("en", "zh")


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
                raise DoctorError(f"{self.prog}: unknown {('command' if self.prog == 'ascend-doctor' else 'choice')} "
                               f"{m.group(1)!r}; did you mean {near[0]!r}? (see '{self.prog} --help')")
        m = re.match(r"unrecognized arguments: (\S+)", message)
        if m and m.group(1).startswith("--"):
            near = difflib.get_close_matches(m.group(1).split("=")[0], sorted(self._all_options()), n=1, cutoff=0.7)
            if near:
                raise DoctorError(f"{self.prog}: unknown option {m.group(1)!r}; did you mean {near[0]!r}? "
                                  f"(see '{self.prog} --help')")
        raise DoctorError(f"{self.prog}: {message} (see '{self.prog} --help')")

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

    return open_knowledge(getattr(args, "kb", None), force=bool(getattr(args, "force", False)))
