"""Import MindCluster FaultDiag's (``ascend-fd``) fault knowledge graph as a user overlay.

``kg-config.json`` maps fault codes to an entry::

    {"knowledge-repository": {
        "<code>": {"attribute": {"class", "component", "module", "cause_zh", "cause_en",
                                 "description_zh", "description_en", "suggestion_zh": [..], "suggestion_en": [..]},
                   "source_file": "CANN_Plog",             # which log the patterns are searched in
                   "regex": {"in": ["a", "b"]}             # every substring must occur (AND)
                          | {"in": [["a", "b"], ["c"]]}    # OR of AND-groups
                          | {"regex": "<python regex>"}    # a real regex
                          | {"opt": [{"all": [[..], [..]], "max_lines": N}]}   # groups within N lines
                          | {},
                   "rule": [{"dst_code": "<code>"}],       # optional: fault propagation edges
                   "attr_regex": "..."}}}                  # optional: named-group extraction (ignored)

Each entry becomes one problem (id ``fd-<code slug>``, origin ``faultdiag``, source
``faultdiag:<code>``) plus one code in the ``faultdiag`` code family, so ``search``, ``explain`` and
``diagnose`` use them beside the built-in knowledge. Substring groups become signatures: the
longest substring is the literal, the regex is an anchored set of lookaheads (linear time, order
free, exactly "all substrings occur"); real regexes are kept when they compile, finish on
adversarial lines in time, and have a literal of at least three characters. Multi-line ``opt``
rules cannot be expressed per line: their groups become weaker signatures (weight 0.5).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

try:  # Python >= 3.11
    import re._constants as _sc  # type: ignore[import-not-found]
    import re._parser as _sp  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _sc  # type: ignore[no-redef]
    import sre_parse as _sp  # type: ignore[no-redef]

OVERLAY_NAME = "faultdiag.toml"
FAMILY = "faultdiag"
ORIGIN = "faultdiag"
MIN_LITERAL = 3
WEAK_WEIGHT = 0.5
MAX_SYMPTOM_PATTERNS = 3

#: FaultDiag component -> our vocabulary (components we cannot map are left out; "ascend-fd" is always set)
COMPONENTS = {
    "cann": "cann", "mindie": "mindie", "vllm-ascend": "vllm-ascend", "vllm": "vllm", "hostos": "os",
    "network": "network", "switch": "network", "lcne": "network", "mindx": "mindcluster", "pymotor": "mindie",
}


class FaultDiagError(Exception):
    """The input is not a usable kg-config.json (one line, for the CLI)."""


@dataclass
class ImportReport:
    entries: int = 0
    problems: int = 0
    codes: int = 0
    signatures: int = 0
    weak_signatures: int = 0
    skipped_patterns: list[str] = field(default_factory=list)   # "<code>: reason"
    dropped_entries: list[str] = field(default_factory=list)    # "<code>: reason"


# -- finding and reading the file -------------------------------------------------------------------

def find_installed() -> Path | None:
    """``ascend_fd/configuration/kg-config.json`` of an installed ``ascend_fd`` package (not imported)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("ascend_fd")
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    for loc in list(spec.submodule_search_locations or []) or ([str(Path(spec.origin).parent)] if spec.origin else []):
        candidate = Path(loc) / "configuration" / "kg-config.json"
        if candidate.is_file():
            return candidate
    return None


def read_kg(path: Path) -> dict[str, dict]:
    """The ``knowledge-repository`` mapping; FaultDiagError for a missing file, bad JSON or a wrong shape."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise FaultDiagError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise FaultDiagError(f"{path} is a directory, not kg-config.json") from None
    except OSError as exc:
        raise FaultDiagError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FaultDiagError(f"{path} is not JSON: {exc}") from None
    repo = data.get("knowledge-repository") if isinstance(data, dict) else None
    if not isinstance(repo, dict):
        raise FaultDiagError(f"{path} is not a FaultDiag kg-config.json: no 'knowledge-repository' object")
    if not repo:
        raise FaultDiagError(f"{path} has an empty 'knowledge-repository'")
    bad = [k for k, v in repo.items() if not isinstance(v, dict) or not isinstance(v.get("attribute"), dict)]
    if len(bad) == len(repo):
        raise FaultDiagError(f"{path} is not a FaultDiag kg-config.json: entries have no 'attribute' object")
    return repo


# -- patterns -> signatures -------------------------------------------------------------------------

@dataclass
class Sig:
    literal: str
    regex: str
    match: list[str]
    no_match: list[str]
    weight: float = 0.8


def and_group_signature(parts: list[str], weight: float = 0.8) -> Sig | None:
    """All of ``parts`` must occur in the line, in any order."""
    parts = list(dict.fromkeys(p for p in parts if isinstance(p, str) and p))
    if not parts:
        return None
    literal = max(parts, key=len)
    if len(literal.strip()) < MIN_LITERAL:
        return None
    others = [p for p in parts if p != literal and p not in literal]
    if not others:
        regex = re.escape(literal)
    else:
        regex = r"\A" + "".join(f"(?=.*?{re.escape(p)})" for p in [literal, *others])
    example = " ".join([literal, *others])
    # a line with every part but one (that is not inside the others) must not match
    no_match = []
    for drop in others:
        rest = " ".join(p for p in [literal, *others] if p != drop)
        if drop not in rest:
            no_match.append(rest)
            break
    if not no_match:
        no_match = [literal[:-1] + "\u2026"]
    return Sig(literal, regex, [example], no_match, weight)


def _literal_runs(items) -> list[str]:
    """Runs of literal characters that every match must contain (top level, through groups)."""
    runs: list[str] = []
    cur: list[str] = []
    for op, av in items:
        if op is _sc.LITERAL:
            cur.append(chr(av))
            continue
        if op is _sc.SUBPATTERN:
            sub = av[-1]
            inner = _literal_runs(sub)
            runs.append("".join(cur))
            cur = []
            runs.extend(inner)
            continue
        if op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT) and av[0] >= 1:
            runs.append("".join(cur))
            cur = []
            runs.extend(_literal_runs(av[2]))
            continue
        if op is _sc.AT:
            continue
        runs.append("".join(cur))
        cur = []
    runs.append("".join(cur))
    return [r for r in runs if r]


_CATEGORY_CHAR = {"CATEGORY_DIGIT": "0", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " ",
                  "CATEGORY_NOT_DIGIT": "a", "CATEGORY_NOT_WORD": "-", "CATEGORY_NOT_SPACE": "a"}


def _example(items) -> str:
    """A short string the parsed pattern matches (first alternative, minimum repeats)."""
    out = []
    for op, av in items:
        if op is _sc.LITERAL:
            out.append(chr(av))
        elif op is _sc.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op is _sc.ANY:
            out.append("a")
        elif op is _sc.IN:
            out.append(_class_char(av))
        elif op in (_sc.MAX_REPEAT, _sc.MIN_REPEAT):
            lo, _hi, sub = av
            out.append(_example(sub) * lo)
        elif op is _sc.SUBPATTERN:
            out.append(_example(av[-1]))
        elif op is _sc.BRANCH:
            out.append(_example(av[1][0]))
        elif op is _sc.AT:
            continue
        else:
            raise ValueError(f"cannot build an example for {op}")
    return "".join(out)


def _class_char(av) -> str:
    negate = any(op is _sc.NEGATE for op, _ in av)
    if negate:
        for c in "aZ0 -_":
            if not re.fullmatch(_sp_class_text(av), c):
                continue
            return c
        raise ValueError("negated class")
    for op, a in av:
        if op is _sc.LITERAL:
            return chr(a)
        if op is _sc.RANGE:
            return chr(a[0])
        if op is _sc.CATEGORY:
            return _CATEGORY_CHAR.get(str(a).split(".")[-1], "a")
    raise ValueError("empty class")


def _sp_class_text(av) -> str:
    # rebuild a tiny class to test candidate characters for a negated set
    parts = []
    for op, a in av:
        if op is _sc.NEGATE:
            continue
        if op is _sc.LITERAL:
            parts.append(re.escape(chr(a)))
        elif op is _sc.RANGE:
            parts.append(f"{re.escape(chr(a[0]))}-{re.escape(chr(a[1]))}")
        elif op is _sc.CATEGORY:
            parts.append({"CATEGORY_DIGIT": r"\d", "CATEGORY_WORD": r"\w", "CATEGORY_SPACE": r"\s",
                          "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_NOT_WORD": r"\W",
                          "CATEGORY_NOT_SPACE": r"\S"}.get(str(a).split(".")[-1], ""))
    return "[^" + "".join(parts) + "]"


def regex_signature(regex: str) -> tuple[Sig | None, str]:
    """A signature from a real regex, or (None, reason). Safety is checked separately (in batch)."""
    if not isinstance(regex, str) or not regex:
        return None, "empty regex"
    try:
        compiled = re.compile(regex)
        parsed = _sp.parse(regex)
    except (re.error, RecursionError, OverflowError) as exc:
        return None, f"regex does not compile ({exc})"
    runs = _literal_runs(list(parsed))
    literal = max(runs, key=len) if runs else ""
    if len(literal.strip()) < MIN_LITERAL:
        return None, "regex has no fixed text of 3+ characters to pre-filter lines"
    try:
        example = _example(list(parsed))
    except (ValueError, TypeError) as exc:
        return None, f"cannot build an example line ({exc})"
    if literal not in example or not compiled.search(example):
        return None, "cannot build an example line"
    no_match = literal if not compiled.search(literal) else literal[:-1] + "\u2026"
    return Sig(literal, regex, [example], [no_match]), ""


def entry_signatures(code: str, entry: dict, report: ImportReport) -> list[Sig]:
    rx = entry.get("regex")
    sigs: list[Sig] = []
    if not isinstance(rx, dict) or not rx:
        return sigs
    for key, value in rx.items():
        if key == "in":
            groups = value if isinstance(value, list) else []
            if groups and all(isinstance(g, list) for g in groups):
                candidates = [(g, 0.8) for g in groups]
            elif groups and all(isinstance(g, str) for g in groups):
                candidates = [(groups, 0.8)]
            else:
                report.skipped_patterns.append(f"{code}: 'in' is neither a list of texts nor a list of lists")
                continue
            for g, w in candidates:
                s = and_group_signature([x for x in g if isinstance(x, str)], w)
                if s is None:
                    report.skipped_patterns.append(f"{code}: pattern {g!r} has no text of 3+ characters")
                else:
                    sigs.append(s)
        elif key == "regex":
            s, why = regex_signature(value)
            if s is None:
                report.skipped_patterns.append(f"{code}: {why}")
            else:
                sigs.append(s)
        elif key == "opt":
            for rule in value if isinstance(value, list) else []:
                for g in (rule.get("all") if isinstance(rule, dict) else None) or []:
                    s = and_group_signature(g if isinstance(g, list) else [g], WEAK_WEIGHT)
                    if s is not None:
                        sigs.append(s)
                        report.weak_signatures += 1
                    else:
                        report.skipped_patterns.append(f"{code}: multi-line group {g!r} has no text of 3+ characters")
        else:
            report.skipped_patterns.append(f"{code}: unknown pattern kind {key!r}")
    # drop exact duplicates
    seen, out = set(), []
    for s in sigs:
        if (s.literal, s.regex) not in seen:
            seen.add((s.literal, s.regex))
            out.append(s)
    return out


# -- entries -> TOML --------------------------------------------------------------------------------

def slug(code: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", code.lower()).strip("-")
    return f"fd-{s}" if s else "fd-entry"


def _text(attr: dict, key: str) -> dict[str, str]:
    en = attr.get(f"{key}_en")
    zh = attr.get(f"{key}_zh")
    en = en.strip() if isinstance(en, str) else ""
    zh = zh.strip() if isinstance(zh, str) else ""
    return {"en": en or zh, "zh": zh or en}


def _list(attr: dict, key: str) -> dict[str, list[str]]:
    def clean(v):
        if isinstance(v, str):
            v = [v]
        return [x.strip() for x in v if isinstance(x, str) and x.strip()] if isinstance(v, list) else []

    en, zh = clean(attr.get(f"{key}_en")), clean(attr.get(f"{key}_zh"))
    return {"en": en or zh, "zh": zh or en}


def q(s: str) -> str:
    """A TOML basic string (JSON escapes are valid TOML; DEL is not allowed raw)."""
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def qlist(items: Iterable[str]) -> str:
    return "[" + ", ".join(q(i) for i in items) + "]"


@dataclass
class _Entry:
    code: str
    pid: str
    lines: list[str]


def convert(repo: dict[str, dict], source_label: str = "", check_regex=None) -> tuple[str, ImportReport, dict[int, str]]:
    """TOML text of the overlay, the report, and {first line of each entry: code} (to map issues back).

    ``check_regex(list_of_regex) -> list_of_bool`` decides which real regexes are safe (default:
    :func:`ascend_doctor.kb.regex_safety.check`).
    """
    report = ImportReport(entries=len(repo))
    entries = []
    ids: dict[str, str] = {}
    for code, entry in repo.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("attribute"), dict) or not str(code).strip():
            report.dropped_entries.append(f"{code}: no 'attribute' object")
            continue
        pid = slug(str(code))
        base, n = pid, 2
        while pid in ids.values():
            pid, n = f"{base}-{n}", n + 1
        ids[str(code)] = pid
        entries.append((str(code), entry, pid))

    sig_map = {code: entry_signatures(code, entry, report) for code, entry, _ in entries}
    real = [(code, s) for code, sigs in sig_map.items() for s in sigs
            if not s.regex.startswith(r"\A(?=") and s.regex != re.escape(s.literal)]
    if real:
        if check_regex is None:
            from .regex_safety import check

            verdicts = [t.safe for t in check([s.regex for _, s in real])]
        else:
            verdicts = list(check_regex([s.regex for _, s in real]))
        for (code, s), ok in zip(real, verdicts):
            if not ok:
                sig_map[code].remove(s)
                report.skipped_patterns.append(f"{code}: regex backtracks too long on adversarial lines")

    head = [
        "# Imported by 'ascend-doctor kb import-faultdiag' from MindCluster FaultDiag's kg-config.json"
        + (f" ({source_label})" if source_label else "") + ".",
        "# Regenerate it with the same command; edits here are overwritten.",
        "",
        "[family]",
        f"name = {q(FAMILY)}",
        f"code_family = {q(FAMILY)}",
        'title.en = "MindCluster FaultDiag knowledge (imported)"',
        'title.zh = "MindCluster FaultDiag 故障知识（导入）"',
        "",
    ]
    out: list[_Entry] = []
    for code, entry, pid in entries:
        attr = entry["attribute"]
        cause, desc = _text(attr, "cause"), _text(attr, "description")
        sugg = _list(attr, "suggestion")
        title = {lang: cause[lang] or desc[lang] or code for lang in ("en", "zh")}
        summary = {lang: desc[lang] or cause[lang] or code for lang in ("en", "zh")}
        src_file = entry.get("source_file") if isinstance(entry.get("source_file"), str) else ""
        root = {
            "en": (cause["en"] or summary["en"]) + (f" (FaultDiag class {attr.get('class')}, component "
                                                    f"{attr.get('component')}, module {attr.get('module')})"
                                                    if attr.get("class") else ""),
            "zh": (cause["zh"] or summary["zh"]) + (f"（FaultDiag 分类 {attr.get('class')}，组件 "
                                                    f"{attr.get('component')}，模块 {attr.get('module')}）"
                                                    if attr.get("class") else ""),
        }
        comps = ["ascend-fd"]
        mapped = COMPONENTS.get(str(attr.get("component", "")).strip().lower())
        if mapped:
            comps.append(mapped)
        sigs = sig_map.get(code, [])
        sym_extra = [s.match[0] for s in sigs[:MAX_SYMPTOM_PATTERNS]]
        where_en = f"Log lines in {src_file}" if src_file else ""
        where_zh = f"{src_file} 日志中的记录" if src_file else ""
        symptoms = {
            "en": [title["en"]] + ([f"{where_en}: {p}" for p in sym_extra] if where_en else sym_extra),
            "zh": [title["zh"]] + ([f"{where_zh}：{p}" for p in sym_extra] if where_zh else sym_extra),
        }
        related = []
        for r in entry.get("rule") or []:
            dst = r.get("dst_code") if isinstance(r, dict) else None
            if isinstance(dst, str) and dst in ids and ids[dst] != pid and ids[dst] not in related:
                related.append(ids[dst])
        lines = [
            "[[problem]]",
            f"id = {q(pid)}",
            f"title.en = {q(title['en'])}",
            f"title.zh = {q(title['zh'])}",
            f"summary.en = {q(summary['en'])}",
            f"summary.zh = {q(summary['zh'])}",
            f"root_cause.en = {q(root['en'])}",
            f"root_cause.zh = {q(root['zh'])}",
            'severity = "error"',
            'hardware = ["any"]',
            f"components = {qlist(comps)}",
            f"codes = {qlist([code])}",
            f"symptoms.en = {qlist(symptoms['en'])}",
            f"symptoms.zh = {qlist(symptoms['zh'])}",
            f"sources = {qlist(['faultdiag:' + code])}",
        ]
        if related:
            lines.append(f"related = {qlist(related)}")
        lines.append("")
        for s in sigs:
            lines += ["[[problem.signature]]", f"literal = {q(s.literal)}", f"regex = {q(s.regex)}"]
            if s.weight != 0.8:
                lines.append(f"weight = {s.weight}")
            lines += [f"match = {qlist(s.match)}", f"no_match = {qlist(s.no_match)}", ""]
        lines += ["[[problem.fix]]", 'kind = "workaround"',
                  'summary.en = "What FaultDiag suggests"', 'summary.zh = "FaultDiag 给出的处理建议"', ""]
        steps_en, steps_zh = sugg["en"], sugg["zh"]
        if not steps_en:
            steps_en = ["FaultDiag records no suggestion for this fault: collect the logs it is found in"
                        + (f" ({src_file})" if src_file else "") + " and contact Huawei technical support."]
            steps_zh = ["FaultDiag 未给出该故障的处理建议：请收集相关日志"
                        + (f"（{src_file}）" if src_file else "") + "并联系华为技术支持。"]
        n = max(len(steps_en), len(steps_zh))
        for i in range(n):
            en = steps_en[i] if i < len(steps_en) else steps_zh[i]
            zh = steps_zh[i] if i < len(steps_zh) else steps_en[i]
            lines += ["[[problem.fix.step]]", f"en = {q(en)}", f"zh = {q(zh)}", ""]
        lines += [
            "[[code]]",
            f"code = {q(_code_id(code))}",
            f"meaning.en = {q(summary['en'])}",
            f"meaning.zh = {q(summary['zh'])}",
            f"causes.en = {qlist([title['en']])}",
            f"causes.zh = {qlist([title['zh']])}",
            f"problems = {qlist([pid])}",
            f"sources = {qlist(['faultdiag:' + code])}",
            "",
        ]
        out.append(_Entry(code, pid, lines))
    text_lines = list(head)
    starts: dict[int, str] = {}
    for e in out:
        starts[len(text_lines) + 1] = e.code
        text_lines.extend(e.lines)
    report.problems = report.codes = len(out)
    report.signatures = sum(len(sig_map.get(e.code, [])) for e in out)
    return "\n".join(text_lines) + "\n", report, starts


def _code_id(code: str) -> str:
    """Stored code: canonical upper case, so a lower-case 'x' is never read as a wildcard."""
    code = code.strip()
    if code[:2].lower() == "0x":
        return "0x" + code[2:].upper()
    return code.upper()


def entry_at(starts: dict[int, str], line: int) -> str | None:
    best = None
    for start in sorted(starts):
        if start <= line:
            best = starts[start]
        else:
            break
    return best


def build_overlay(repo: dict[str, dict], knowledge_dir: Path, other_overlays: list[Path], tmp_dir: Path,
                  source_label: str = "", check_regex=None, rounds: int = 3) -> tuple[str, ImportReport]:
    """Convert and validate against the whole knowledge; entries the validator rejects are dropped
    (and reported) until the file validates. Raises FaultDiagError if nothing usable is left."""
    from .loader import load

    repo = dict(repo)
    dropped: list[str] = []
    report = ImportReport()
    for _ in range(rounds + 1):
        text, report, starts = convert(repo, source_label, check_regex)
        if report.problems == 0:
            raise FaultDiagError("no usable entries in the FaultDiag knowledge graph")
        probe = tmp_dir / OVERLAY_NAME
        probe.write_text(text, encoding="utf-8")
        _kn, issues = load(knowledge_dir, [*other_overlays, probe], root_for_display=tmp_dir)
        mine = [i for i in issues if i.file == OVERLAY_NAME]
        if not mine:
            report.dropped_entries = dropped + report.dropped_entries
            return text, report
        for issue in mine:
            code = entry_at(starts, issue.line)
            if code is not None and code in repo:
                del repo[code]
                dropped.append(f"{code}: {issue.message}")
        if not any(entry_at(starts, i.line) for i in mine):
            raise FaultDiagError(f"the converted knowledge does not validate: {mine[0].message}")
    raise FaultDiagError("the converted knowledge does not validate after dropping the entries it rejected")
