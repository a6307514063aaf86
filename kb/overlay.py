"""User overlays: a site's own problems and codes (``kb add``), imports (``kb import-faultdiag``) and
knowledge bundles (``kb import``, all files or none: ``import_files``).

Overlay files live in :func:`ascend_doctor.kb.paths.overlay_dir`; the builder includes them in the
content hash, so the knowledge base is rebuilt on the next command. A file is validated exactly
like the built-in knowledge (together with it and the other overlays, so duplicate ids and links
to missing problems are caught) before it is copied in; nothing is written when it does not
validate.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .build import file_lock, overlay_files
from .loader import Issue, load
from .paths import KNOWLEDGE_DIR, overlay_dir
from .regex_safety import unsafe_signature_issues

#: file names the importers own (the loader marks their entries with origin "faultdiag")
RESERVED_PREFIXES = ("faultdiag",)


class OverlayError(Exception):
    """The overlay cannot be added (one line for the CLI)."""


def validate(path: Path, knowledge_dir: Path = KNOWLEDGE_DIR, name: str | None = None) -> list[Issue]:
    """Issues in ``path`` when it is loaded as overlay ``name`` beside the built-in knowledge and
    the other overlays (an overlay of the same name is replaced, not counted twice)."""
    name = name or path.name
    others = [p for p in overlay_files() if p.name != name]
    with tempfile.TemporaryDirectory(prefix="ascend-doctor-overlay-") as tmp:
        probe = Path(tmp) / name
        shutil.copyfile(path, probe)
        kn, issues = load(knowledge_dir, [*others, probe], root_for_display=Path(tmp))
        mine = [i for i in issues if i.file == name]
        if not mine:
            mine = unsafe_signature_issues(kn.problems, {name})
    return [Issue(str(path), i.line, i.message) for i in mine]


def install(text_or_path: str | bytes | Path, name: str, directory: Path | None = None) -> Path:
    """Write an overlay file atomically into the overlay directory; returns its path."""
    d = directory or overlay_dir()
    d.mkdir(parents=True, exist_ok=True)
    target = d / name
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=d)
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(text_or_path, Path):
                fh.write(text_or_path.read_bytes())
            elif isinstance(text_or_path, bytes):
                fh.write(text_or_path)
            else:
                fh.write(text_or_path.encode("utf-8"))
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def add(path: Path, knowledge_dir: Path = KNOWLEDGE_DIR) -> tuple[Path, list[Issue]]:
    """Validate ``path`` and copy it into the overlay directory. Returns (target, issues); when
    there are issues nothing is written."""
    if not path.is_file():
        raise OverlayError(f"no such file: {path}")
    if path.suffix != ".toml":
        raise OverlayError(f"{path} is not a .toml knowledge file")
    if path.name.startswith(RESERVED_PREFIXES):
        raise OverlayError(f"file names starting with {', '.join(RESERVED_PREFIXES)} are kept for "
                           f"'kb import-faultdiag'; rename {path.name}")
    with overlay_lock():
        # validate and install under one lock: two concurrent 'kb add' of the same id cannot both pass
        issues = validate(path, knowledge_dir)
        if issues:
            return overlay_dir() / path.name, issues
        return install(path, path.name), []


def overlay_lock():
    """Serialise changes to the overlay directory between processes."""
    d = overlay_dir()
    d.mkdir(parents=True, exist_ok=True)
    return file_lock(d / ".lock")


def remove(name: str) -> Path:
    target = overlay_dir() / name
    if not name.endswith(".toml") or "/" in name or not target.is_file():
        raise OverlayError(f"no overlay named {name!r} in {overlay_dir()}")
    with overlay_lock():
        target.unlink()
    return target


def validate_many(texts: dict[str, str], knowledge_dir: Path = KNOWLEDGE_DIR) -> list[Issue]:
    """Issues in the files ``texts`` (name -> text) loaded together as overlays beside the built-in
    knowledge and the other overlays (one of the same name is replaced); file names as given."""
    others = [p for p in overlay_files() if p.name not in texts]
    with tempfile.TemporaryDirectory(prefix="ascend-doctor-import-") as tmp:
        probes = []
        for name, text in texts.items():
            probe = Path(tmp) / name
            probe.write_text(text, encoding="utf-8")
            probes.append(probe)
        kn, issues = load(knowledge_dir, [*others, *probes], root_for_display=Path(tmp))
        mine = [i for i in issues if i.file in texts]
        if not mine:
            mine = unsafe_signature_issues(kn.problems, set(texts))
    return mine


def import_files(texts: dict[str, str], knowledge_dir: Path = KNOWLEDGE_DIR) -> tuple[list[Path], list[str], list[Issue]]:
    """Validate ``texts`` (name -> text) together, then install every one into the user's overlay
    directory, all or nothing: a file that cannot be written puts back the ones already written. Returns
    (installed paths, names that replaced a user overlay, issues); nothing is written when there are issues."""
    with overlay_lock():
        issues = validate_many(texts, knowledge_dir)
        if issues:
            return [], [], issues
        d = overlay_dir()
        before = {name: (d / name).read_bytes() for name in texts if (d / name).is_file()}
        done: list[Path] = []
        try:
            for name, text in sorted(texts.items()):
                done.append(install(text, name, d))
        except BaseException:
            for path in done:
                if path.name in before:
                    install(before[path.name], path.name, d)
                else:
                    path.unlink(missing_ok=True)
            raise
        return done, sorted(before), []
