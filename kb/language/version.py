"""The Ascend version grammar: parse, order and match versions, ranges and series.

Versions seen on Ascend machines (reference/compatibility.md section 8)::

    8.0.RC2  8.0.RC2.alpha003  8.5.0  9.1.0-beta.3     CANN
    25.5.3  26.0.RC3  24.1.rc2.3  25.0.rc1.b033        HDK (driver / firmware packages, npu-smi)
    23.0.2.1  7.1.0.11.220                             firmware, patched releases
    V100R001C22SPC001B231                              internal (VRC) versions
    2.5.1.post1.dev20250528  2.9.0.post1+git4c901a4   PEP 440 (torch_npu, vllm-ascend: v0.7.3rc1)
    6.6.0-98.oe2403sp1.aarch64                         kernel releases (family "kernel")

Ordering, case-insensitive::

    X.Y.RC1.alpha003 < X.Y.RC1 < X.Y.RC1.2 < X.Y.RC2 < X.Y.0 < X.Y.0.3 < X.Y.1
    9.1.0-beta.3 < 9.1.0 ;  2.7.1.dev1 < 2.7.1rc1 < 2.7.1 < 2.7.1.post1.dev2 < 2.7.1.post1

``dev`` < ``alpha`` < ``beta`` < ``rc`` < the release < a numeric patch / ``post``. A build
number (``.b033``) and a PEP 440 local label (``+git4c901a4``) only break ties: a spec that does
not name them ignores them (``24.1.rc3.b999`` satisfies ``==24.1.RC3``).

A range (``spec``) is alternatives joined by ``||``, each a ``,``-joined list of clauses:
``<``, ``<=``, ``>``, ``>=``, ``==``, ``!=`` followed by a version, a bare version (same as
``==``), or a series ``25.5.X`` / ``9.x`` / ``25.5.*`` (every version of that line, pre-releases
included). ``==3.11`` names a line too: it matches ``3.11.4``. ``<8.3`` (a line: two fields) means
"before the 8.3 line" and so excludes ``8.3.RC1``; ``<8.3.0`` names the release and includes it. Example:
``>=8.0.RC1,<8.3 || 9.x``.

Families (``hdk``, ``cann``, ``firmware``, ``kernel``, ``python``, ``vrc`` ...) are optional
tags; comparing two tagged versions of different families raises :class:`VersionError`, and a
VRC version never compares with a dotted one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

__all__ = ["VersionError", "Version", "Spec", "parse", "parse_spec", "compare", "satisfies", "is_series"]


class VersionError(ValueError):
    """A string that is not a version / range, or a comparison that makes no sense."""


# qualifier ranks: pre-releases sort before the release (rank 0), patches and post-releases after
_PRE = {"dev": -4, "a": -3, "alpha": -3, "b": -2, "beta": -2, "rc": -1, "pre": -1, "preview": -1}
_POST = {"post": 1, "patch": 1, "spc": 1, "hotfix": 1}
#: a release number later than any a line has: the late end of a version that names a line ('25.5')
_LATE = 10 ** 6
_END = (0, 0)          # marks the end of the qualifiers: "the release itself"
_NUM = 1               # rank of a bare numeric field after a qualifier (24.1.rc2.3: patch 3 of RC2)

_VRC_RE = re.compile(r"^V(\d+)R(\d+)(?:C(\d+))?(?:SPC(\d+))?(?:B(\d+))?$", re.IGNORECASE)
_TOKEN_RE = re.compile(r"\d+|[a-z]+")
_KERNEL_RE = re.compile(r"^(\d+(?:\.\d+)*)(?:-(\d+))?")
_SERIES_RE = re.compile(r"^v?(\d+(?:\.\d+)*)\.[x*]$", re.IGNORECASE)
_OPS = ("<=", ">=", "==", "!=", "<", ">")

FAMILIES = ("hdk", "cann", "firmware", "kernel", "python", "pypi", "mindie", "nnal", "vrc")


@dataclass(frozen=True)
class Version:
    raw: str
    release: tuple[int, ...]
    quals: tuple[tuple[int, int], ...] = ()       # (rank, number) pairs after the release
    build: int | None = None                      # ".b033" build number
    local: str = ""                               # PEP 440 "+local" label
    family: str | None = None
    vrc: bool = False

    def __str__(self) -> str:
        return self.raw

    # -- ordering ------------------------------------------------------------------------------
    def _key(self, width: int, with_build: bool, with_local: bool) -> tuple:
        rel = self.release + (0,) * (width - len(self.release))
        key: tuple = (rel, self.quals + (_END,))
        if with_build:
            key += (-1 if self.build is None else self.build,)
        if with_local:
            key += (self.local,)
        return key

    def cmp(self, other: "Version", *, strict: bool = True) -> int:
        """-1 / 0 / 1. With ``strict=False`` build and local labels that ``other`` lacks are ignored."""
        _check_families(self, other)
        width = max(len(self.release), len(other.release))
        with_build = strict or other.build is not None
        with_local = strict or bool(other.local)
        a = self._key(width, with_build, with_local)
        b = other._key(width, with_build, with_local)
        return (a > b) - (a < b)

    def __lt__(self, other: "Version") -> bool:
        return self.cmp(other) < 0

    def __le__(self, other: "Version") -> bool:
        return self.cmp(other) <= 0

    def __gt__(self, other: "Version") -> bool:
        return self.cmp(other) > 0

    def __ge__(self, other: "Version") -> bool:
        return self.cmp(other) >= 0

    @property
    def is_prerelease(self) -> bool:
        return bool(self.quals) and self.quals[0][0] < 0

    def line(self, n: int = 2) -> tuple[int, ...]:
        return (self.release + (0,) * n)[:n]

    def names_line_of(self, other: "Version") -> bool:
        """Whether this is a bare shorter version ('25.5' as a report writes 'HDK25.5', 'CANN 8.5') naming the line
        ``other`` is a release of ('25.5.1'; for CANN also '8.3.RC1', as its lines begin with release candidates)."""
        n = len(self.release)
        if self.quals or self.build is not None or self.local or self.vrc or other.release[:n] != self.release:
            return False
        return n < len(other.release) or (self.family == "cann" and n == len(other.release) and bool(other.quals))

    def line_bounds(self, width: int) -> tuple["Version", "Version"]:
        """The first and a late release of the line this bare version names, ``width`` release fields long:
        '25.5' -> 25.5.0 and 25.5.<late>. Compared with a CANN release candidate of its own line (width 2, '8.3'
        with 8.3.RC2) the line starts before its first candidate's builds."""
        first = replace(self, release=self.release + (0,) * (width - len(self.release)))
        if self.family == "cann" and width <= len(self.release):
            first = replace(first, quals=((_PRE["dev"] - 1, 0),))
        return first, replace(self, release=self.release + (_LATE,) * max(1, width - len(self.release)))


def _check_families(a: Version, b: Version) -> None:
    if a.vrc != b.vrc:
        raise VersionError(f"cannot compare internal version {a.raw if a.vrc else b.raw!r} with "
                           f"{b.raw if a.vrc else a.raw!r}")
    if a.family and b.family and a.family != b.family:
        raise VersionError(f"cannot compare a {a.family} version ({a.raw}) with a {b.family} version ({b.raw})")


def parse(text: str | Version, family: str | None = None) -> Version:
    """Parse one version. Raises VersionError with the reason when ``text`` is not a version."""
    if isinstance(text, Version):
        return text
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        text = str(text)
    if not isinstance(text, str):
        raise VersionError(f"not a version: {text!r}")
    if family is not None and family not in FAMILIES:
        raise VersionError(f"unknown version family {family!r}")
    return _parse(text, family)


@lru_cache(maxsize=4096)
def _parse(text: str, family: str | None) -> Version:
    raw = text.strip()
    if not raw:
        raise VersionError("empty version")
    if len(raw) > 128:
        raise VersionError(f"version too long: {raw[:40]!r}...")
    m = _VRC_RE.match(raw)
    if m:
        v, r, c, spc, b = (int(g) if g is not None else None for g in m.groups())
        return Version(raw, (v or 0, r or 0, c or 0), ((_NUM, spc),) if spc is not None else (), b,
                       family=family or "vrc", vrc=True)
    if family == "kernel":
        return _parse_kernel(raw)
    s = raw.lower()
    if s.startswith("v") and len(s) > 1 and s[1].isdigit():
        s = s[1:]
    local = ""
    if "+" in s:
        s, local = s.split("+", 1)
        if not local or not re.fullmatch(r"[a-z0-9.]+", local):
            raise VersionError(f"bad local label in version {raw!r}")
    if not s or not s[0].isdigit():
        raise VersionError(f"a version starts with a number: {raw!r}")
    if not re.fullmatch(r"[a-z0-9._\-]+", s):
        raise VersionError(f"unexpected character in version {raw!r}")
    # split into numbers and words; '.', '-' and '_' only separate
    pieces = re.split(r"[._\-]", s)
    if any(p == "" for p in pieces):
        raise VersionError(f"empty field in version {raw!r}")
    release: list[int] = []
    quals: list[tuple[int, int]] = []
    build: int | None = None
    in_release = True
    for pi, piece in enumerate(pieces):
        # ".bNNN" (a whole dot-separated field: letter b + digits, after the release) is a build number
        if pi >= 2 and re.fullmatch(r"b\d{3,}", piece):
            if build is not None:
                raise VersionError(f"two build numbers in version {raw!r}")
            build = int(piece[1:])
            in_release = False
            continue
        for tok in _TOKEN_RE.findall(piece):
            if tok.isdigit():
                if in_release:
                    release.append(int(tok))
                elif quals and quals[-1][1] == -1:
                    quals[-1] = (quals[-1][0], int(tok))
                else:
                    quals.append((_NUM, int(tok)))
            else:
                rank = _PRE.get(tok, _POST.get(tok))
                if rank is None:
                    raise VersionError(f"unknown word {tok!r} in version {raw!r}")
                if build is not None:
                    raise VersionError(f"qualifier after the build number in version {raw!r}")
                in_release = False
                quals.append((rank, -1))
    quals = [(r, 0 if n == -1 else n) for r, n in quals]
    if not release:
        raise VersionError(f"no release number in version {raw!r}")
    return Version(raw, tuple(release), tuple(quals), build, local, family=family)


def _parse_kernel(raw: str) -> Version:
    m = _KERNEL_RE.match(raw.strip())
    if not m:
        raise VersionError(f"not a kernel release: {raw!r}")
    release = tuple(int(x) for x in m.group(1).split("."))
    quals = ((_NUM, int(m.group(2))),) if m.group(2) else ()
    # whatever follows (".oe2403sp1.aarch64", "-generic") names the build, not the version
    return Version(raw, release, quals, family="kernel")


def compare(a: str | Version, b: str | Version, family: str | None = None) -> int:
    """-1 / 0 / 1 for two versions (strings are parsed with ``family``)."""
    va = a if isinstance(a, Version) else parse(a, family)
    vb = b if isinstance(b, Version) else parse(b, family)
    return va.cmp(vb)


# -- ranges ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Clause:
    op: str                       # one of _OPS, or "series"
    version: Version | None = None
    series: tuple[int, ...] = ()

    def matches(self, v: Version) -> bool:
        if self.op == "series":
            if v.vrc:
                raise VersionError(f"cannot match internal version {v.raw!r} against a series")
            n = len(self.series)
            return (v.release + (0,) * n)[:n] == self.series
        assert self.version is not None
        if self.op in ("==", "!="):
            eq = _eq(v, self.version)
            return eq if self.op == "==" else not eq
        c = v.cmp(self.version, strict=False)
        if self.op == "<" and c < 0 and v.is_prerelease and not self.version.quals \
                and len(self.version.release) <= 2 and _same_release(v, self.version):
            return False      # "<8.3" means before the 8.3 line, so not 8.3.RC1 (but "<8.3.0" includes it)
        return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[self.op]

    def __str__(self) -> str:
        if self.op == "series":
            return ".".join(map(str, self.series)) + ".X"
        return f"{self.op}{self.version.raw}"  # type: ignore[union-attr]


def _same_release(a: Version, b: Version) -> bool:
    w = max(len(a.release), len(b.release))
    return a.release + (0,) * (w - len(a.release)) == b.release + (0,) * (w - len(b.release))


def _eq(v: Version, spec: Version) -> bool:
    """``v == spec``; a spec with fewer release fields and no qualifiers names a line (==3.11 ~ 3.11.4)."""
    _check_families(v, spec)
    if not spec.quals and spec.build is None and not spec.local and len(spec.release) < len(v.release):
        return v.release[: len(spec.release)] == spec.release
    return v.cmp(spec, strict=False) == 0


@dataclass(frozen=True)
class Spec:
    raw: str
    alternatives: tuple[tuple[Clause, ...], ...] = field(default=())

    def matches(self, v: str | Version, family: str | None = None) -> bool:
        ver = v if isinstance(v, Version) else parse(v, family)
        return any(all(c.matches(ver) for c in alt) for alt in self.alternatives)

    def __str__(self) -> str:
        return self.raw


def is_series(text: str) -> bool:
    return bool(_SERIES_RE.match(text.strip()))


@lru_cache(maxsize=2048)
def parse_spec(text: str, family: str | None = None) -> Spec:
    """Parse a range such as ``>=8.0.RC1,<8.3 || 9.x``. Raises VersionError on bad input."""
    if not isinstance(text, str) or not text.strip():
        raise VersionError(f"empty version range {text!r}")
    alts: list[tuple[Clause, ...]] = []
    for alt in text.split("||"):
        clauses: list[Clause] = []
        for part in alt.split(","):
            part = part.strip()
            if not part:
                raise VersionError(f"empty clause in range {text!r}")
            op = next((o for o in _OPS if part.startswith(o)), "")
            body = part[len(op):].strip()
            if not body:
                raise VersionError(f"operator without a version in range {text!r}")
            m = _SERIES_RE.match(body)
            if m:
                if op not in ("", "=="):
                    raise VersionError(f"a series ({body}) takes no operator other than == in range {text!r}")
                clauses.append(Clause("series", series=tuple(int(x) for x in m.group(1).split("."))))
                continue
            clauses.append(Clause(op or "==", parse(body, family)))
        alts.append(tuple(clauses))
    return Spec(text.strip(), tuple(alts))


def satisfies(version: str | Version, spec: str | Spec, family: str | None = None) -> bool:
    """True when ``version`` is in the range ``spec``."""
    sp = spec if isinstance(spec, Spec) else parse_spec(spec, family)
    return sp.matches(version, family)
