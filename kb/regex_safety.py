"""Guard against log-signature regexes that backtrack catastrophically.

Python's ``re`` cannot be interrupted, so every regex is run in a child process against long
adversarial lines (built from the regex's own characters); the parent waits with a time bound and
names the regex that did not finish. Used by ``kb import-faultdiag`` (regexes taken from a foreign
file) and by the KB lint test (every built-in signature).
"""
from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import sys
import time
from dataclasses import dataclass

#: length of each adversarial line (real log lines reach a few thousand characters)
LINE_LENGTH = 5000
#: CPU seconds one regex may spend on all its adversarial lines together (CPU, not wall time: a busy machine
#: must not make a safe regex look unsafe)
DEFAULT_BOUND = 1.0
#: wall seconds, as a multiple of the bound, after which a regex that has not finished is stopped (it then
#: is unsafe whatever the load; one that finishes is judged by its CPU time)
WALL_FACTOR = 8

_CHILD = r"""
import json, re, sys, time
sys.setrecursionlimit(10000)
def lines_for(rx, n):
    chars = sorted({c for c in rx if c.isprintable() and c not in "\\()[]{}?*+|^$."})[:40]
    chars += [c for c in (" ", "a", "0", "=", "_", "\t", "-") if c not in chars]
    words = [w for w in re.split(r"\\.|[\[\](){}?*+|^$.]", rx) if len(w) >= 2][:6]
    prefixes = ["", " ".join(words), "".join(words)] + words[:4]
    out = []
    for p in dict.fromkeys(prefixes):
        for c in chars:
            out.append(p + c * n + "\x00")
        mix = "".join(chars)
        out.append(p + (mix * (n // len(mix) + 1))[:n] + "\x00")
    for w in words:
        out.append((w + " ") * (n // (len(w) + 1)) + "\x00")
        out.append(w * (n // len(w)) + "\x00")
    return out
for raw in sys.stdin:
    idx, rx = json.loads(raw)
    print(json.dumps({"start": idx}), flush=True)
    t0 = time.process_time()
    try:
        c = re.compile(rx)
    except re.error as exc:
        print(json.dumps({"done": idx, "error": str(exc)}), flush=True)
        continue
    for line in lines_for(rx, %(n)d):
        c.search(line)
    print(json.dumps({"done": idx, "seconds": time.process_time() - t0}), flush=True)
"""


@dataclass
class RegexTiming:
    regex: str
    seconds: float | None        # None: did not finish within the bound
    error: str = ""

    @property
    def safe(self) -> bool:
        return self.seconds is not None and not self.error


def check(regexes: list[str], bound: float = DEFAULT_BOUND, line_length: int = LINE_LENGTH) -> list[RegexTiming]:
    """Time every regex on adversarial lines in a child process; a regex that spends more than ``bound`` CPU
    seconds is reported with ``seconds=None`` (one still running after ``WALL_FACTOR`` times the bound in wall
    time is stopped: the child is killed and restarted for the rest)."""
    results: dict[int, RegexTiming] = {}
    pending = list(enumerate(regexes))
    code = _CHILD % {"n": line_length}
    while pending:
        proc = subprocess.Popen([sys.executable, "-I", "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True, env={"PATH": os.environ.get("PATH", "")})
        assert proc.stdin and proc.stdout
        proc.stdin.write("".join(json.dumps([i, rx]) + "\n" for i, rx in pending))
        proc.stdin.close()
        current: int | None = None
        started = 0.0
        killed = False
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        buf = ""
        while True:
            timeout = None if current is None else max(0.0, bound * WALL_FACTOR + 0.5 - (time.monotonic() - started))
            ready = sel.select(timeout if timeout is not None else 30)
            if not ready:
                if current is not None:
                    results[current] = RegexTiming(regexes[current], None)
                    proc.kill()
                    killed = True
                    break
                continue
            chunk = os.read(proc.stdout.fileno(), 65536).decode("utf-8", "replace")
            if not chunk:
                break
            buf += chunk
            while "\n" in buf:
                line, buf = buf.split("\n", 1)
                msg = json.loads(line)
                if "start" in msg:
                    current, started = msg["start"], time.monotonic()
                else:
                    i = msg["done"]
                    secs = msg.get("seconds")
                    results[i] = RegexTiming(regexes[i], secs if secs is None or secs <= bound else None,
                                             msg.get("error", ""))
                    current = None
        sel.close()
        proc.wait()
        if not killed:
            # the child ended without a time-out: anything it did not report is an error
            for i, rx in pending:
                results.setdefault(i, RegexTiming(rx, None, "checker process ended early"))
        pending = [(i, rx) for i, rx in pending if i not in results]
    return [results[i] for i in range(len(regexes))]


_NESTED = re.compile(r"\((?:[^()\\]|\\.)*[+*](?:[^()\\]|\\.)*\)[+*{]")


def looks_nested(regex: str) -> bool:
    """Cheap static hint: a quantified group that itself contains a quantifier, e.g. ``(a+)+``."""
    return bool(_NESTED.search(regex))


def unsafe_signature_issues(problems, files: set[str]) -> list:
    """Issues (file, line, message) for every signature regex of a problem from one of ``files`` that
    backtracks catastrophically or does not compile. One child process checks them all; nothing is
    started when there is nothing to check."""
    from .loader import Issue

    sigs = [(p, s) for p in problems if p.file in files for s in p.signatures]
    if not sigs:
        return []
    issues = []
    for (p, s), timing in zip(sigs, check([s.regex for _, s in sigs])):
        if not timing.safe:
            why = timing.error or f"it runs longer than {DEFAULT_BOUND:g} s on a long line (catastrophic backtracking)"
            issues.append(Issue(p.file, p.line, f"problem '{p.id}': signature regex {s.regex!r} is unsafe: {why}"))
    return issues
