"""What probes share: the context they run in and small helpers that turn System answers into facts.

A probe is a function ``probe(ctx) -> list[Fact]``. It is read-only, talks to the machine only through
``ctx.system`` and never raises for anything the machine does: a missing file, a denied read, a hung
command all become facts with that status.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ascend_doctor.kb.language.facts import DENIED, ERROR, MISSING, OK, TIMEOUT, UNPARSED, Fact
from ..system import CommandResult, System, decode

__all__ = ["ProbeContext", "Fact", "OK", "MISSING", "DENIED", "TIMEOUT", "ERROR", "UNPARSED", "ok", "bad",
           "read_text", "command_status", "same_status"]


@dataclass
class ProbeContext:
    system: System
    python: str | None = None        # target interpreter (None: the one the System suggests)
    timeout: float = 10.0            # per command, seconds


def ok(key: str, value: Any, source: str, detail: str = "") -> Fact:
    return Fact(key=key, value=value, status=OK, source=source, detail=detail)


def bad(key: str, status: str, source: str, detail: str) -> Fact:
    return Fact(key=key, value=None, status=status, source=source, detail=detail)


def same_status(key: str, other: Fact) -> Fact:
    """A fact that could not be observed because ``other`` was not: same status, same source."""
    return Fact(key=key, value=None, status=other.status, source=other.source,
                detail=other.detail or f"{other.key} is {other.status}")


def read_text(system: System, path: str) -> tuple[str | None, str, str]:
    """(text, status, detail) for a file; status is ok / missing / denied / error."""
    try:
        data = system.read_file(path)
    except FileNotFoundError:
        return None, MISSING, f"{path} does not exist"
    except PermissionError:
        return None, DENIED, f"permission denied reading {path}"
    except IsADirectoryError:
        return None, ERROR, f"{path} is a directory"
    except OSError as exc:
        return None, ERROR, f"cannot read {path}: {exc.strerror or exc}"
    text, bad_bytes = decode(data)
    return text, OK, ("not valid UTF-8; undecodable bytes replaced" if bad_bytes else "")


#: how much of a failing command's output a fact's detail quotes
MAX_QUOTE = 300


def command_status(result: CommandResult) -> tuple[str, str]:
    """(status, detail) of a finished command: ok only when it ran and exited 0. The detail names
    the command by the first line of each argument (an inline script is not repeated) and quotes at
    most ``MAX_QUOTE`` characters of its output."""
    cmd = " ".join(a.split("\n", 1)[0] for a in result.argv)
    if result.timed_out:
        return TIMEOUT, f"'{cmd}': {result.error or 'no answer within its time-out'}"
    if result.not_found:
        return MISSING, result.error or f"{result.argv[0]} not found"
    if result.denied:
        return DENIED, result.error
    if result.exit_code is None:
        return ERROR, result.error or f"'{cmd}' could not be run"
    if result.exit_code != 0:
        first = next((ln.strip() for ln in result.output[:64 * 1024].splitlines() if ln.strip()), "")
        if len(first) > MAX_QUOTE:
            first = first[:MAX_QUOTE] + " ..."
        how = result.error or f"exit code {result.exit_code}"
        return ERROR, f"'{cmd}' failed ({how})" + (f": {first}" if first else "")
    return OK, ""
