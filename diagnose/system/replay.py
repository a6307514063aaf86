"""Recording a real machine, and replaying the recording (the body of a snapshot).

``RecordingSystem`` wraps another ``System`` and keeps every answer (command results, file
contents, directory listings, stats, links, sizes, errors) keyed by the call. ``ReplaySystem``
answers the same calls from that record, with the recorded durations, so running the probes on it
gives exactly the facts of the recorded run. A call that was never recorded behaves like a
missing file / command.

``scrub()`` makes a recording private: environment variables outside the allowlist are dropped,
serial numbers, UUIDs and long hex ids are removed from every text, the host name is blanked.
"""
from __future__ import annotations

import base64
import json
import re
import threading
from typing import Any, Callable

from .base import DEFAULT_TIMEOUT, CommandResult, Identity, StatInfo, System, Uname, decode

_ERRORS: dict[str, type[OSError]] = {
    "FileNotFoundError": FileNotFoundError, "PermissionError": PermissionError,
    "IsADirectoryError": IsADirectoryError, "NotADirectoryError": NotADirectoryError,
}


def call_key(*parts: Any) -> str:
    """The key of one recorded answer: [kind, arguments...] as compact JSON."""
    return json.dumps(parts, ensure_ascii=False, separators=(",", ":"))


def _err_dict(exc: OSError) -> dict[str, Any]:
    name = type(exc).__name__ if type(exc).__name__ in _ERRORS else "OSError"
    return {"error": name, "errno": exc.errno, "strerror": exc.strerror or str(exc)}


def _raise(d: dict[str, Any], path: str) -> None:
    cls = _ERRORS.get(d.get("error", ""), OSError)
    raise cls(d.get("errno") or 0, d.get("strerror") or "error", path)


class RecordingSystem(System):
    """Passes every call to ``inner`` and records the answer."""

    def __init__(self, inner: System) -> None:
        self.inner = inner
        self.origin = inner.origin
        self.calls: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def _record(self, key: str, entry: dict[str, Any]) -> None:
        with self._lock:
            self.calls[key] = entry

    def _file_call(self, kind: str, path: str, fn: Callable[[], Any], encode: Callable[[Any], Any]) -> Any:
        try:
            value = fn()
        except OSError as exc:
            ms = self.inner.take_duration_ms()
            self._note(ms)
            self._record(call_key(kind, path), {**_err_dict(exc), "ms": ms})
            raise
        ms = self.inner.take_duration_ms()
        self._note(ms)
        self._record(call_key(kind, path), {"value": encode(value), "ms": ms})
        return value

    def run(self, argv, timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        result = self.inner.run(argv, timeout)
        ms = self.inner.take_duration_ms()
        self._note(ms)
        self._record(call_key("run", *[str(a) for a in argv]), {"value": result.to_dict(), "ms": ms})
        return result

    def read_file(self, path: str, limit: int = 4 * 1024 * 1024) -> bytes:
        return self._file_call("read_file", path, lambda: self.inner.read_file(path, limit), _encode_bytes)

    def list_dir(self, path: str) -> list[str]:
        return self._file_call("list_dir", path, lambda: self.inner.list_dir(path), list)

    def stat(self, path: str) -> StatInfo:
        return self._file_call("stat", path, lambda: self.inner.stat(path), lambda s: s.to_dict())

    def read_link(self, path: str) -> str:
        return self._file_call("read_link", path, lambda: self.inner.read_link(path), str)

    def fs_size(self, path: str) -> int:
        return self._file_call("fs_size", path, lambda: self.inner.fs_size(path), int)

    def lstat(self, path: str) -> StatInfo:
        return self._file_call("lstat", path, lambda: self.inner.lstat(path), lambda s: s.to_dict())

    def read_tail(self, path: str, limit: int) -> bytes:
        return self._file_call("read_tail", path, lambda: self.inner.read_tail(path, limit), _encode_bytes)

    def user_exists(self, name: str) -> bool:
        value = self.inner.user_exists(name)
        self._record(call_key("user_exists", name), {"value": bool(value), "ms": self.inner.take_duration_ms()})
        return value

    def env(self) -> dict[str, str]:
        value = self.inner.env()
        self._record(call_key("env"), {"value": dict(value), "ms": 0.0})
        return value

    def identity(self) -> Identity:
        value = self.inner.identity()
        self._record(call_key("identity"), {"value": value.to_dict(), "ms": 0.0})
        return value

    def uname(self) -> Uname:
        value = self.inner.uname()
        self._record(call_key("uname"), {"value": value.to_dict(), "ms": 0.0})
        return value


def _encode_bytes(data: bytes) -> dict[str, str]:
    text, bad = decode(data)
    if not bad:
        return {"text": text}
    return {"base64": base64.b64encode(data).decode("ascii")}


def _decode_bytes(v: dict[str, str]) -> bytes:
    if "text" in v:
        return v["text"].encode("utf-8")
    return base64.b64decode(v.get("base64", ""))


class ReplaySystem(System):
    """Answers every call from a recording (``calls`` as written by ``RecordingSystem``)."""

    def __init__(self, calls: dict[str, dict[str, Any]], origin: str = "replay") -> None:
        self.calls = calls
        self.origin = origin

    def _get(self, *key: Any) -> dict[str, Any] | None:
        entry = self.calls.get(call_key(*key))
        if entry is not None:
            self._note(float(entry.get("ms", 0.0)))
        return entry

    def _file(self, kind: str, path: str) -> Any:
        entry = self._get(kind, path)
        if entry is None:
            raise FileNotFoundError(2, "No such file or directory (not in the snapshot)", path)
        if "error" in entry:
            _raise(entry, path)
        return entry["value"]

    def run(self, argv, timeout: float = DEFAULT_TIMEOUT) -> CommandResult:
        argv = tuple(str(a) for a in argv)
        entry = self._get("run", *argv)
        if entry is None:
            return CommandResult(argv=argv, not_found=True, error=f"{argv[0] if argv else ''}: not in the snapshot")
        return CommandResult.from_dict(entry["value"])

    def read_file(self, path: str, limit: int = 4 * 1024 * 1024) -> bytes:
        return _decode_bytes(self._file("read_file", path))[:limit]

    def list_dir(self, path: str) -> list[str]:
        return list(self._file("list_dir", path))

    def stat(self, path: str) -> StatInfo:
        return StatInfo(**self._file("stat", path))

    def read_link(self, path: str) -> str:
        return str(self._file("read_link", path))

    def fs_size(self, path: str) -> int:
        return int(self._file("fs_size", path))

    def lstat(self, path: str) -> StatInfo:
        return StatInfo(**self._file("lstat", path))

    def read_tail(self, path: str, limit: int) -> bytes:
        data = _decode_bytes(self._file("read_tail", path))
        return data[-limit:] if limit > 0 else b""

    def user_exists(self, name: str) -> bool:
        entry = self._get("user_exists", name)
        return bool(entry and entry.get("value"))

    def env(self) -> dict[str, str]:
        entry = self._get("env")
        return dict(entry["value"]) if entry else {}

    def identity(self) -> Identity:
        entry = self._get("identity")
        v = entry["value"] if entry else {"uid": -1, "gid": -1, "user": "", "groups": []}
        return Identity(uid=int(v["uid"]), gid=int(v["gid"]), user=str(v["user"]), groups=tuple(v["groups"]))

    def uname(self) -> Uname:
        entry = self._get("uname")
        v = entry["value"] if entry else {"sysname": "", "nodename": "", "release": "", "machine": ""}
        return Uname(**v)


# --- privacy ---------------------------------------------------------------------------------
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_LONG_HEX = re.compile(r"\b[0-9a-fA-F]{32,}\b")
_SERIAL_LINE = re.compile(
    r"(?im)^(?P<key>[ \t]*(?:[\w ]*Serial[ _]?(?:Number|No\.?)|SN|UUID|[VN]Die ID|Board SN|Chip SN|ELabel[\w ]*)"
    r"[ \t]*[:=][ \t]*)(?P<value>\S.*?)[ \t]*$")
REMOVED = "<removed>"


def scrub_text(text: str) -> str:
    return scrub_text_count(text)[0]


def scrub_text_count(text: str) -> tuple[str, int]:
    """``scrub_text`` and how many values it removed (serial numbers, UUIDs, long hex ids)."""
    text, a = _SERIAL_LINE.subn(lambda m: m.group("key") + REMOVED, text)
    text, b = _UUID.subn(REMOVED, text)
    text, c = _LONG_HEX.subn(REMOVED, text)
    return text, a + b + c


#: credentials inside a URL: scheme://user:password@host
_URL_CREDENTIALS = re.compile(r"(?P<scheme>\b[a-zA-Z][\w+.-]*://)[^\s/@:]+:[^\s/@]*@")
#: the only open-file targets kept: Ascend device nodes (which process holds which NPU)
_DEVICE_LINK = re.compile(r"^/dev/[\w./-]+$")
_FD_DIR = re.compile(r"^/proc/(\d+)/fd(?:/\d+)?$")
#: mount-table lines kept: /dev/shm (its size is a fact) and anything Ascend's
_MOUNT_KEPT = re.compile(r"^\S+ (/dev/shm|\S*(?:[Aa]scend|davinci|dcmi|npu|hccn|hisi)\S*) ")


def scrub_value(value: str) -> str:
    """An environment value without credentials (URLs that carry user:password)."""
    return _URL_CREDENTIALS.sub(lambda m: m.group("scheme") + REMOVED + "@", value)


def _private_processes(calls: dict[str, dict[str, Any]]) -> set[str]:
    """The pids whose open files may be kept: those holding a device node, or that could not be read
    (their count is a fact); every other process on the machine stays out of the snapshot."""
    keep = set()
    for key, entry in calls.items():
        k = json.loads(key)
        if k[0] == "read_link" and len(k) > 1 and _DEVICE_LINK.match(str(entry.get("value", ""))):
            m = _FD_DIR.match(k[1])
            if m:
                keep.add(m.group(1))
        elif k[0] == "list_dir" and len(k) > 1 and "error" in entry:
            m = _FD_DIR.match(k[1])
            if m:
                keep.add(m.group(1))
    return keep


def scrub(calls: dict[str, dict[str, Any]], env_allowed: Callable[[str], bool],
          include_hostname: bool = False) -> dict[str, dict[str, Any]]:
    """A private copy of a recording (see the module docstring): allow-listed environment variables
    with credentials in URLs removed, no host name, serial numbers and UUIDs removed from outputs, the
    open files only of processes that hold a device (and only their device nodes), and of the mount
    table only /dev/shm and Ascend's mounts."""
    out: dict[str, dict[str, Any]] = {}
    keep_pids = _private_processes(calls)
    for key, entry in calls.items():
        k = json.loads(key)
        kind = k[0]
        e = json.loads(json.dumps(entry))
        fd = _FD_DIR.match(k[1]) if len(k) > 1 and isinstance(k[1], str) else None
        if fd and fd.group(1) not in keep_pids:
            continue
        if kind == "read_link" and not _DEVICE_LINK.match(str(e.get("value", ""))):
            continue
        if kind == "list_dir" and k[1:] == ["/proc"] and isinstance(e.get("value"), list):
            e["value"] = [p for p in e["value"] if not str(p).isdigit() or str(p) in keep_pids]
        if kind == "read_file" and k[1:] == ["/proc/mounts"] and "text" in e.get("value", {}):
            e["value"]["text"] = "".join(ln for ln in e["value"]["text"].splitlines(keepends=True)
                                         if _MOUNT_KEPT.match(ln))
        if kind == "env":
            e["value"] = {k: scrub_value(str(v)) for k, v in e["value"].items() if env_allowed(k)}
        elif kind == "uname" and not include_hostname:
            e["value"]["nodename"] = ""
        elif kind == "run":
            v = e["value"]
            v["stdout"], v["stderr"] = scrub_text(v.get("stdout", "")), scrub_text(v.get("stderr", ""))
        elif kind in ("read_file", "read_tail") and "value" in e and "text" in e["value"]:
            e["value"]["text"] = scrub_text(e["value"]["text"])
        elif kind == "read_link" and "value" in e:
            e["value"] = scrub_text(str(e["value"]))
        out[key] = e
    return out


def map_texts(calls: dict[str, dict[str, Any]], fn: Callable[[str], str]) -> dict[str, dict[str, Any]]:
    """A copy of a recording with ``fn`` applied to every text a command printed or a file held (a further
    redaction on top of ``scrub``, such as the support bundle's)."""
    out: dict[str, dict[str, Any]] = {}
    for key, entry in calls.items():
        kind = json.loads(key)[0]
        e = json.loads(json.dumps(entry))
        if kind == "run" and isinstance(e.get("value"), dict):
            v = e["value"]
            v["stdout"], v["stderr"] = fn(v.get("stdout", "")), fn(v.get("stderr", ""))
        elif kind in ("read_file", "read_tail") and isinstance(e.get("value"), dict) and "text" in e["value"]:
            e["value"]["text"] = fn(e["value"]["text"])
        out[key] = e
    return out

