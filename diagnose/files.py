"""Writing the files a command was asked for (reports, snapshots): whole or not at all.

The data goes to a temporary file beside the target, is flushed to disk, and only then takes the
target's name: a full disk leaves the old file as it was and raises, never "wrote ..." with half a
file. The rename replaces a symlink at the target instead of writing through it (and never changes
the mode of what it pointed to). ``overwrite=False`` refuses an existing file (FileExistsError),
atomically. ``-`` means standard output.
"""
from __future__ import annotations

import os
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


def write_error(path: str, exc: OSError, force_hint: str = "") -> str:
    """One line for a failed write."""
    if isinstance(exc, FileExistsError) and force_hint:
        return f"{path} exists; choose another name or add {force_hint} to replace it"
    return f"cannot write {path}: {exc.strerror or exc}; nothing was changed"
