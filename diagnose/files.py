"""Writing the files a command was asked for (reports, snapshots): whole or not at all.

The data goes to a temporary file beside the target, is flushed to disk, and only then takes the
target's name: a full disk leaves the old file as it was and raises, never "wrote ..." with half a
file. The rename replaces a symlink at the target instead of writing through it (and never changes
the mode of what it pointed to). A target that is a device, a FIFO or a socket (``-o /dev/null``, a
pipe a CI job reads) is written into, never renamed over: replacing /dev/null with a file as root
would break the machine. ``overwrite=False`` refuses an existing file (FileExistsError), atomically.
``-`` means standard output.
"""
from __future__ import annotations

import os
import stat
import sys
import tempfile


def write_file(path: str, data: str | bytes, *, mode: int = 0o644, overwrite: bool = True) -> None:
    if path == "-":
        sys.stdout.write(data if isinstance(data, str) else data.decode("utf-8", "replace"))
        sys.stdout.flush()
        return
    raw = data.encode("utf-8") if isinstance(data, str) else data
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise FileNotFoundError(2, f"directory does not exist: {parent}", path)
    if os.path.isdir(path):
        raise IsADirectoryError(21, "it is a directory", path)
    if not overwrite and os.path.lexists(path):
        raise FileExistsError(17, "it exists", path)
    try:
        kind = stat.S_IFMT(os.lstat(path).st_mode)
    except FileNotFoundError:
        kind = stat.S_IFREG
    if kind not in (stat.S_IFREG, stat.S_IFLNK):
        with open(path, "wb") as fh:        # a device or a pipe: written into, as a shell redirection would
            fh.write(raw)
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=parent)
    try:
        try:
            os.fchmod(fd, mode)
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        if overwrite:
            os.replace(tmp, path)
        else:
            os.link(tmp, path)          # fails with EEXIST if someone created it meanwhile
            os.unlink(tmp)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_error(path: str, exc: OSError, force_hint: str = "", lang: str = "en") -> str:
    """One line for a failed write."""
    return write_error_texts(path, exc, force_hint).get(lang) or write_error_texts(path, exc, force_hint)["en"]


def write_error_texts(path: str, exc: OSError, force_hint: str = "") -> dict[str, str]:
    """The line for a failed write in each language ({"en": ..., "zh": ...})."""
    from .services.errors import LABELS, message

    if isinstance(exc, FileExistsError) and force_hint:
        return {lang: message("exists", lang, path=path, hint=force_hint) for lang in LABELS}
    return {lang: message("cannot_write", lang, path=path, reason=exc.strerror or exc) for lang in LABELS}
