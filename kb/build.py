"""Compile the knowledge files into the SQLite knowledge base.

The database is rebuilt whenever the content hash of the knowledge files (built-in and user
overlays) or the schema version changes. It is written to a temporary file beside the target and
renamed into place, so a reader never sees a half-written database; concurrent builders serialise
on a lock file and the later ones find the database already fresh.

What can go wrong around it never costs the user the knowledge base:
- a corrupt or foreign file in our own cache, or one of our databases damaged anywhere (also in the
  middle, found by SQLite's quick_check), is kept aside as ``NAME.bad-N`` and rebuilt; a path the user
  named (``--kb``, ``ASCEND_DOCTOR_KB``) that holds anything else (their own SQLite database, a typo'd
  file) is refused and left as it is (ForeignFileRefused);
- a user overlay that does not validate (bad TOML, a duplicate id, a regex that backtracks
  catastrophically) is left out with a warning, never the whole knowledge base;
- when the default cache cannot be written (no home directory, a read-only home), the database is
  built in a private per-user directory under the system temporary directory instead, with a warning.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import sqlite3
import stat
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from . import codes as codes_mod
from .loader import Issue, knowledge_files, load
from .model import Knowledge
from .paths import KNOWLEDGE_DIR, cache_base, overlay_dir, site_overlay_dir
from .dbmeta import APPLICATION, SCHEMA_VERSION
from .text import Normalizer


class KnowledgeError(Exception):
    """The knowledge files do not validate; ``issues`` lists every problem found."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        first = issues[0] if issues else "unknown"
        super().__init__(f"{len(issues)} problem(s) in the knowledge files, first: {first}")


class ForeignDatabase(Exception):
    """The file at the KB path is not an ascend-doctor knowledge base (``ours``: it is one, damaged)."""

    def __init__(self, message: str, ours: bool = False):
        super().__init__(message)
        self.ours = ours


class ForeignFileRefused(OSError):
    """A path the user named (--kb, ASCEND_DOCTOR_KB) holds a file that is not ours: it is left alone."""


def overlay_files(directory: Path | None = None) -> list[Path]:
    """The overlay knowledge files: those of ``directory``, or else the site's
    (``/etc/ascend-doctor/knowledge.d``) and the user's (``kb add``); a user file of the same name as a
    site file replaces it."""
    if directory is not None:
        return sorted(directory.glob("*.toml")) if directory.is_dir() else []
    by_name: dict[str, Path] = {}
    for d in (site_overlay_dir(), overlay_dir()):
        try:
            if d.is_dir():
                by_name.update({p.name: p for p in d.glob("*.toml")})
        except OSError:                      # an unreadable site directory is no knowledge, not an error
            continue
    return [by_name[n] for n in sorted(by_name)]


def content_hash(knowledge_dir: Path = KNOWLEDGE_DIR, overlays: list[Path] | None = None) -> str:
    """SHA-256 over the schema version, every knowledge file's name and bytes, and the overlays."""
    h = hashlib.sha256(f"schema={SCHEMA_VERSION}\n".encode())
    for path in knowledge_files(knowledge_dir):
        h.update(f"{path.parent.name}/{path.name}\n".encode())
        h.update(path.read_bytes())
    for path in overlays if overlays is not None else overlay_files():
        h.update(f"overlay/{path.name}\n".encode())
        try:
            h.update(path.read_bytes())
        except OSError:
            pass
    return h.hexdigest()


def read_meta(db_path: Path) -> dict[str, str]:
    """Meta of an existing database. Raises ForeignDatabase for a corrupt or foreign file."""
    try:
        con = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise ForeignDatabase(f"cannot open {db_path}: {exc}") from exc
    try:
        try:
            meta = dict(con.execute("SELECT key, value FROM kb_meta").fetchall())
        except sqlite3.DatabaseError as exc:
            raise ForeignDatabase(f"{db_path} is not an ascend-doctor knowledge base ({exc})") from exc
        if meta.get("application") != APPLICATION:
            raise ForeignDatabase(f"{db_path} is not an ascend-doctor knowledge base (no application marker)")
        # damage in the middle of the file leaves kb_meta readable: a few ms of quick_check find it
        try:
            check = con.execute("PRAGMA quick_check(1)").fetchone()
        except sqlite3.DatabaseError as exc:
            check = (str(exc),)
        if not check or check[0] != "ok":
            raise ForeignDatabase(f"{db_path} is a damaged ascend-doctor knowledge base "
                                  f"({check[0] if check else 'no answer'})", ours=True)
    finally:
        con.close()
    return meta


@contextmanager
def file_lock(lock_path: Path) -> Iterator[None]:
    """An exclusive advisory lock between processes, held on ``lock_path`` (created when missing)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - non-POSIX
        yield
        return
    with open(lock_path, "a+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _build_lock(db_path: Path):
    return file_lock(db_path.with_name(db_path.name + ".lock"))


def compile_knowledge(kn: Knowledge, db_path: Path, digest: str) -> None:
    """Write ``kn`` into a new SQLite file at ``db_path`` (replacing it atomically)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.orm import Session

    from .schema import (Base, CodeProblemRow, CodeRow, CompatRowModel, FamilyRow, Meta, ProblemCodeRow,
                         ProblemRow, SignatureRow, SymptomRow, SynonymRow)

    db_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=db_path.name + ".", suffix=".tmp", dir=db_path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        engine = create_engine(f"sqlite:///{tmp}")
        Base.metadata.create_all(engine)
        problem_ids = {p.id for p in kn.problems}
        with Session(engine) as s:
            s.add_all([
                Meta(key="application", value=APPLICATION),
                Meta(key="schema_version", value=str(SCHEMA_VERSION)),
                Meta(key="content_hash", value=digest),
            ])
            for f in kn.families:
                s.merge(FamilyRow(kind=f.kind, name=f.name, title_en=f.title["en"], title_zh=f.title["zh"], key=f.key))
            for p in kn.problems:
                row = ProblemRow(
                    id=p.id, family=p.family, origin=p.origin, severity=p.severity,
                    title_en=p.title["en"], title_zh=p.title["zh"], summary_en=p.summary["en"],
                    summary_zh=p.summary["zh"], root_cause_en=p.root_cause["en"], root_cause_zh=p.root_cause["zh"],
                    hardware=p.hardware, components=p.components, versions=p.versions, related=p.related,
                    confirm_when=p.confirm_when, rule_out_when=p.rule_out_when,
                    fixes=[{"kind": f.kind, "summary": f.summary,
                            "steps": [{"en": st.en, "zh": st.zh, "command": st.command} for st in f.steps]}
                           for f in p.fixes],
                    sources=p.sources, file=p.file, stalls=p.stalls, silent=p.silent,
                )
                row.symptoms = [SymptomRow(lang=lang, text=t) for lang, items in p.symptoms.items() for t in items]
                row.signatures = [SignatureRow(literal=g.literal, regex=g.regex, weight=g.weight) for g in p.signatures]
                s.add(row)
                for c in sorted(set(p.codes)):
                    s.add(ProblemCodeRow(problem_id=p.id, code=c))
            s.flush()
            for c in kn.codes:
                row = CodeRow(
                    code=c.code, family=c.family, is_pattern=int(codes_mod.is_pattern(c.code)), origin=c.origin,
                    name=c.name, meaning_en=c.meaning["en"], meaning_zh=c.meaning["zh"],
                    causes_en=c.causes["en"], causes_zh=c.causes["zh"],
                    action_en=(c.action or {}).get("en", ""), action_zh=(c.action or {}).get("zh", ""),
                    level=c.level, generic=int(c.generic), sources=c.sources, file=c.file,
                )
                s.add(row)
                s.flush()
                for pid in sorted(set(c.problems) & problem_ids):
                    s.add(CodeProblemRow(code_id=row.id, problem_id=pid))
            matrices = {f.name: f.key for f in kn.families if f.kind == "compat"}
            for r in kn.compat:
                key = matrices.get(r.matrix, "")
                kv = r.data.get(key, "")
                s.add(CompatRowModel(matrix=r.matrix, key_value=kv if isinstance(kv, str) else ",".join(kv),
                                     data=r.data, source=r.source))
            for group in kn.synonyms:
                for w in group:
                    s.merge(SynonymRow(word=w.lower(), canonical=group[0].lower()))
            s.commit()
        normalizer = Normalizer(kn.synonyms)
        with engine.begin() as con:
            con.execute(text(
                "CREATE VIRTUAL TABLE search_fts USING fts5("
                "kind UNINDEXED, ref UNINDEXED, title_en UNINDEXED, title_zh UNINDEXED, title_norm UNINDEXED, body, norm, "
                "tokenize='trigram')"))
            insert = text("INSERT INTO search_fts(kind, ref, title_en, title_zh, title_norm, body, norm) "
                          "VALUES (:k, :r, :te, :tz, :tn, :b, :n)")
            for p in kn.problems:
                body = "\n".join([p.id, p.title["en"], p.title["zh"], p.summary["en"], p.summary["zh"],
                                   *p.symptoms.get("en", []), *p.symptoms.get("zh", []), " ".join(p.codes),
                                   " ".join(p.components)])
                con.execute(insert, {"k": "problem", "r": p.id, "te": p.title["en"], "tz": p.title["zh"],
                                     "tn": normalizer.normalize(f"{p.title['en']} {p.title['zh']}"),
                                     "b": body, "n": normalizer.normalize(body)})
            for c in kn.codes:
                body = "\n".join([c.code, c.name, c.family, c.meaning["en"], c.meaning["zh"]])
                title = f"{c.code} {c.name} {c.meaning['en']}".strip()
                con.execute(insert, {"k": "code", "r": f"{c.family}:{c.code}", "te": title,
                                     "tz": f"{c.code} {c.name} {c.meaning['zh']}".strip(),
                                     "tn": normalizer.normalize(f"{title} {c.meaning['zh']}"),
                                     "b": body, "n": normalizer.normalize(body)})
        engine.dispose()
        os.chmod(tmp, 0o644)
        os.replace(tmp, db_path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _move_aside(db_path: Path) -> Path:
    """Keep a foreign or corrupt file instead of deleting it (nothing of the user's is lost)."""
    for i in range(1000):
        target = db_path.with_name(f"{db_path.name}.bad-{i}")
        if not target.exists():
            os.replace(db_path, target)
            return target
    raise OSError(f"cannot move {db_path} aside")  # pragma: no cover


#: a build that takes longer than this says so once on stderr (through ``notice``)
NOTICE_AFTER = 1.0


def ensure_built(db_path: Path, knowledge_dir: Path = KNOWLEDGE_DIR, overlays: list[Path] | None = None,
                 warn=None, notice=None, fallback: bool = False, force: bool = False) -> Path:
    """Make sure ``db_path`` holds a fresh knowledge base; build it if missing, stale, foreign or corrupt.
    Returns the path of the database to open (``db_path``, or the fallback below).

    ``warn`` is called with a one-line message when an existing file had to be replaced, an overlay
    was left out or the fallback is used; ``notice`` once when a build takes longer than a moment.
    ``fallback``: ``db_path`` is the default cache, so when it cannot be written the database is
    built in a private directory under the system temporary directory instead. ``force`` rebuilds
    even a fresh database.
    """
    overlays = overlay_files() if overlays is None else overlays
    digest = content_hash(knowledge_dir, overlays)
    if not force and _is_fresh(db_path, digest, warn=None):
        return db_path
    if fallback and not cache_base().is_dir():
        # never create a home directory that does not exist (HOME=/nonexistent under a service account)
        return _build_in_fallback(OSError(f"{cache_base()} does not exist"), db_path, knowledge_dir, overlays,
                                  digest, warn, notice, force)
    try:
        return _build_at(db_path, knowledge_dir, overlays, digest, warn, notice, force, owned=fallback)
    except ForeignFileRefused:
        raise
    except OSError as exc:
        if not fallback:
            raise
        return _build_in_fallback(exc, db_path, knowledge_dir, overlays, digest, warn, notice, force)


def _build_at(db_path: Path, knowledge_dir: Path, overlays: list[Path], digest: str, warn, notice,
              force: bool, owned: bool = True) -> Path:
    """Build at ``db_path``. ``owned``: the path is our cache; a path the user named that holds a file
    that is not ours (another program's database, any other file) is refused, never moved or replaced."""
    if not owned and db_path.exists():
        try:
            read_meta(db_path)
        except ForeignDatabase as exc:
            if not exc.ours:
                raise ForeignFileRefused(f"{exc}; it is left as it is: give --kb a new file name or one "
                                         "ascend-doctor made") from exc
    db_path.parent.mkdir(parents=True, exist_ok=True)
    with _build_lock(db_path):
        if not force and _is_fresh(db_path, digest, warn=warn, move_bad=True):
            return db_path
        timer = threading.Timer(NOTICE_AFTER, notice) if notice else None
        if timer:
            timer.daemon = True
            timer.start()
        try:
            kn = load_usable(knowledge_dir, overlays, warn)
            compile_knowledge(kn, db_path, digest)
        finally:
            if timer:
                timer.cancel()
    return db_path


def _build_in_fallback(cause: OSError, db_path: Path, knowledge_dir: Path, overlays: list[Path], digest: str,
                       warn, notice, force: bool) -> Path:
    directory = private_temp_dir()
    target = directory / "kb.sqlite"
    if not force and _is_fresh(target, digest, warn=warn, move_bad=True):
        return target                      # said when it was built: not again on every command
    if warn:
        why = cause.strerror or str(cause)
        warn(f"cannot write the knowledge-base cache {db_path} ({why}); using {target} "
             "(set ASCEND_DOCTOR_KB or --kb to choose a place)")
    return _build_at(target, knowledge_dir, overlays, digest, warn, notice, force)


def private_temp_dir() -> Path:
    """``$TMPDIR/ascend-doctor-<uid>``, created 0700 and used only when it is a real directory owned by
    this user and closed to others (never through a symlink someone else planted); otherwise a fresh
    directory of its own, removed at exit."""
    d = Path(tempfile.gettempdir()) / f"ascend-doctor-{os.getuid()}"
    try:
        d.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return _throwaway_dir()
    try:
        st = os.lstat(d)
    except OSError:
        return _throwaway_dir()
    if stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not (st.st_mode & 0o077):
        return d
    return _throwaway_dir()


def _throwaway_dir() -> Path:
    d = Path(tempfile.mkdtemp(prefix="ascend-doctor-kb-"))
    atexit.register(shutil.rmtree, d, True)
    return d


def _display(path: Path, knowledge_dir: Path) -> str:
    """The name the loader gives ``path`` in its issues."""
    try:
        return str(path.relative_to(knowledge_dir.parent.parent))
    except ValueError:
        return str(path)


def load_usable(knowledge_dir: Path, overlays: list[Path], warn=None) -> Knowledge:
    """The built-in knowledge plus every overlay that validates. An overlay with a problem (its own, a
    duplicate of an id seen before it, a regex that backtracks catastrophically) is left out with a
    warning; a problem in the built-in knowledge raises KnowledgeError."""
    from .regex_safety import unsafe_signature_issues

    usable = list(overlays)
    checked: set[str] = set()          # overlays whose regexes already passed the backtracking check
    while True:
        kn, issues = load(knowledge_dir, usable)
        names = {_display(o, knowledge_dir): o for o in usable}
        unchecked = {n for n, o in names.items() if not o.name.startswith("faultdiag") and n not in checked}
        unsafe = unsafe_signature_issues(kn.problems, unchecked)
        checked |= unchecked - {i.file for i in unsafe}
        issues += unsafe
        bad = {names[i.file]: i for i in reversed(issues) if i.file in names}
        if any(i.file not in names for i in issues):
            raise KnowledgeError([i for i in issues if i.file not in names] + [i for i in issues if i.file in names])
        if not bad:
            return kn
        for o, issue in bad.items():
            if warn:
                warn(f"user overlay {o} was left out of the knowledge base: {issue}")
        usable = [o for o in usable if o not in bad]


def _is_fresh(db_path: Path, digest: str, warn=None, move_bad: bool = False) -> bool:
    if not db_path.exists():
        return False
    try:
        meta = read_meta(db_path)
    except ForeignDatabase as exc:
        if move_bad:
            kept = _move_aside(db_path)
            if warn:
                warn(f"{exc}; kept it as {kept.name} and rebuilt the knowledge base")
        return False
    return meta.get("content_hash") == digest and meta.get("schema_version") == str(SCHEMA_VERSION)
