"""A ``docker run`` / ``podman run`` / ``nerdctl run`` command pasted into a report: what the container gets.

Users paste the command they started the container with (one line, or continued with ``\\``, often after a
prompt or a sentence: "执行docker run -e ... lmdeploy:latest"). What it passes is what the container has, so it
answers the questions the container probes answer inside a container: which device nodes exist, which host
paths are mounted, how large /dev/shm is, which environment variables are set.

    parse('docker run --device /dev/davinci0 -v /usr/local/Ascend/driver:/usr/local/Ascend/driver img')
    -> value {"engine": "docker", "devices": ["/dev/davinci0"], "volumes": ["/usr/local/Ascend/driver"], ...}

Nothing is guessed: a device given by a shell variable (``--device $DEVICE``) makes the device list unknown;
``--privileged`` gives the container every host device; ``-e ASCEND_VISIBLE_DEVICES`` or ``--runtime ascend``
means the Ascend Docker Runtime may add devices and driver mounts the command does not show.
"""
from __future__ import annotations

import re
import shlex

from .base import ParseResult, size_bytes, unparsed

KIND = "container-run"

#: where a run command starts on a line: after a prompt, a backtick, a word or a Chinese sentence
START = re.compile(r"(?<![\w-])(docker|podman|nerdctl)\s+(?:container\s+)?run(?=\s)")
ENGINES = {"docker": "docker", "podman": "podman", "nerdctl": "containerd"}
#: options of ``docker run`` that take a value (the others are switches: -i, -t, -d, --rm, --privileged ...)
VALUED = frozenset("""
-v --volume --device -e --env --env-file --mount --shm-size --ipc --runtime --name -p --publish --network --net
-w --workdir --entrypoint -u --user --gpus --cpus -m --memory --memory-swap --ulimit --cap-add --cap-drop
--security-opt --pid --uts --userns -h --hostname -l --label --label-file --restart --add-host --tmpfs --platform
--pull --log-opt --log-driver --cgroupns --cgroup-parent --group-add --cidfile --device-cgroup-rule --dns
--dns-option --dns-search --domainname --expose --health-cmd --health-interval --health-retries --health-timeout
--health-start-period --ip --ip6 --isolation --kernel-memory --link --mac-address --memory-reservation
--network-alias --oom-score-adj --stop-signal --stop-timeout --storage-opt --sysctl --volume-driver --volumes-from
--cpu-shares -c --cpuset-cpus --cpuset-mems --cpu-period --cpu-quota --blkio-weight --attach -a --detach-keys
""".split())
#: the Ascend Docker Runtime adds devices and driver mounts for these
RUNTIME_ENV = ("ASCEND_VISIBLE_DEVICES", "ASCEND_ALLOW_LINK")
#: what an option of the command is named (``-it``, ``--shm-size``); a sentence that only names the command
#: ("docker run --》Atlas 800I A3 --》", a path through a tutorial's headings) holds other words there
OPTION = re.compile(r"-[A-Za-z0-9]+|--[a-z0-9][a-z0-9-]*")
#: an image reference as docker reads one ([registry[:port]/]path[:tag][@digest], the path in lower case), after
#: shell variables (``$IMAGE``, ``${TAG}``) are replaced by a word
IMAGE = re.compile(r"(?:[A-Za-z0-9.-]+(?::\d+)?/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*"
                   r"(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::\w[\w.-]{0,127})?(?:@sha256:[0-9a-f]{64})?")
SHELL_VAR = re.compile(r"\$\{?\w+\}?")
MAX_LINES = 60          # continuation lines one command may span


def find(lines: list[str]) -> list[tuple[int, int, int]]:
    """(first line, last line, column) of every run command: its line, then the lines a trailing ``\\``
    continues it onto."""
    out = []
    i = 0
    while i < len(lines):
        m = START.search(lines[i])
        if not m:
            i += 1
            continue
        end = i
        while end + 1 < len(lines) and end - i < MAX_LINES and lines[end].rstrip().rstrip("`").endswith("\\"):
            end += 1
        out.append((i, end, m.start()))
        i = end + 1
    return out


def parse(text: str) -> ParseResult:
    """The command in ``text`` (its first line may hold words before it; continuation lines follow)."""
    m = START.search(text)
    if not m:
        return unparsed(KIND, "no docker/podman/nerdctl run command")
    # continuation lines, with the "> " a terminal prompts them with when the command was typed there
    body = re.sub(r"\\\s*\n\s*(?:>\s)?", " ", text[m.end():].split("\n\n")[0])
    body = body.split("\n")[0].strip().strip("`")
    try:
        tokens = shlex.split(body)
    except ValueError:              # an unclosed quote: read the words as they are
        tokens = [t.strip("'\"") for t in body.split()]
    value = {"engine": ENGINES[m.group(1)], "privileged": False, "devices": [], "volumes": [], "env": {},
             "runtime": None, "shm_size": None, "ipc": None, "image": None, "unresolved_devices": False}
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("&&", ";", "|", "||"):
            break
        if not tok.startswith("-") or tok == "-":
            if not IMAGE.fullmatch(SHELL_VAR.sub("x", tok)):
                return unparsed(KIND, f"no image after the options of 'run' (read {tok[:40]!r})")
            value["image"] = tok
            break
        name, eq, val = tok.partition("=")
        if not OPTION.fullmatch(name):
            return unparsed(KIND, f"not an option of 'run': {name[:40]!r}")
        if not eq and name in VALUED:
            if i + 1 >= len(tokens):
                break
            val = tokens[i + 1]
            i += 1
        _option(value, name, val if (eq or name in VALUED) else None)
        i += 1
    if value["image"] is None and not (value["devices"] or value["volumes"] or value["env"]):
        return unparsed(KIND, "no options or image after 'run'")
    return ParseResult(KIND, value=value)


def _option(value: dict, name: str, val: "str | None") -> None:
    if name == "--privileged" and val in (None, "true", "True"):
        value["privileged"] = True
    elif name == "--device" and val:
        path = _container_path(val)
        if "$" in val or not path.startswith("/dev/"):
            value["unresolved_devices"] = True
        else:
            value["devices"].append(path)
    elif name in ("-v", "--volume") and val:
        value["volumes"].append(_container_path(val))
    elif name == "--mount" and val:
        fields = dict(f.partition("=")[::2] for f in val.split(","))
        target = fields.get("target") or fields.get("destination") or fields.get("dst")
        if target:
            value["volumes"].append(target)
    elif name in ("-e", "--env") and val:
        key, eq, v = val.partition("=")
        if eq and key:
            value["env"][key] = v
    elif name == "--runtime" and val:
        value["runtime"] = val
    elif name == "--shm-size" and val:
        value["shm_size"] = size_bytes(val)
    elif name == "--ipc" and val:
        value["ipc"] = val


def _container_path(spec: str) -> str:
    """The path inside the container of ``host[:container[:options]]`` (the host path when it is mapped to
    itself or nothing else is given)."""
    parts = spec.split(":")
    if len(parts) >= 2 and parts[1].startswith("/"):
        return parts[1].rstrip("/") or "/"
    return parts[0].rstrip("/") or "/"

