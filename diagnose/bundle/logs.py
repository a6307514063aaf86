"""The newest log files of the machine, within a size limit.

Three places, each a category: the host's slog (``/var/log/npu/slog``: the driver's host logs, and on RC
products such as the 200I DK A2 every log), the application logs (``$ASCEND_PROCESS_LOG_PATH``, else
``~/ascend/log``: plog, device-<id>, run, security) and the newest ``msnpureport`` export (a time-named
folder under ``/var/log/npu/report``, where Huawei's guide runs the tool, or folders given by the user).
Files are taken newest first, one category after the other in turn, so a huge plog folder cannot crowd out
the driver's logs; a file larger than its share keeps its last bytes (the newest lines). Links are never
followed below a root, FIFOs and devices never opened, binary files (core dumps, compressed rotations)
left out, the ``stackcore`` folder of an export (process memory) never read.
"""
from __future__ import annotations

import posixpath
import re
import time
from dataclasses import dataclass

from ..system import System
from .model import Entry, skipped
from .redact import Redactor

HOST_SLOG = "/var/log/npu/slog"
REPORT_DIR = "/var/log/npu/report"
CATEGORIES = ("host", "app", "export")
MAX_DEPTH = 8
MAX_FILES = 5000            # files looked at per root; more are listed as too many
MIN_PIECE = 4096            # a file is cut to no less than this
SHARE = 4                   # one file takes at most 1/SHARE of the limit
_EXPORT_NAME = re.compile(r"^\d{14}$")      # msnpureport names its export folder by the time: 20250612101500


@dataclass(frozen=True)
class Found:
    category: str
    path: str
    size: int
    mtime: float


def _error_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "missing"
    if isinstance(exc, PermissionError):
        return "denied"
    if getattr(exc, "errno", None) == 40:                   # ELOOP: a link where a file was expected
        return "link"
    return "not_regular"


def app_log_root(system: System) -> str | None:
    env = system.env()
    if env.get("ASCEND_PROCESS_LOG_PATH"):
        return env["ASCEND_PROCESS_LOG_PATH"]
    home = env.get("HOME")
    if not home:
        ident = system.identity()
        home = "/root" if ident.uid == 0 else _passwd_home(system, ident.user)
    return posixpath.join(home, "ascend", "log") if home else None


def _passwd_home(system: System, user: str) -> str | None:
    try:
        text = system.read_file("/etc/passwd").decode("utf-8", "replace")
    except OSError:
        return None
    for line in text.splitlines():
        parts = line.split(":")
        if len(parts) >= 6 and parts[0] == user:
            return parts[5] or None
    return None


def export_folder(system: System, path: str) -> str | None:
    """The newest msnpureport export at ``path``: ``path`` itself when it is one, else its newest
    time-named sub-folder; None when there is none."""
    try:
        names = system.list_dir(path)
    except OSError:
        return None
    exports = sorted(n for n in names if _EXPORT_NAME.match(n))
    if exports:
        return posixpath.join(path, exports[-1])
    return path if {"slog", "hisi_logs", "message", "stackcore"} & set(names) else None


def roots(system: System, exports: tuple[str, ...] = ()) -> tuple[list[tuple[str, str]], list[Entry]]:
    """[(category, folder)] to look in, and entries for the places that are not there."""
    out = [("host", HOST_SLOG)]
    notes: list[Entry] = []
    app = app_log_root(system)
    if app:
        out.append(("app", app))
    else:
        notes.append(skipped("log", "~/ascend/log", "missing", "no HOME and no ASCEND_PROCESS_LOG_PATH"))
    for place in (REPORT_DIR, *exports):
        folder = export_folder(system, place)
        if folder:
            out.append(("export", folder))
        elif place != REPORT_DIR:
            notes.append(skipped("log", place, "missing", "not an msnpureport export folder, nor a folder of them"))
    return out, notes


def walk(system: System, category: str, root: str) -> tuple[list[Found], list[Entry]]:
    """Every regular file under ``root`` (links below it never followed), and what was left out."""
    found: list[Found] = []
    notes: list[Entry] = []
    try:
        system.list_dir(root)
    except OSError as exc:
        if not isinstance(exc, FileNotFoundError) or category != "export":
            notes.append(skipped("log", root, _error_reason(exc), exc.strerror or str(exc)))
        return found, notes
    stack = [(root, 0)]
    while stack:
        folder, depth = stack.pop()
        try:
            names = system.list_dir(folder)
        except OSError as exc:
            notes.append(skipped("log", folder, _error_reason(exc), exc.strerror or str(exc)))
            continue
        for name in names:
            path = posixpath.join(folder, name)
            try:
                st = system.lstat(path)
            except OSError as exc:
                notes.append(skipped("log", path, _error_reason(exc), exc.strerror or str(exc)))
                continue
            if st.kind == "dir":
                if name == "stackcore":
                    notes.append(skipped("log", path, "core_dump", "core dumps hold process memory: not collected"))
                elif depth + 1 < MAX_DEPTH:
                    stack.append((path, depth + 1))
            elif st.kind == "link":
                notes.append(skipped("log", path, "link", "symbolic link: not followed"))
            elif st.kind != "file":
                notes.append(skipped("log", path, "not_regular", f"a {st.kind}, not a file"))
            elif len(found) >= MAX_FILES:
                notes.append(skipped("log", path, "too_many", f"more than {MAX_FILES} files under {root}"))
            else:
                found.append(Found(category, path, st.size, st.mtime))
    return found, notes


def newest_in_turn(found: list[Found]) -> list[Found]:
    """Newest first within each category, the categories taking turns."""
    queues = {c: sorted((f for f in found if f.category == c), key=lambda f: (-f.mtime, f.path)) for c in CATEGORIES}
    out: list[Found] = []
    while any(queues.values()):
        for c in CATEGORIES:
            if queues[c]:
                out.append(queues[c].pop(0))
    return out


def _iso(mtime: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(mtime)) if mtime else ""


def read_piece(system: System, f: Found, want: int, redactor: Redactor) -> Entry:
    info = {"category": f.category, "mtime": _iso(f.mtime)}
    try:
        data = system.read_tail(f.path, want)
    except OSError as exc:
        return skipped("log", f.path, _error_reason(exc), exc.strerror or str(exc), **info)
    if b"\x00" in data[:8192]:
        return skipped("log", f.path, "binary", "binary data (a core dump or a compressed file)", **info)
    truncated = want < f.size
    if truncated and b"\n" in data[:-1]:
        data = data[data.index(b"\n") + 1:]                  # start at a whole line
    text, counts = redactor.redact(data.decode("utf-8", "replace"))
    return Entry(kind="log", source=f.path, name="logs/" + f.path.lstrip("/"), data=text.encode("utf-8"),
                 original_size=f.size, truncated=truncated, redactions=counts, info=info)


def collect(system: System, limit: int, redactor: Redactor, exports: tuple[str, ...] = ()) -> list[Entry]:
    places, entries = roots(system, exports)
    found: list[Found] = []
    for category, root in places:
        files, notes = walk(system, category, root)
        found += files
        entries += notes
    left = limit
    per_file = max(MIN_PIECE, limit // SHARE)
    for f in newest_in_turn(found):
        if f.size == 0:
            entries.append(skipped("log", f.path, "empty", category=f.category, mtime=_iso(f.mtime)))
            continue
        want = min(f.size, per_file, left)
        if want < min(f.size, MIN_PIECE):
            entries.append(skipped("log", f.path, "size_limit", f"the {limit} bytes for logs are used up",
                                   category=f.category, mtime=_iso(f.mtime), original_size=f.size))
            continue
        entry = read_piece(system, f, want, redactor)
        if entry.kept:
            left -= want
        entries.append(entry)
    return entries
