"""Line numbers for TOML entries, so validation errors can say ``file:line``.

``tomllib`` gives values but no positions. This scanner reads the file text once and records, for
every array-of-tables entry (``[[problem]]``, ``[[problem.signature]]``, ...), the line it starts on
and the line of each key written inside it. Good enough to point a writer at the right line; it
never decides validity itself.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADER_ARRAY = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.\-]+)\s*\]\]")
_HEADER_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-]+)\s*\]")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-]+))*\s*=""")


@dataclass
class Node:
    line: int
    keys: dict[str, int] = field(default_factory=dict)
    children: dict[str, list["Node"]] = field(default_factory=dict)

    def key_line(self, key: str) -> int:
        return self.keys.get(key, self.line)

    def child(self, name: str, index: int) -> "Node":
        items = self.children.get(name, [])
        return items[index] if index < len(items) else Node(self.line)


def locate(text: str) -> Node:
    """Return the root node; ``root.children['problem'][i]`` is the i-th ``[[problem]]``."""
    root = Node(1)
    current = root
    in_multiline: str | None = None
    for lineno, line in enumerate(text.splitlines(), start=1):
        if in_multiline:
            if line.count(in_multiline) % 2 == 1:
                in_multiline = None
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        m = _HEADER_ARRAY.match(line)
        if m:
            current = _append(root, m.group(1).split("."), lineno)
            continue
        m = _HEADER_TABLE.match(line)
        if m:
            current = _table(root, m.group(1).split("."), lineno)
            continue
        m = _KEY.match(line)
        if m:
            key = m.group(1).strip("\"'")
            current.keys.setdefault(key, lineno)
            for quote in ('"""', "'''"):
                if line.count(quote) % 2 == 1:
                    in_multiline = quote
    return root


def _append(root: Node, path: list[str], lineno: int) -> Node:
    parent = root
    for part in path[:-1]:
        items = parent.children.get(part)
        if not items:
            items = parent.children.setdefault(part, [Node(lineno)])
        parent = items[-1]
    node = Node(lineno)
    parent.children.setdefault(path[-1], []).append(node)
    return node


def _table(root: Node, path: list[str], lineno: int) -> Node:
    parent = root
    for part in path:
        items = parent.children.get(part)
        if not items:
            items = parent.children.setdefault(part, [Node(lineno)])
        parent = items[-1]
    parent.keys.setdefault("", lineno)
    return parent
