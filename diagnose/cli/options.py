"""Options shared by several subcommands, and the helpers that act on them."""
from __future__ import annotations

import argparse
import os
import sys

from .errors import CLIError, EXIT_INTERNAL

LANGS = ("en", "zh")


#: ``--lang`` given anywhere on the command line (set by main for one run)
LANG_OVERRIDE: str | None = None


def default_lang() -> str:
    """``--lang`` wherever it was given, else ``zh`` when the locale says Chinese (ASCEND_DOCTOR_LANG,
    LC_ALL, LC_MESSAGES, LANG, LANGUAGE), else ``en``."""
    if LANG_OVERRIDE:
        return LANG_OVERRIDE
    for var in ("ASCEND_DOCTOR_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


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
    """Open the knowledge base, building it when needed; problems become one-line CLI errors."""
    from ascend_doctor.kb.build import KnowledgeError
    from ascend_doctor.kb.query import KnowledgeBase

    def warn(msg: str) -> None:
        sys.stderr.write(f"ascend-doctor: warning: {msg}\n")

    def notice() -> None:
        sys.stderr.write("ascend-doctor: building the knowledge base (first run, or the knowledge changed); "
                         "this takes a few seconds once\n")
        sys.stderr.flush()

    try:
        return KnowledgeBase(getattr(args, "kb", None), warn=warn, notice=notice,
                             force=bool(getattr(args, "force", False)))
    except KnowledgeError as exc:
        user = [i for i in exc.issues if "overlay" in i.file or not i.file.startswith("kb/")]
        err = CLIError(f"the knowledge files do not validate ({len(exc.issues)} problem(s)), first: {exc.issues[0]}; "
                       "run 'ascend-doctor kb validate' for all")
        if not user:
            err.exit_code = EXIT_INTERNAL
        raise err from exc
    except OSError as exc:
        from ascend_doctor.kb.paths import default_db_path

        where = getattr(args, "kb", None) or default_db_path()
        raise CLIError(f"cannot use the knowledge base at {where}: {exc.strerror or exc} "
                       "(set ASCEND_DOCTOR_KB or --kb to a writable file)") from exc
