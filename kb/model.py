"""The knowledge as plain, validated Python objects (what the loader returns and the builder stores)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Text = dict  # {"en": str, "zh": str}


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
