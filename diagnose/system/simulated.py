"""A simulated machine read from a bundled profile (``diagnose/profiles/<name>/``).

A profile is data only:

``profile.toml``
    ``description`` (one line), ``expected_problems`` (KB problem ids), optional ``extends`` (a
    parent profile whose data this one overrides), ``remove`` (paths of the parent's fake root or
    device nodes that this machine lacks), and the tables ``[system]`` (hostname, kernel_release,
    arch, shm_bytes), ``[identity]`` (uid, gid, user, groups), ``[env]`` (+ ``env_unset``),
    ``[python]`` (executable), ``dev`` (device node names under /dev), ``[[proc]]`` (pid, name,
    fds: processes and the files they hold open) and ``[commands."<command>"]`` (stdout/stderr
    file under ``commands/``, exit_code, hang; a child's file of the same name replaces the
    parent's). A command key is the program's base name followed
    by its arguments (``npu-smi info -t board -i 0``); ``*`` matches anything, and of several
    patterns that match, the longest wins (``npu-smi info -t board -i * -c *`` before
    ``npu-smi info -t board -i *``). ``fill = true`` replaces ``{-i}`` and ``{-c}`` in the output by
    the values the command was given for ``-i`` and ``-c`` (one recorded output stands for every
    device: ``NPU ID : {-i}``). ``[file_times]`` gives fake-root files a modification time
    (path = a TOML date-time), which ``lstat`` reports (0 for files not listed).
``root/``
    files of the fake root file system (``root/etc/os-release`` is ``/etc/os-release``).
``commands/``
    recorded outputs, in the real formats of the tools.
"""
from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .base import DEFAULT_TIMEOUT, CommandResult, Identity, StatInfo, System, Uname, decode

from ascend_doctor.kb.toml import tomllib

PROFILES_DIR = Path(__file__).resolve().parent.parent / "profiles"
_NAME = re.compile(r"^[a-z0-9][a-z0-9.-]*$")


class ProfileError(Exception):
    """A profile is unknown or its data is broken (``known``: the profiles there are, when it is unknown)."""

    def __init__(self, message: str, name: str = "", known: str = ""):
        super().__init__(message)
        self.name, self.known = name, known


@dataclass
class Profile:
    name: str
    description: str
    expected_problems: list[str]
    dirs: list[Path]                       # own folder first, then the parents'
    system: dict[str, Any] = field(default_factory=dict)
    identity: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    python: dict[str, Any] = field(default_factory=dict)
    dev: list[str] = field(default_factory=list)
    procs: list[dict[str, Any]] = field(default_factory=list)
    commands: dict[str, dict[str, Any]] = field(default_factory=dict)   # key -> spec (+ "_dir")
    removed: set[str] = field(default_factory=set)
    file_times: dict[str, float] = field(default_factory=dict)   # fake-root path -> epoch seconds


def list_profiles(base: Path = PROFILES_DIR) -> list[str]:
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if (p / "profile.toml").is_file())


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ProfileError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path}: invalid TOML: {exc}") from exc


def load_profile(name: str, base: Path = PROFILES_DIR, _seen: tuple[str, ...] = ()) -> Profile:
    if not _NAME.match(name or ""):
        raise ProfileError(f"invalid profile name {name!r}")
    folder = base / name
    if not (folder / "profile.toml").is_file():
        known = ", ".join(list_profiles(base))
        raise ProfileError(f"unknown profile {name!r} (known: {known})", name, known)
    if name in _seen:
        raise ProfileError(f"profile {name!r} extends itself")
    data = _read_toml(folder / "profile.toml")
    parent_name = data.get("extends")
    if parent_name:
        prof = load_profile(str(parent_name), base, _seen + (name,))
        prof.dirs.insert(0, folder)
    else:
        prof = Profile(name=name, description="", expected_problems=[], dirs=[folder])
    prof.name = name
    prof.description = str(data.get("description", ""))
    prof.expected_problems = [str(p) for p in data.get("expected_problems", [])]
    prof.system.update(data.get("system", {}))
    prof.identity.update(data.get("identity", {}))
    prof.python.update(data.get("python", {}))
    prof.env.update({str(k): str(v) for k, v in data.get("env", {}).items()})
    for k in data.get("env_unset", []):
        prof.env.pop(str(k), None)
    removed = {str(p) for p in data.get("remove", [])}
    # a child re-adding something its parent removed wins: own data is applied after removal
    prof.removed = (prof.removed | removed)
    if "dev" in data:
        prof.dev = [str(d) for d in data["dev"]]
    prof.dev = [d for d in prof.dev if "/dev/" + d not in removed]
    if "proc" in data:
        prof.procs = [dict(p) for p in data["proc"]]
    for path, when in data.get("file_times", {}).items():
        prof.file_times[str(path)] = _epoch(when, name, path)
    for key, spec in data.get("commands", {}).items():
        prof.commands[str(key)] = {**spec, "_dir": folder}
    for key in data.get("commands_unset", []):
        prof.commands.pop(str(key), None)
    return prof


def _epoch(when: Any, profile: str, path: str) -> float:
    import datetime as dt

    if isinstance(when, dt.datetime):
        return (when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)).timestamp()
    if isinstance(when, (int, float)) and not isinstance(when, bool):
        return float(when)
    raise ProfileError(f"profile {profile!r}: file_times[{path!r}] must be a date-time, not {when!r}")


def command_key(argv: tuple[str, ...] | list[str]) -> str:
    """``/usr/local/bin/npu-smi info -m`` -> ``npu-smi info -m``; python3.11 -> python; a multi-line
    argument (an inline script) is reduced to its first line."""
    if not argv:
        return ""
    prog = posixpath.basename(str(argv[0]))
    if re.fullmatch(r"python[0-9.]*", prog):
        prog = "python"
    args = [str(a).split("\n", 1)[0] for a in argv[1:]]
    return " ".join([prog, *args])


class SimulatedSystem(System):
    def __init__(self, profile: Profile | str, base: Path = PROFILES_DIR) -> None:
        self.profile = load_profile(profile, base) if isinstance(profile, str) else profile
        self.origin = f"sim:{self.profile.name}"

    # -- fake root ----------------------------------------------------------------------------
    def _norm(self, path: str) -> str:
        p = posixpath.normpath("/" + str(path).lstrip("/"))
        return p

    def _is_removed(self, p: str) -> bool:
        return any(p == r or p.startswith(r.rstrip("/") + "/") for r in self.profile.removed)

    def _host_path(self, p: str) -> Path | None:
        """The profile file standing for ``p`` (child folders first), or None."""
        if self._is_removed(p):
            return None
        for d in self.profile.dirs:
            # a path removed by a child must not reappear from a parent
            cand = d / "root" / p.lstrip("/")
            if cand.exists() or cand.is_symlink():
                return cand
        return None

    def _dev_nodes(self) -> list[str]:
        return [d for d in self.profile.dev if not self._is_removed("/dev/" + d)]

    def _proc_entries(self) -> dict[str, dict[str, Any]]:
        return {str(p["pid"]): p for p in self.profile.procs}

    def read_file(self, path: str, limit: int = 4 * 1024 * 1024) -> bytes:
        self._note(0.05)
        p = self._norm(path)
        m = re.fullmatch(r"/proc/(\d+)/comm", p)
        if m and m.group(1) in self._proc_entries():
            return (str(self._proc_entries()[m.group(1)].get("name", "")) + "\n").encode()
        host = self._host_path(p)
        if host is None:
            if p.startswith("/dev/") and p[5:] in self._dev_nodes():
                raise PermissionError(13, "Permission denied", path)
            raise FileNotFoundError(2, "No such file or directory", path)
        if host.is_dir():
            raise IsADirectoryError(21, "Is a directory", path)
        if host.name.endswith(".unreadable"):
            raise PermissionError(13, "Permission denied", path)
        return host.read_bytes()[:limit]

    def list_dir(self, path: str) -> list[str]:
        self._note(0.05)
        p = self._norm(path)
        names: set[str] = set()
        found = False
        for d in self.profile.dirs:
            cand = d / "root" / p.lstrip("/")
            if cand.is_dir() and not self._is_removed(p):
                found = True
                names |= {c.name for c in cand.iterdir() if not self._is_removed(posixpath.join(p, c.name))}
        if p == "/dev":
            found = True
            names |= set(self._dev_nodes())
        if p == "/proc":
            found = True
            names |= set(self._proc_entries())
        m = re.fullmatch(r"/proc/(\d+)/fd", p)
        if m and m.group(1) in self._proc_entries():
            return [str(i) for i in range(len(self._proc_entries()[m.group(1)].get("fds", [])))]
        if m2 := re.fullmatch(r"/proc/(\d+)", p):
            if m2.group(1) in self._proc_entries():
                return ["comm", "fd"]
        if not found:
            if self._host_path(p) is not None:
                raise NotADirectoryError(20, "Not a directory", path)
            raise FileNotFoundError(2, "No such file or directory", path)
        return sorted(names)

    def stat(self, path: str) -> StatInfo:
        self._note(0.02)
        p = self._norm(path)
        if p.startswith("/dev/") and p[5:] in self._dev_nodes():
            return StatInfo(kind="char", mode=0o660)
        if p in ("/dev", "/proc"):
            return StatInfo(kind="dir", mode=0o755)
        if re.fullmatch(r"/proc/\d+(/fd)?", p) and p.split("/")[2] in self._proc_entries():
            return StatInfo(kind="dir", mode=0o555)
        host = self._host_path(p)
        if host is None:
            raise FileNotFoundError(2, "No such file or directory", path)
        if host.is_dir():
            return StatInfo(kind="dir", mode=0o755)
        size = host.stat().st_size
        # files under bin/sbin of the fake root stand for executables
        executable = "/bin/" in p or "/sbin/" in p or p.endswith("/npu-smi")
        return StatInfo(kind="file", size=size, mode=0o755 if executable else 0o644, executable=executable)

    def lstat(self, path: str) -> StatInfo:
        self._note(0.02)
        p = self._norm(path)
        host = self._host_path(p)
        if host is not None and host.is_symlink():
            return StatInfo(kind="link", size=len(str(host.readlink())), mode=0o777,
                            mtime=self.profile.file_times.get(p, 0.0))
        st = self.stat(path)
        return StatInfo(kind=st.kind, size=st.size, mode=st.mode, mtime=self.profile.file_times.get(p, 0.0))

    def read_tail(self, path: str, limit: int) -> bytes:
        self._note(0.05)
        p = self._norm(path)
        host = self._host_path(p)
        if host is not None and host.is_symlink():
            raise OSError(40, "Too many levels of symbolic links", path)
        data = self.read_file(path, limit=1 << 62)
        return data[-limit:] if limit > 0 else b""

    def read_link(self, path: str) -> str:
        self._note(0.02)
        p = self._norm(path)
        m = re.fullmatch(r"/proc/(\d+)/fd/(\d+)", p)
        if m and m.group(1) in self._proc_entries():
            fds = self._proc_entries()[m.group(1)].get("fds", [])
            i = int(m.group(2))
            if i < len(fds):
                return str(fds[i])
        raise FileNotFoundError(2, "No such file or directory", path)

    def fs_size(self, path: str) -> int:
        self._note(0.02)
        p = self._norm(path)
        if p == "/dev/shm" and "shm_bytes" in self.profile.system:
            return int(self.profile.system["shm_bytes"])
        raise FileNotFoundError(2, "No such file or directory", path)

    # -- commands -----------------------------------------------------------------------------
    def _find_command(self, key: str) -> dict[str, Any] | None:
        cmds = self.profile.commands
        if key in cmds:
            return cmds[key]
        matching = [pattern for pattern in cmds
                    if any(ch in pattern for ch in "*?[") and fnmatch.fnmatchcase(key, pattern)]
        # the most specific pattern wins: a child's '-i * -c *' before its parent's '-i *'
        return cmds[max(matching, key=len)] if matching else None

    def run(self, argv, timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        argv = tuple(str(a) for a in argv)
        if not argv:
            return CommandResult(argv=argv, error="empty command")
        prog = argv[0]
        key = command_key(argv)
        python_exe = str(self.profile.python.get("executable", ""))
        is_python = key.startswith("python") and (prog == python_exe or "/" not in prog)
        if "/" in prog and not is_python:
            try:
                st = self.stat(prog)
            except OSError:
                self._note(0.3)
                return CommandResult(argv=argv, not_found=True, duration_ms=0.3,
                                     error=f"{prog}: not found ([Errno 2] No such file or directory)")
            if st.kind == "dir":
                self._note(0.3)
                return CommandResult(argv=argv, duration_ms=0.3,
                                     error=f"{prog}: cannot run: Is a directory")
        elif is_python and python_exe and prog != python_exe and "/" in prog:
            return CommandResult(argv=argv, not_found=True, error=f"{prog}: not found")
        spec = self._find_command(key)
        if spec is None:
            if "/" not in prog and not is_python:
                return CommandResult(argv=argv, not_found=True, error=f"{prog}: not found")
            self._note(1.0)
            return CommandResult(argv=argv, exit_code=127, duration_ms=1.0,
                                 error=f"profile {self.profile.name!r} has no recorded output for '{key}'")
        if spec.get("hang"):
            ms = timeout * 1000
            self._note(ms)
            return CommandResult(argv=argv, timed_out=True, duration_ms=ms,
                                 error=f"no answer within {timeout:g} s; process group killed")

        def load(name: str | None) -> tuple[str, bool]:
            if not name:
                return "", False
            # a child profile may replace an output file of its parent without redefining the command
            dirs = [d for d in self.profile.dirs if (d / "commands" / name).is_file()] or [spec["_dir"]]
            path = dirs[0] / "commands" / name
            try:
                return decode(path.read_bytes())
            except OSError as exc:
                raise ProfileError(f"profile {self.profile.name!r}: missing output file {path}: {exc}") from exc

        out, bad_o = load(spec.get("stdout"))
        err, bad_e = load(spec.get("stderr"))
        if spec.get("fill"):
            out, err = _fill(out, argv), _fill(err, argv)
        ms = float(spec.get("duration_ms", 40.0))
        self._note(ms)
        return CommandResult(argv=argv, exit_code=int(spec.get("exit_code", 0)), stdout=out, stderr=err,
                             duration_ms=ms, invalid_utf8=bad_o or bad_e)

    # -- process context ----------------------------------------------------------------------
    def env(self) -> dict[str, str]:
        return dict(self.profile.env)

    def identity(self) -> Identity:
        i = self.profile.identity
        return Identity(uid=int(i.get("uid", 0)), gid=int(i.get("gid", 0)), user=str(i.get("user", "root")),
                        groups=tuple(str(g) for g in i.get("groups", ["root"])))

    def uname(self) -> Uname:
        s = self.profile.system
        return Uname(sysname="Linux", nodename=str(s.get("hostname", "localhost")),
                     release=str(s.get("kernel_release", "")), machine=str(s.get("arch", "aarch64")))


def _fill(text: str, argv: tuple[str, ...]) -> str:
    """``{-i}`` / ``{-c}`` in a recorded output -> the command's ``-i`` / ``-c`` values (``-c`` absent: 0)."""
    for opt, default in (("-i", ""), ("-c", "0")):
        value = argv[argv.index(opt) + 1] if opt in argv[:-1] else default
        text = text.replace("{" + opt + "}", value)
    return text
