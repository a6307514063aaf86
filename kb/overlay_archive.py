"""Knowledge bundles: a ``.tar.gz`` of overlay files, to carry knowledge to machines with no network.

``kb export`` writes one (``pack``): the overlay files in effect (the site's and the user's, or the ones
named), flat, each a regular file with mode 0644 and no owner name. ``kb import`` reads one (``unpack``)
without extracting anything to disk: every member is checked first, and the whole archive is refused when
one member is a link, a device or FIFO, a path outside the archive (absolute or with ``..``), in a sub-folder
deeper than one folder, not a ``.toml`` file with a plain name, not UTF-8, too large, or a duplicate. The
files are then validated as knowledge and installed all together or not at all (``overlay.import_files``).
"""
from __future__ import annotations

import io
import re
import tarfile
from pathlib import Path, PurePosixPath

MAX_FILES = 500
MAX_FILE = 16 * 1024 * 1024
MAX_TOTAL = 64 * 1024 * 1024
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.toml$")


class ArchiveError(Exception):
    """A knowledge bundle that cannot be imported. ``code`` names the reason (the CLI words it in English or
    Chinese), ``params`` the values for the sentence; ``str()`` is an English line."""

    TEXT = {
        "not_found": "no such file: {path}",
        "not_archive": "{path} is not a .tar.gz knowledge bundle ({why})",
        "link": "{member} is a link",
        "special": "{member} is not a regular file",
        "traversal": "{member} points outside the bundle (an absolute path or '..')",
        "nested": "{member} is deeper than one folder",
        "not_toml": "{member} is not a .toml knowledge file",
        "bad_name": "{member}: a file name is letters, digits, '.', '_' and '-', ending in .toml",
        "duplicate": "{member} is in the bundle twice",
        "too_big": "{member} is larger than {limit} bytes",
        "too_many": "the bundle holds more than {limit} files",
        "not_utf8": "{member} is not UTF-8 text",
        "empty": "{path} holds no .toml file",
    }

    def __init__(self, code: str, **params) -> None:
        self.code, self.params = code, params
        super().__init__(self.TEXT[code].format(**params))


def pack(files: list[Path]) -> bytes:
    """The ``.tar.gz`` of ``files`` (flat: each under its own name)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
        for path in files:
            data = path.read_bytes()
            info = tarfile.TarInfo(path.name)
            info.size, info.mode, info.mtime = len(data), 0o644, int(path.stat().st_mtime)
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def unpack(path: Path) -> dict[str, str]:
    """File name -> text of every knowledge file in the bundle at ``path``; ArchiveError for anything else."""
    if not path.is_file():
        raise ArchiveError("not_found", path=str(path))
    try:
        with tarfile.open(path, mode="r:gz") as tar:
            return _read(tar, path)
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise ArchiveError("not_archive", path=str(path), why=getattr(exc, "strerror", None) or str(exc) or
                           type(exc).__name__) from exc


def _read(tar: tarfile.TarFile, path: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    folders: set[str] = set()
    total = seen = 0
    for member in tar:                               # streamed: a huge archive is refused as it is read
        seen += 1
        if seen > 2 * MAX_FILES:                     # folders count too: no endless header stream
            raise ArchiveError("too_many", limit=MAX_FILES)
        name = member.name
        parts = PurePosixPath(name).parts
        if name.startswith("/") or ".." in parts or "\\" in name or any(ord(c) < 0x20 for c in name):
            raise ArchiveError("traversal", member=name)
        if member.issym() or member.islnk():
            raise ArchiveError("link", member=name)
        if member.isdir():
            if len(parts) > 1:
                raise ArchiveError("nested", member=name)
            continue
        if not member.isfile():
            raise ArchiveError("special", member=name)
        if len(parts) > 2:
            raise ArchiveError("nested", member=name)
        if len(parts) == 2:
            folders.add(parts[0])
            if len(folders) > 1:
                raise ArchiveError("nested", member=name)
        base = parts[-1]
        if not base.endswith(".toml"):
            raise ArchiveError("not_toml", member=name)
        if not NAME.match(base):
            raise ArchiveError("bad_name", member=name)
        if base in out:
            raise ArchiveError("duplicate", member=name)
        if len(out) >= MAX_FILES:
            raise ArchiveError("too_many", limit=MAX_FILES)
        if member.size > MAX_FILE:
            raise ArchiveError("too_big", member=name, limit=MAX_FILE)
        total += member.size
        if total > MAX_TOTAL:
            raise ArchiveError("too_big", member=name, limit=MAX_TOTAL)
        data = tar.extractfile(member).read(MAX_FILE + 1)
        try:
            out[base] = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ArchiveError("not_utf8", member=name) from exc
    if not out:
        raise ArchiveError("empty", path=str(path))
    return out
