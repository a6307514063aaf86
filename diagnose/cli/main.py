"""The ``ascend-doctor`` command line.

Subcommands are modules in ``ascend_doctor.diagnose.cli.commands`` (one per command), found at
start-up without importing anything heavy: each module defines NAME, HELP, add_arguments(parser)
and run(args) -> exit code, and imports what it needs inside run().
"""
from __future__ import annotations

import argparse
import errno
import importlib
import os
import pkgutil
import signal
import sys

from . import commands as commands_pkg
from .options import Parser
from ..services.errors import EXIT_INTERNAL, EXIT_USAGE, DoctorError



def _take_lang(argv: list[str]) -> tuple[list[str], str | None]:
    """``--lang en|zh`` anywhere on the line (before or after the subcommand, for every command) ->
    (argv without it, the language). The value of an option such as --text is left alone."""
    out, lang, i = [], None, 0
    while i < len(argv):
        a = argv[i]
        if (a == "--lang" or a.startswith("--lang=")) and not (out and out[-1] in ("--text", "-o", "--output")):
            value = a.split("=", 1)[1] if "=" in a else (argv[i + 1] if i + 1 < len(argv) else "")
            if value not in ("en", "zh"):
                raise DoctorError(key="lang", value=value)
            lang = value
            i += 1 if "=" in a else 2
            continue
        out.append(a)
        i += 1
    return out, lang


def _command_modules():
    for info in sorted(pkgutil.iter_modules(commands_pkg.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            yield importlib.import_module(f"{commands_pkg.__name__}.{info.name}")


def build_parser() -> argparse.ArgumentParser:
    from ascend_doctor import __version__

    parser = Parser(prog="ascend-doctor",
                     description="Troubleshooting knowledge base and diagnostic assistant for Ascend NPU machines.")
    parser.add_argument("--version", action="version", version=f"ascend-doctor {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return parser


def _lang() -> str:
    from .options import default_lang

    return default_lang()


def _print_error(error: DoctorError | str) -> None:
    """One line in the user's language, no markup interpretation, never a traceback."""
    from ..render.console import visible
    from ..services.errors import message

    lang = _lang()
    text = error.text(lang) if isinstance(error, DoctorError) else str(error)
    line = " ".join(visible(" ".join(text.split())).split())
    sys.stderr.write(f"{line}\n" if line.startswith("ascend-doctor") else f"{message('prefix', lang)}{line}\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    debug = "--debug" in argv or bool(os.environ.get("ASCEND_DOCTOR_DEBUG"))
    # --debug is accepted anywhere, before or after the subcommand, as every error line suggests it
    argv = [a for a in argv if a != "--debug"]
    _reopen_closed_streams()
    previous = _on_termination()
    from . import options

    options.LANG_OVERRIDE = None
    try:
        argv, options.LANG_OVERRIDE = _take_lang(argv)
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "_run", None):
            parser.print_help()
            return EXIT_USAGE
        code = int(args._run(args) or 0)
        sys.stdout.flush()
        return code
    except DoctorError as exc:
        _print_error(exc)
        return exc.exit_code
    except KeyboardInterrupt:
        # kill the commands still running (a hung npu-smi) now: the probe threads would otherwise keep
        # the interpreter alive until their time-out
        from ..system.real import terminate_children

        terminate_children()
        from ..services.errors import message

        sys.stderr.write(f"ascend-doctor: {message('interrupted', _lang())}\n")
        return 130
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except SystemExit as exc:
        if exc.code == 128 + signal.SIGTERM:
            sys.stderr.write("ascend-doctor: terminated\n")
        raise
    except RecursionError:
        _print_error(DoctorError(key="nested"))
        return EXIT_USAGE
    except OSError as exc:
        if exc.errno not in _OUTPUT_ERRNOS:
            return _internal(exc, debug)
        _print_error(DoctorError(key="output", reason=exc.strerror or str(exc)))
        return EXIT_USAGE
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, exit 3
        return _internal(exc, debug)
    finally:
        for signum, handler in (previous or {}).items():
            signal.signal(signum, handler)


def _on_termination():
    """SIGTERM (a CI job cancelled, ``timeout``, systemd) and SIGINT (ctrl+c) kill the commands
    ascend-doctor started at once, so no hung npu-smi outlives it and the probe threads waiting on it
    return; then SIGTERM exits with 143 and SIGINT goes on as KeyboardInterrupt (130). Returns the
    previous handlers."""
    def handler(signum, _frame):
        from ..system.real import terminate_children

        terminate_children()
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise SystemExit(128 + signum)
    previous = {}
    try:
        for signum in (signal.SIGTERM, signal.SIGINT):
            if signal.getsignal(signum) is not signal.SIG_IGN:    # nohup / a background job: leave it ignored
                previous[signum] = signal.signal(signum, handler)
    except ValueError:  # not the main thread (an embedding program): leave its handling alone
        return {}
    return previous


#: errors of a full or broken output (``> /dev/full``, a full disk, a quota): the user's setting, exit 2
_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EBADF}


def _reopen_closed_streams() -> None:
    """A closed output stream (``>&-``) is None in Python: write nowhere instead of an AttributeError
    deep inside a command. A closed standard input stays None: the commands that read it say so."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")


def _internal(exc: BaseException, debug: bool) -> int:
    """One line and exit 3 (called inside the ``except`` block, so --debug prints the traceback)."""
    if debug:
        import traceback

        traceback.print_exc()
    _print_error(DoctorError(key="internal", error=f"{type(exc).__name__}: {exc}"))
    return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
