"""The real machine: commands through ``subprocess`` (never a shell), files through ``os``.

A command runs in its own session (process group); when it does not finish within its time-out
the whole group is killed, so a wedged ``npu-smi`` and any children it started cannot outlive the
run. Nothing here writes to the machine.
"""
from __future__ import annotations

import atexit
import errno
import grp
import math
import os
import pwd
import selectors
import signal
import stat as stat_mod
import subprocess
import threading
import time

from .base import DEFAULT_TIMEOUT, CommandResult, Identity, StatInfo, System, Uname, decode

_MAX_OUTPUT = 8 * 1024 * 1024
#: after a command exits, how long its pipes may still deliver output before it is taken as complete
_DRAIN_AFTER_EXIT = 0.5


#: children still running, killed by terminate_children() when ascend-doctor itself is stopped
_LIVE: "set[subprocess.Popen]" = set()
#: guards _LIVE and _STOPPING (re-entrant: the signal handler runs in the main thread, which may hold it)
_LIVE_LOCK = threading.RLock()
#: set once ascend-doctor is being stopped: no command starts any more (a probe thread still running would
#: otherwise start the next npu-smi after the kill, and the interpreter would wait for it at exit)
_STOPPING = False


def terminate_children() -> None:
    """Kill the process group of every command still running (SIGTERM to ascend-doctor, exit), and start
    none after it."""
    global _STOPPING
    with _LIVE_LOCK:
        _STOPPING = True
        live = list(_LIVE)
    for proc in live:
        RealSystem._kill_group(proc)


atexit.register(terminate_children)


def _read_bounded(proc: subprocess.Popen, timeout: float) -> tuple[bytes, bytes, bool]:
    """(stdout, stderr, timed_out): read both pipes until the command ends or ``timeout`` passes,
    keeping at most ``_MAX_OUTPUT`` bytes of each (the rest is read and dropped, so an endless output
    costs neither memory nor a blocked child)."""
    if not math.isfinite(timeout) or timeout <= 0:
        raise ValueError(f"invalid time-out: {timeout!r}")
    deadline = time.monotonic() + timeout
    kept = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    sel = selectors.DefaultSelector()
    for pipe in kept:
        sel.register(pipe, selectors.EVENT_READ)
    drained_by = None        # once the command itself has ended: how long its pipes may still deliver
    try:
        while sel.get_map():
            now = time.monotonic()
            left = deadline - now
            if left <= 0:
                return bytes(kept[proc.stdout]), bytes(kept[proc.stderr]), True
            if drained_by is None and proc.poll() is not None:
                drained_by = now + _DRAIN_AFTER_EXIT
            if drained_by is not None and now >= drained_by:
                # the command ended but a process it left behind (a setsid'ed grandchild) still holds its
                # pipes open: the command's answer is complete, do not wait for that process
                break
            wait = min(left, 1.0) if drained_by is None else max(0.0, min(left, drained_by - now))
            for key, _ in sel.select(wait):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                buf = kept[key.fileobj]
                if len(buf) < _MAX_OUTPUT:
                    buf += chunk[:_MAX_OUTPUT - len(buf)]
        left = max(0.0, deadline - time.monotonic())
        try:
            proc.wait(timeout=left)
        except subprocess.TimeoutExpired:
            return bytes(kept[proc.stdout]), bytes(kept[proc.stderr]), True
        return bytes(kept[proc.stdout]), bytes(kept[proc.stderr]), False
    finally:
        sel.close()
        for pipe in kept:
            pipe.close()


def _kind(mode: int) -> str:
    return ("dir" if stat_mod.S_ISDIR(mode) else "file" if stat_mod.S_ISREG(mode) else
            "link" if stat_mod.S_ISLNK(mode) else "char" if stat_mod.S_ISCHR(mode) else
            "block" if stat_mod.S_ISBLK(mode) else "fifo" if stat_mod.S_ISFIFO(mode) else
            "socket" if stat_mod.S_ISSOCK(mode) else "other")


class RealSystem(System):
    origin = "live"

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self._env = dict(os.environ if env is None else env)

    # -- commands ---------------------------------------------------------------------------
    def run(self, argv, timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        argv = tuple(str(a) for a in argv)
        start = time.perf_counter()

        def done(**kw) -> CommandResult:
            ms = (time.perf_counter() - start) * 1000
            self._note(ms)
            return CommandResult(argv=argv, duration_ms=ms, **kw)

        if not argv:
            return done(error="empty command")
        if _STOPPING:
            return done(error=f"{argv[0]}: not run: ascend-doctor is stopping")
        # a child's locale must not translate the messages we parse
        child_env = {**self._env, "LC_ALL": "C", "LANG": "C"}
        try:
            proc = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, start_new_session=True, env=child_env,
                                    shell=False, close_fds=True)
        except FileNotFoundError as exc:
            return done(not_found=True, error=f"{argv[0]}: not found ({exc.strerror or exc})")
        except PermissionError as exc:
            return done(denied=True, error=f"{argv[0]}: permission denied ({exc.strerror or exc})")
        except OSError as exc:  # e.g. EISDIR when a bind mount left a directory, ENOEXEC
            return done(error=f"{argv[0]}: cannot run: {exc.strerror or exc}")
        with _LIVE_LOCK:
            if not _STOPPING:
                _LIVE.add(proc)
        if _STOPPING:                           # stopped while it was being started: it does not run on
            self._kill_group(proc)
            proc.wait()
            for pipe in (proc.stdout, proc.stderr):
                pipe.close()
            return done(error=f"{argv[0]}: not run: ascend-doctor is stopping")
        try:
            out, err, timed_out = _read_bounded(proc, timeout)
        except BaseException:
            # an interrupt, SIGTERM (see terminate_children) or a bad time-out: never leave the child running
            self._kill_group(proc)
            raise
        finally:
            _LIVE.discard(proc)
        if timed_out:
            self._kill_group(proc)
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
            o, bad_o = decode(out)
            e, bad_e = decode(err)
            return done(timed_out=True, stdout=o, stderr=e, invalid_utf8=bad_o or bad_e,
                        error=f"no answer within {timeout:g} s; process group killed")
        o, bad_o = decode(out)
        e, bad_e = decode(err)
        code = proc.returncode
        error = f"killed by signal {-code}" if code is not None and code < 0 else ""
        return done(exit_code=code, stdout=o, stderr=e, invalid_utf8=bad_o or bad_e, error=error)

    @staticmethod
    def _kill_group(proc: subprocess.Popen) -> None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            try:
                proc.kill()
            except OSError:
                pass

    # -- files ------------------------------------------------------------------------------
    def _timed(self, fn, *args):
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            self._note((time.perf_counter() - start) * 1000)

    def read_file(self, path: str, limit: int = 4 * 1024 * 1024) -> bytes:
        def read():
            with open(path, "rb") as f:
                return f.read(limit)
        return self._timed(read)

    def list_dir(self, path: str) -> list[str]:
        return self._timed(lambda: sorted(os.listdir(path)))

    def stat(self, path: str) -> StatInfo:
        def st():
            s = os.stat(path)
            kind = _kind(s.st_mode)
            return StatInfo(kind=kind, size=s.st_size, mode=stat_mod.S_IMODE(s.st_mode),
                            executable=kind == "file" and os.access(path, os.X_OK))
        return self._timed(st)

    def lstat(self, path: str) -> StatInfo:
        def st():
            s = os.lstat(path)
            return StatInfo(kind=_kind(s.st_mode), size=s.st_size, mode=stat_mod.S_IMODE(s.st_mode),
                            mtime=s.st_mtime)
        return self._timed(st)

    def read_tail(self, path: str, limit: int) -> bytes:
        def read():
            # O_NOFOLLOW: a link at the path is refused (ELOOP); O_NONBLOCK: a FIFO cannot block the open
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
            try:
                s = os.fstat(fd)
                if not stat_mod.S_ISREG(s.st_mode):
                    raise OSError(errno.EINVAL, f"not a regular file ({_kind(s.st_mode)})", path)
                os.lseek(fd, max(0, s.st_size - limit), os.SEEK_SET)
                chunks, left = [], limit
                while left > 0:
                    chunk = os.read(fd, min(left, 1 << 20))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    left -= len(chunk)
                return b"".join(chunks)
            finally:
                os.close(fd)
        return self._timed(read)

    def read_link(self, path: str) -> str:
        return self._timed(os.readlink, path)

    def fs_size(self, path: str) -> int:
        def size():
            v = os.statvfs(path)
            return v.f_frsize * v.f_blocks
        return self._timed(size)

    # -- process context --------------------------------------------------------------------
    def env(self) -> dict[str, str]:
        return dict(self._env)

    def identity(self) -> Identity:
        uid, gid = os.getuid(), os.getgid()
        try:
            user = pwd.getpwuid(uid).pw_name
        except KeyError:
            user = str(uid)
        names = []
        for g in sorted(set(os.getgroups()) | {gid}):
            try:
                names.append(grp.getgrgid(g).gr_name)
            except KeyError:
                names.append(str(g))
        return Identity(uid=uid, gid=gid, user=user, groups=tuple(names))

    def uname(self) -> Uname:
        u = os.uname()
        return Uname(sysname=u.sysname, nodename=u.nodename, release=u.release, machine=u.machine)

    def user_exists(self, name: str) -> bool:
        try:
            pwd.getpwnam(name)
            return True
        except KeyError:
            pass
        try:
            grp.getgrnam(name)
            return True
        except KeyError:
            return False
