"""Opening the knowledge base for a service: built on first use and whenever the knowledge changed."""
from __future__ import annotations

import sys
from typing import Callable

from .errors import DoctorError, InternalError


def _warn(msg: str) -> None:
    sys.stderr.write(f"ascend-doctor: warning: {msg}\n")


def _notice() -> None:
    sys.stderr.write("ascend-doctor: building the knowledge base (first run, or the knowledge changed); "
                     "this takes a few seconds once\n")
    sys.stderr.flush()


def open_kb(path: str | None = None, *, force: bool = False, warn: Callable[[str], None] = _warn,
            notice: Callable[[], None] = _notice):
    """The KnowledgeBase at ``path`` (default: $ASCEND_DOCTOR_KB or the user cache). Knowledge that does
    not validate is a DoctorError (an internal one when only the shipped files are at fault)."""
    from ascend_doctor.kb.build import ForeignFileRefused, KnowledgeError
    from ascend_doctor.kb.query import KnowledgeBase

    try:
        return KnowledgeBase(path, warn=warn, notice=notice, force=force)
    except KnowledgeError as exc:
        user = [i for i in exc.issues if "overlay" in i.file or not i.file.startswith("kb/")]
        message = (f"the knowledge files do not validate ({len(exc.issues)} problem(s)), first: {exc.issues[0]}; "
                   "run 'ascend-doctor kb validate' for all")
        raise (DoctorError if user else InternalError)(message) from exc
    except ForeignFileRefused as exc:
        raise DoctorError(str(exc)) from exc
    except OSError as exc:
        from ascend_doctor.kb.paths import default_db_path

        where = path or default_db_path()
        raise DoctorError(f"cannot use the knowledge base at {where}: {exc.strerror or exc} "
                          "(set ASCEND_DOCTOR_KB or --kb to a writable file)") from exc


def compat_provider(path: str | None = None, warn: Callable[[str], None] = _warn):
    """``KnowledgeBase.compat`` of the knowledge base, or None (with a warning) when it cannot be opened:
    the check still runs, and rules that read compatibility matrices report ERROR."""
    try:
        kb = open_kb(path, warn=warn)
    except DoctorError as exc:
        warn(f"{exc}; rules that read compatibility matrices report ERROR")
        return None
    return kb.compat
