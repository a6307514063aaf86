"""The knowledge as plain, validated Python objects (what the loader returns and the builder stores)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Text = dict  # {"en": str, "zh": str}


#: ``silent``: how a failure that prints no message of its own shows itself (why it has no signature)
SILENT_KINDS = {
    "slow": ("it runs, slower than it should", "能运行，但比应有的慢"),
    "wrong-output": ("it runs, with wrong or degraded results", "能运行，但结果错误或精度下降"),
    "hang": ("it stops without a message", "卡住且无报错"),
    "no-effect": ("a setting is silently ignored", "某项设置被静默忽略"),
    "advice": ("a limit or a recommendation: nothing fails by itself", "限制或建议：本身不会报错"),
    "state": ("it shows only as a state (a pod pending, a node label missing), not as a message",
              "只表现为某种状态（Pod 挂起、节点缺少标签），没有报错信息"),
    "generic-message": ("it prints only a message that many other causes print too",
                        "只打印许多其他原因也会打印的通用报错"),
}


@dataclass
class Signature:
    literal: str
    regex: str
    weight: float
    match: list[str]
    no_match: list[str]
    #: The public URL whose log the ``match`` examples are copied from (verbatim lines).
    source: str = ""


@dataclass
class FixStep:
    en: str
    zh: str
    command: str = ""


@dataclass
class Fix:
    kind: str                      # workaround | permanent
    summary: Text
    steps: list[FixStep]


@dataclass
class Problem:
    id: str
    family: str
    title: Text
    summary: Text
    root_cause: Text
    severity: str
    hardware: list[str]
    components: list[str]
    symptoms: dict[str, list[str]]
    sources: list[str]
    signatures: list[Signature] = field(default_factory=list)
    fixes: list[Fix] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    related: list[str] = field(default_factory=list)
    confirm_when: dict[str, Any] | None = None
    rule_out_when: dict[str, Any] | None = None
    origin: str = "builtin"
    file: str = ""
    line: int = 0
    stalls: list[str] = field(default_factory=list)   # progress-bar descriptions whose stall points here
    silent: str = ""       # how the failure shows when it prints no message of its own (loader.SILENT_KINDS)


@dataclass
class Code:
    code: str                      # canonical form (see codes.canonical)
    family: str
    name: str
    meaning: Text
    causes: dict[str, list[str]]
    sources: list[str]
    action: Text | None = None
    level: str = ""
    problems: list[str] = field(default_factory=list)
    origin: str = "builtin"
    file: str = ""
    line: int = 0
    links_line: int = 0
    #: a catch-all code (EZ9999, 561000, -8005...): many causes print it, so alone it names none of them
    generic: bool = False            # line of 'problems =' (for link errors)


@dataclass
class CompatRow:
    matrix: str
    data: dict[str, Any]
    source: str
    file: str = ""
    line: int = 0


@dataclass
class Family:
    kind: str                      # problems | codes | compat
    name: str
    title: Text
    key: str = ""                  # compat matrices: the lookup column


@dataclass
class Knowledge:
    problems: list[Problem] = field(default_factory=list)
    codes: list[Code] = field(default_factory=list)
    compat: list[CompatRow] = field(default_factory=list)
    families: list[Family] = field(default_factory=list)
    synonyms: list[list[str]] = field(default_factory=list)
    vocabulary: dict[str, list[str]] = field(default_factory=dict)
