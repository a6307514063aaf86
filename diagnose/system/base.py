"""The ``System`` seam: everything a probe may ask of a machine, in one small interface.

Three implementations answer it: the real machine (``RealSystem``), a bundled profile
(``SimulatedSystem``) and a replayed snapshot (``ReplaySystem``). Probes only ever talk to a
``System``; they never import ``os``/``subprocess`` for machine access themselves.

Failures follow Python's own exceptions so that every implementation behaves alike:
``FileNotFoundError`` (missing), ``PermissionError`` (denied), ``IsADirectoryError`` /
``NotADirectoryError`` / other ``OSError`` (error). ``run`` never raises for a failed command: it
returns a ``CommandResult`` that says what happened.

Every call notes how long it took; a probe's fact duration is the sum of
the durations of the calls it made (``take_duration_ms``), so a replayed snapshot reproduces the
durations exactly.
"""
from __future__ import annotations

import threading
from dataclasses import asdict, dataclass, field
from typing import Any, Mapping

DEFAULT_TIMEOUT = 10.0


@dataclass(frozen=True)
class CommandResult:
    """What happened when a command was run.

    ``exit_code`` is None when the command did not start (``not_found``/``denied``/``error``) or
    was killed after ``timeout`` seconds (``timed_out``). ``stdout``/``stderr`` are decoded text
    (UTF-8, undecodable bytes replaced; ``invalid_utf8`` says so).
    """

    argv: tuple[str, ...]
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    duration_ms: float = 0.0
    timed_out: bool = False
    not_found: bool = False
    denied: bool = False
    error: str = ""                # why the command could not be started (or was killed)
    invalid_utf8: bool = False

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    @property
    def output(self) -> str:
        """stdout and stderr together (npu-smi prints DCMI failures on either)."""
        if self.stdout and self.stderr:
            return self.stdout.rstrip("\n") + "\n" + self.stderr
        return self.stdout or self.stderr

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["argv"] = list(self.argv)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CommandResult":
        fields = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        fields["argv"] = tuple(d.get("argv", ()))
        return cls(**fields)


@dataclass(frozen=True)
class StatInfo:
    """Kind of a path: ``file``, ``dir``, ``char`` (device node), ``block``, ``fifo``, ``socket``, ``other``,
    and ``link`` (from ``lstat`` only: a symbolic link, not followed)."""

    kind: str
    size: int = 0
    mode: int = 0               # permission bits (0o755)
    executable: bool = False    # may the current user execute it
    mtime: float = 0.0          # modification time (epoch seconds); filled by ``lstat`` only

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if not d["mtime"]:
            del d["mtime"]      # ``stat`` never fills it: snapshots hold no file times
        return d


@dataclass(frozen=True)
class Identity:
    uid: int
    gid: int
    user: str
    groups: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"uid": self.uid, "gid": self.gid, "user": self.user, "groups": list(self.groups)}


@dataclass(frozen=True)
class Uname:
    sysname: str
    nodename: str
    release: str
    machine: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def decode(data: bytes) -> tuple[str, bool]:
    """Bytes -> text; undecodable bytes become U+FFFD. Returns (text, had_invalid_bytes)."""
    try:
        return data.decode("utf-8"), False
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace"), True


class System:
    """Interface every machine implementation provides. See the module docstring."""

    #: "live", "sim:<profile>", "replay:<file>"
    origin: str = "system"

    def run(self, argv: list[str] | tuple[str, ...], timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        raise NotImplementedError

    def read_file(self, path: str, limit: int = 4 * 1024 * 1024) -> bytes:
        raise NotImplementedError

    def list_dir(self, path: str) -> list[str]:
        raise NotImplementedError

    def stat(self, path: str) -> StatInfo:
        raise NotImplementedError

    def read_link(self, path: str) -> str:
        raise NotImplementedError

    def lstat(self, path: str) -> StatInfo:
        """Like ``stat``, but a symbolic link is not followed (kind ``link``), and with ``mtime``."""
        raise NotImplementedError

    def read_tail(self, path: str, limit: int) -> bytes:
        """The last ``limit`` bytes of a regular file (a log's newest lines). Never reads through a
        symbolic link at ``path`` (OSError ELOOP) nor from a FIFO, socket or device (OSError), so a
        planted link or pipe cannot make a collector read another file or block."""
        raise NotImplementedError

    def fs_size(self, path: str) -> int:
        """Total size in bytes of the file system mounted at ``path`` (statvfs)."""
        raise NotImplementedError

    def env(self) -> dict[str, str]:
        raise NotImplementedError

    def identity(self) -> Identity:
        raise NotImplementedError

    def uname(self) -> Uname:
        raise NotImplementedError

    def user_exists(self, name: str) -> bool:
        """True when ``name`` is a user or group known to the machine (passwd/group files)."""
        for path in ("/etc/passwd", "/etc/group"):
            try:
                text, _ = decode(self.read_file(path))
            except OSError:
                continue
            if any(line.split(":", 1)[0] == name for line in text.splitlines()):
                return True
        return False

    def exists(self, path: str) -> bool:
        try:
            self.stat(path)
            return True
        except OSError:
            return False

    # Durations. Every call notes how long it took in a per-thread counter; the probe runner
    # (one thread per probe) takes the total after the probe. Replay notes the recorded times.
    def _note(self, ms: float) -> None:
        local = self.__dict__.get("_local")
        if local is None:
            local = self.__dict__.setdefault("_local", threading.local())
        local.ms = getattr(local, "ms", 0.0) + ms

    def take_duration_ms(self) -> float:
        """Total duration noted by this thread since the last call, and reset it."""
        local = self.__dict__.get("_local")
        if local is None:
            return 0.0
        ms, local.ms = getattr(local, "ms", 0.0), 0.0
        return ms
