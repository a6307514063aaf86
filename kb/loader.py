"""Read the TOML knowledge files and check them, with ``file:line`` messages.

``load()`` returns the :class:`~ascend_doctor.kb.model.Knowledge` and a list of
:class:`Issue`; the builder refuses to compile when there is any. Everything a
writer can get wrong is reported at once, not one error per run.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from . import codes as codes_mod
from .language import fact_keys
from .language.conditions import validate as validate_condition
from .language.version import VersionError, parse_spec
from .locate import Node, locate
from .model import SILENT_KINDS, Code, CompatRow, Family, Fix, FixStep, Knowledge, Problem, Signature

from .toml import tomllib

LANGS = ("en", "zh")
ID_RE = re.compile(r"^[a-z0-9][a-z0-9\-]*[a-z0-9]$")
SOURCE_RE = re.compile(r"^(https?://\S+|user:.+|faultdiag:.+)$")
#: Components a problem's ``versions`` may name, with the version family their ranges are read in.
VERSION_COMPONENTS = {"driver": "hdk", "firmware": "firmware", "cann": "cann", "nnal": "nnal", "kernel": "kernel",
                      "torch": "pypi", "torch_npu": "pypi", "vllm": "pypi", "vllm_ascend": "pypi", "mindie": "mindie",
                      "sglang": "pypi", "numpy": "pypi", "python": "python", "mindspore": "pypi",
                      "transformers": "pypi"}
#: The fact (docs/facts.md) that holds each such component's version on a machine or in a report.
VERSION_FACTS = {"driver": "driver.version", "firmware": "firmware.version", "cann": "cann.version",
                 "nnal": "nnal.atb.version", "kernel": "kernel.release", "torch": "pkg.torch",
                 "torch_npu": "pkg.torch_npu", "vllm": "pkg.vllm", "vllm_ascend": "pkg.vllm_ascend",
                 "mindie": "mindie.version", "sglang": "pkg.sglang", "numpy": "pkg.numpy", "python": "python.version",
                 "mindspore": "pkg.mindspore", "transformers": "pkg.transformers"}

PROBLEM_KEYS = {"id", "title", "summary", "root_cause", "severity", "hardware", "components", "codes",
                "symptoms", "sources", "versions", "related", "confirm_when", "rule_out_when",
                "signature", "fix", "stalls", "silent"}
PROBLEM_REQUIRED = ("id", "title", "summary", "root_cause", "severity", "hardware", "components",
                    "symptoms", "sources", "fix")
SIGNATURE_KEYS = {"literal", "regex", "weight", "match", "no_match", "source"}
FIX_KEYS = {"kind", "summary", "step"}
STEP_KEYS = {"en", "zh", "command"}
CODE_KEYS = {"code", "name", "meaning", "causes", "action", "level", "problems", "sources", "generic"}
CODE_REQUIRED = ("code", "meaning", "causes", "sources")
FAMILY_KEYS = {"title", "key"}
#: Code families only overlays may use (codes imported from FaultDiag keep their own ids).
OVERLAY_CODE_FAMILIES = ("faultdiag",)


@dataclass(frozen=True)
class Issue:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


class _Checker:
    """Collects issues for one file."""

    def __init__(self, file: str, issues: list[Issue]):
        self.file = file
        self.issues = issues

    def err(self, line: int, message: str) -> None:
        self.issues.append(Issue(self.file, line, message))

    def unknown_keys(self, data: dict, allowed: set[str], node: Node, what: str) -> None:
        for key in sorted(set(data) - allowed):
            self.err(node.key_line(key), f"{what}: unknown key '{key}'")

    def required(self, data: dict, keys: Iterable[str], node: Node, what: str) -> None:
        for key in keys:
            if key not in data:
                self.err(node.line, f"{what}: missing required key '{key}'")

    def text(self, data: dict, key: str, node: Node, what: str, required: bool = True) -> dict | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.err(node.key_line(key), f"{what}: '{key}' must have 'en' and 'zh' texts")
            return None
        for extra in sorted(set(value) - set(LANGS)):
            self.err(node.key_line(key), f"{what}: '{key}' has unknown language '{extra}'")
        ok = True
        for lang in LANGS:
            v = value.get(lang)
            if not isinstance(v, str) or not v.strip():
                if required:
                    self.err(node.key_line(key), f"{what}: '{key}.{lang}' is missing or empty")
                ok = False
        return {lang: value.get(lang, "").strip() for lang in LANGS} if ok or not required else None

    def text_lists(self, data: dict, key: str, node: Node, what: str) -> dict[str, list[str]] | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, dict):
            self.err(node.key_line(key), f"{what}: '{key}' must have 'en' and 'zh' lists")
            return None
        for extra in sorted(set(value) - set(LANGS)):
            self.err(node.key_line(key), f"{what}: '{key}' has unknown language '{extra}'")
        out: dict[str, list[str]] = {}
        for lang in LANGS:
            items = value.get(lang)
            if not isinstance(items, list) or not items or not all(isinstance(i, str) and i.strip() for i in items):
                self.err(node.key_line(key), f"{what}: '{key}.{lang}' must be a non-empty list of texts")
                return None
            out[lang] = [i.strip() for i in items]
        return out

    def str_list(self, data: dict, key: str, node: Node, what: str, vocab: list[str] | None = None,
                 non_empty: bool = False) -> list[str]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(i, str) for i in value):
            self.err(node.key_line(key), f"{what}: '{key}' must be a list of strings")
            return []
        if non_empty and not value:
            self.err(node.key_line(key), f"{what}: '{key}' must not be empty")
        if vocab is not None:
            for item in value:
                if item not in vocab:
                    self.err(node.key_line(key), f"{what}: '{key}' has '{item}', not in vocabulary.toml")
        return list(value)

    def sources(self, data: dict, key: str, node: Node, what: str) -> list[str]:
        value = data.get(key)
        items = value if isinstance(value, list) else [value] if isinstance(value, str) else None
        if not items:
            self.err(node.key_line(key), f"{what}: '{key}' must name at least one source")
            return []
        for s in items:
            if not isinstance(s, str) or not SOURCE_RE.match(s.strip()):
                self.err(node.key_line(key), f"{what}: source {s!r} is not a public URL (https://...) a user can open")
        return [s.strip() for s in items if isinstance(s, str)]


def _read(path: Path, issues: list[Issue], display: str) -> tuple[dict | None, Node]:
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        issues.append(Issue(display, 1, f"cannot read: {exc}"))
        return None, Node(1)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        issues.append(Issue(display, int(m.group(1)) if m else 1, f"TOML syntax: {exc}"))
        return None, Node(1)
    return data, locate(text)


def _family(data: dict, root: Node, chk: _Checker, kind: str, name: str) -> Family | None:
    fam = data.get("family") if kind != "compat" else data.get("matrix")
    table = "family" if kind != "compat" else "matrix"
    node = root.child(table, 0)
    if not isinstance(fam, dict):
        chk.err(1, f"missing [{table}] table with title.en / title.zh")
        return None
    chk.unknown_keys(fam, FAMILY_KEYS, node, f"[{table}]")
    title = chk.text(fam, "title", node, f"[{table}]")
    if kind == "compat" and not isinstance(fam.get("key"), str):
        chk.err(node.line, "[matrix]: missing 'key' (the column rows are looked up by)")
    return Family(kind, name, title or {"en": name, "zh": name}, str(fam.get("key", "")))


def _signature(raw: Any, node: Node, chk: _Checker, what: str) -> Signature | None:
    if not isinstance(raw, dict):
        chk.err(node.line, f"{what}: signature must be a table")
        return None
    chk.unknown_keys(raw, SIGNATURE_KEYS, node, what)
    chk.required(raw, ("literal", "regex", "match", "no_match"), node, what)
    literal, regex = raw.get("literal"), raw.get("regex")
    if not isinstance(literal, str) or len(literal.strip()) < 3:
        chk.err(node.key_line("literal"), f"{what}: 'literal' must be a specific text of at least 3 characters")
        return None
    if not isinstance(regex, str) or not regex:
        chk.err(node.key_line("regex"), f"{what}: 'regex' must be a non-empty string")
        return None
    try:
        compiled = re.compile(regex)
    except re.error as exc:
        chk.err(node.key_line("regex"), f"{what}: regex does not compile: {exc}")
        return None
    weight = raw.get("weight", 0.8)
    if not isinstance(weight, (int, float)) or not 0 < weight <= 1:
        chk.err(node.key_line("weight"), f"{what}: 'weight' must be a number in (0, 1]")
        weight = 0.8
    match, no_match = raw.get("match", []), raw.get("no_match", [])
    for key, items in (("match", match), ("no_match", no_match)):
        if not isinstance(items, list) or not items or not all(isinstance(i, str) for i in items):
            chk.err(node.key_line(key), f"{what}: '{key}' must be a non-empty list of example lines")
            return None
    for example in match:
        if literal not in example:
            chk.err(node.key_line("literal"), f"{what}: literal {literal!r} is not in match example {example[:80]!r}")
        if not compiled.search(example):
            chk.err(node.key_line("match"), f"{what}: regex does not match its example {example[:80]!r}")
    for example in no_match:
        if literal in example and compiled.search(example):
            chk.err(node.key_line("no_match"), f"{what}: regex matches its no_match example {example[:80]!r}")
    source = raw.get("source", "")
    if source != "" and (not isinstance(source, str) or not re.match(r"^https?://\S+$", source)):
        chk.err(node.key_line("source"), f"{what}: 'source' must be the public URL the match examples are copied from")
        source = ""
    return Signature(literal, regex, float(weight), list(match), list(no_match), source)


def _fix(raw: Any, node: Node, chk: _Checker, what: str, vocab: dict) -> Fix | None:
    if not isinstance(raw, dict):
        chk.err(node.line, f"{what}: fix must be a table")
        return None
    chk.unknown_keys(raw, FIX_KEYS, node, what)
    kind = raw.get("kind")
    if kind not in vocab.get("fix_kinds", []):
        chk.err(node.key_line("kind"), f"{what}: 'kind' must be one of {vocab.get('fix_kinds')}")
    summary = chk.text(raw, "summary", node, what)
    if summary is None and "summary" not in raw:
        chk.err(node.line, f"{what}: missing required key 'summary'")
    steps_raw = raw.get("step", [])
    steps: list[FixStep] = []
    if not isinstance(steps_raw, list) or not steps_raw:
        chk.err(node.line, f"{what}: needs at least one [[...fix.step]]")
    else:
        for i, s in enumerate(steps_raw):
            snode = node.child("step", i)
            swhat = f"{what} step {i + 1}"
            if not isinstance(s, dict):
                chk.err(snode.line, f"{swhat}: must be a table")
                continue
            chk.unknown_keys(s, STEP_KEYS, snode, swhat)
            en, zh, cmd = s.get("en"), s.get("zh"), s.get("command", "")
            if not isinstance(en, str) or not en.strip() or not isinstance(zh, str) or not zh.strip():
                chk.err(snode.line, f"{swhat}: needs non-empty 'en' and 'zh'")
                continue
            if not isinstance(cmd, str):
                chk.err(snode.key_line("command"), f"{swhat}: 'command' must be a string")
                cmd = ""
            steps.append(FixStep(en.strip(), zh.strip(), cmd.strip()))
    if summary is None or not steps or kind not in vocab.get("fix_kinds", []):
        return None
    return Fix(kind, summary, steps)


def _versions(raw: Any, node: Node, chk: _Checker, what: str) -> dict[str, str]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        chk.err(node.key_line("versions"), f"{what}: 'versions' must be a table of component = range")
        return {}
    out = {}
    for comp, rng in raw.items():
        if comp not in VERSION_COMPONENTS:
            chk.err(node.key_line("versions"), f"{what}: versions: unknown component '{comp}'")
            continue
        try:
            parse_spec(rng, VERSION_COMPONENTS[comp])
        except VersionError as exc:
            chk.err(node.key_line("versions"), f"{what}: versions.{comp}: bad range {rng!r}: {exc}")
            continue
        out[comp] = rng
    return out


def _condition(raw: Any, key: str, node: Node, chk: _Checker, what: str) -> dict | None:
    if raw is None:
        return None
    if not isinstance(raw, dict) or not ({"all", "any", "not", "fact"} & set(raw)):
        chk.err(node.key_line(key), f"{what}: '{key}' must be a condition table (all / any / not / fact)")
        return None
    errors = validate_condition(raw, key, known_fact=fact_keys.known)
    for message in errors:
        chk.err(node.key_line(key), f"{what}: {message}")
    return None if errors else raw


STALL_MIN_CHARS = 8


def _stalls(raw: dict, node: Node, chk: _Checker, what: str) -> list[str]:
    """``stalls``: progress-bar descriptions whose stall points to the problem (matched case-insensitively)."""
    if "stalls" not in raw:
        return []
    value = raw["stalls"]
    if not isinstance(value, list) or not value or not all(isinstance(i, str) for i in value):
        chk.err(node.key_line("stalls"), f"{what}: 'stalls' must be a non-empty list of progress-bar descriptions")
        return []
    out = []
    for item in value:
        if len(item.strip()) < STALL_MIN_CHARS:
            chk.err(node.key_line("stalls"), f"{what}: stall phrase {item!r} is too short "
                                             f"(at least {STALL_MIN_CHARS} characters of the bar's description)")
        elif item.strip().lower() in (o.lower() for o in out):
            chk.err(node.key_line("stalls"), f"{what}: stall phrase {item!r} is listed twice")
        else:
            out.append(item.strip())
    return out


def _problem(raw: Any, node: Node, chk: _Checker, family: str, vocab: dict, origin: str) -> Problem | None:
    pid = raw.get("id") if isinstance(raw, dict) else None
    what = f"problem '{pid}'" if isinstance(pid, str) else "problem"
    if not isinstance(raw, dict):
        chk.err(node.line, f"{what}: must be a table")
        return None
    n_before = len(chk.issues)
    chk.unknown_keys(raw, PROBLEM_KEYS, node, what)
    chk.required(raw, PROBLEM_REQUIRED, node, what)
    if isinstance(pid, str) and not ID_RE.match(pid):
        chk.err(node.key_line("id"), f"{what}: id must be a lowercase slug (a-z, 0-9, '-')")
    texts = {k: chk.text(raw, k, node, what) for k in ("title", "summary", "root_cause")}
    severity = raw.get("severity")
    if "severity" in raw and severity not in vocab.get("severities", []):
        chk.err(node.key_line("severity"), f"{what}: severity {severity!r} not in {vocab.get('severities')}")
    hardware = chk.str_list(raw, "hardware", node, what, vocab.get("hardware"), non_empty="hardware" in raw)
    components = chk.str_list(raw, "components", node, what, vocab.get("components"), non_empty="components" in raw)
    codes = [codes_mod.canonical(c) for c in chk.str_list(raw, "codes", node, what)]
    related = chk.str_list(raw, "related", node, what)
    symptoms = chk.text_lists(raw, "symptoms", node, what)
    sources = chk.sources(raw, "sources", node, what) if "sources" in raw else []
    versions = _versions(raw.get("versions"), node, chk, what)
    confirm = _condition(raw.get("confirm_when"), "confirm_when", node, chk, what)
    rule_out = _condition(raw.get("rule_out_when"), "rule_out_when", node, chk, what)
    stalls = _stalls(raw, node, chk, what)
    silent = raw.get("silent", "")
    if "silent" in raw and silent not in SILENT_KINDS:
        chk.err(node.key_line("silent"), f"{what}: silent {silent!r} not in {sorted(SILENT_KINDS)}")
    sigs_raw = raw.get("signature", [])
    signatures = []
    if not isinstance(sigs_raw, list):
        chk.err(node.key_line("signature"), f"{what}: 'signature' must be [[problem.signature]] tables")
    else:
        for i, s in enumerate(sigs_raw):
            sig = _signature(s, node.child("signature", i), chk, f"{what} signature {i + 1}")
            if sig:
                signatures.append(sig)
    fixes_raw = raw.get("fix", [])
    fixes = []
    if not isinstance(fixes_raw, list) or ("fix" in raw and not fixes_raw):
        chk.err(node.key_line("fix"), f"{what}: needs at least one [[problem.fix]]")
    else:
        for i, f in enumerate(fixes_raw):
            fx = _fix(f, node.child("fix", i), chk, f"{what} fix {i + 1}", vocab)
            if fx:
                fixes.append(fx)
    if len(chk.issues) > n_before or not isinstance(pid, str):
        return None
    return Problem(
        id=pid, family=family, title=texts["title"], summary=texts["summary"], root_cause=texts["root_cause"],
        severity=severity, hardware=hardware, components=components, symptoms=symptoms or {}, sources=sources,
        signatures=signatures, fixes=fixes, codes=codes, versions=versions, related=related,
        confirm_when=confirm, rule_out_when=rule_out, origin=origin, file=chk.file, line=node.line,
        stalls=stalls, silent=silent,
    )


def _code(raw: Any, node: Node, chk: _Checker, family: str, vocab: dict, origin: str) -> Code | None:
    code = raw.get("code") if isinstance(raw, dict) else None
    what = f"code '{code}'" if isinstance(code, (str, int)) else "code"
    if not isinstance(raw, dict):
        chk.err(node.line, f"{what}: must be a table")
        return None
    n_before = len(chk.issues)
    chk.unknown_keys(raw, CODE_KEYS, node, what)
    chk.required(raw, CODE_REQUIRED, node, what)
    if "code" in raw and (not isinstance(code, str) or not code.strip()):
        chk.err(node.key_line("code"), f"{what}: 'code' must be a string (quote numbers: code = \"561000\")")
    name = raw.get("name", "")
    if not isinstance(name, str):
        chk.err(node.key_line("name"), f"{what}: 'name' must be a string")
    meaning = chk.text(raw, "meaning", node, what)
    causes = chk.text_lists(raw, "causes", node, what)
    action = chk.text(raw, "action", node, what)
    level = raw.get("level", "")
    if family == "fault_event":
        if level not in vocab.get("fault_levels", []):
            chk.err(node.key_line("level"), f"{what}: fault_event needs 'level' in {vocab.get('fault_levels')}")
    elif level:
        chk.err(node.key_line("level"), f"{what}: 'level' is only for fault_event codes")
    problems = chk.str_list(raw, "problems", node, what)
    sources = chk.sources(raw, "sources", node, what) if "sources" in raw else []
    if len(chk.issues) > n_before:
        return None
    generic = raw.get("generic", False)
    if not isinstance(generic, bool):
        chk.err(node.key_line("generic"), f"{what}: 'generic' must be true or false")
        generic = False
    return Code(code=codes_mod.canonical_stored(code), family=family, name=name or "", meaning=meaning,
                causes=causes, sources=sources, action=action, level=level or "", problems=problems, generic=generic,
                origin=origin, file=chk.file, line=node.line, links_line=node.key_line("problems"))


def _compat(data: dict, root: Node, chk: _Checker, matrix: str, key: str) -> list[CompatRow]:
    rows = []
    for i, raw in enumerate(data.get("row", [])):
        node = root.child("row", i)
        what = f"{matrix} row {i + 1}"
        if not isinstance(raw, dict):
            chk.err(node.line, f"{what}: must be a table")
            continue
        bad = [k for k, v in raw.items() if not (isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)))]
        for k in bad:
            chk.err(node.key_line(k), f"{what}: '{k}' must be a string or a list of strings")
        if key and key not in raw:
            chk.err(node.line, f"{what}: missing key column '{key}'")
        src = chk.sources(raw, "source", node, what)
        if bad or not src or (key and key not in raw):
            continue
        data_ = {k: v for k, v in raw.items() if k != "source"}
        rows.append(CompatRow(matrix, data_, src[0], chk.file, node.line))
    for extra in sorted(set(data) - {"matrix", "row"}):
        chk.err(root.key_line(extra), f"unknown top-level key '{extra}'")
    return rows


def knowledge_files(knowledge_dir: Path) -> list[Path]:
    """Every file that makes up the knowledge, in a stable order (also what the content hash covers)."""
    files = []
    for name in ("vocabulary.toml", "synonyms.toml"):
        if (knowledge_dir / name).is_file():
            files.append(knowledge_dir / name)
    for sub in ("problems", "codes", "compat"):
        files.extend(sorted((knowledge_dir / sub).glob("*.toml")))
    return files


def load(knowledge_dir: Path, overlays: Iterable[Path] = (), root_for_display: Path | None = None) -> tuple[Knowledge, list[Issue]]:
    """Load the built-in knowledge plus overlay files (user problems/codes), checking everything."""
    issues: list[Issue] = []
    kn = Knowledge()

    def disp(p: Path) -> str:
        base = root_for_display or knowledge_dir.parent.parent
        try:
            return str(p.relative_to(base))
        except ValueError:
            return str(p)

    vocab_path = knowledge_dir / "vocabulary.toml"
    vocab, _ = _read(vocab_path, issues, disp(vocab_path))
    kn.vocabulary = {k: list(v) for k, v in (vocab or {}).items() if isinstance(v, list)}
    syn_path = knowledge_dir / "synonyms.toml"
    syn, syn_root = _read(syn_path, issues, disp(syn_path))
    seen_words: dict[str, int] = {}
    for i, g in enumerate((syn or {}).get("group", [])):
        words = g.get("words") if isinstance(g, dict) else None
        line = syn_root.child("group", i).line
        if not isinstance(words, list) or len(words) < 2 or not all(isinstance(w, str) and w.strip() for w in words):
            issues.append(Issue(disp(syn_path), line, "synonym group needs 'words' with at least two texts"))
            continue
        for w in words:
            wl = w.lower()
            if wl in seen_words:
                issues.append(Issue(disp(syn_path), line, f"synonym {w!r} is already in the group at line {seen_words[wl]}"))
            seen_words[wl] = line
        kn.synonyms.append([w.strip() for w in words])

    def load_file(path: Path, kind: str, origin: str) -> None:
        display = disp(path)
        data, root = _read(path, issues, display)
        if data is None:
            return
        chk = _Checker(display, issues)
        name = path.stem
        code_family = ""
        if kind == "overlay":
            # An overlay holds problems, codes, or both (an import such as FaultDiag's): [family] name
            # names the problem family (or, in a codes-only file, the code family), code_family the
            # family of its codes when it holds both.
            has_p, has_c = "problem" in data, "code" in data
            kind = "both" if has_p and has_c else "codes" if has_c else "problems"
            fam_raw = data.get("family") if isinstance(data.get("family"), dict) else {}
            name = str(fam_raw.get("name", "")) or ("user" if kind != "codes" else "engine")
            code_family = str(fam_raw.get("code_family", "")) or (name if kind == "codes" else "engine")
            fam_data = {k: v for k, v in fam_raw.items() if k not in ("name", "code_family")}
            data = {**data, "family": fam_data}
        fam = _family(data, root, chk, "problems" if kind == "both" else kind, name)
        if fam:
            kn.families.append(fam)
            if kind == "both":
                kn.families.append(Family("codes", code_family, fam.title))
        if kind in ("problems", "both"):
            allowed = {"family", "problem"} | ({"code"} if kind == "both" else set())
            for extra in sorted(set(data) - allowed):
                chk.err(root.key_line(extra), f"unknown top-level key '{extra}'")
            for i, raw in enumerate(data.get("problem", [])):
                p = _problem(raw, root.child("problem", i), chk, name, kn.vocabulary, origin)
                if p:
                    kn.problems.append(p)
        if kind in ("codes", "both"):
            cfam = code_family or name
            known = kn.vocabulary.get("code_families", [])
            if cfam not in known and not (origin != "builtin" and cfam in OVERLAY_CODE_FAMILIES):
                chk.err(1, f"code family '{cfam}' (the file name) is not in vocabulary.toml code_families")
            if kind == "codes":
                for extra in sorted(set(data) - {"family", "code"}):
                    chk.err(root.key_line(extra), f"unknown top-level key '{extra}'")
            for i, raw in enumerate(data.get("code", [])):
                c = _code(raw, root.child("code", i), chk, cfam, kn.vocabulary, origin)
                if c:
                    kn.codes.append(c)
        if kind == "compat":
            kn.compat.extend(_compat(data, root, chk, name, fam.key if fam else ""))

    for kind in ("problems", "codes", "compat"):
        for path in sorted((knowledge_dir / kind).glob("*.toml")):
            load_file(path, kind, "builtin")
    for path in overlays:
        load_file(path, "overlay", "faultdiag" if path.name.startswith("faultdiag") else "user")

    _cross_check(kn, issues)
    return kn, issues


def _cross_check(kn: Knowledge, issues: list[Issue]) -> None:
    by_id: dict[str, Problem] = {}
    for p in kn.problems:
        if p.id in by_id:
            first = by_id[p.id]
            issues.append(Issue(p.file, p.line, f"problem '{p.id}': duplicate id (first at {first.file}:{first.line})"))
            continue
        by_id[p.id] = p
    for p in kn.problems:
        for r in p.related:
            if r not in by_id:
                issues.append(Issue(p.file, p.line, f"problem '{p.id}': related problem '{r}' does not exist"))
    seen_codes: dict[tuple[str, str], Code] = {}
    for c in kn.codes:
        key = (c.family, c.code)
        if key in seen_codes and seen_codes[key].origin == c.origin:
            first = seen_codes[key]
            issues.append(Issue(c.file, c.line, f"code '{c.code}': duplicate in family {c.family} (first at {first.file}:{first.line})"))
        seen_codes.setdefault(key, c)
        for pid in c.problems:
            if pid not in by_id:
                issues.append(Issue(c.file, c.links_line or c.line, f"code '{c.code}': linked problem '{pid}' does not exist"))
