"""Operators ``compat_has`` / ``compat_lacks``: a row of a compatibility matrix of the knowledge base; and
``compat_superseded``: the fact's version is a pre-release (rcN, alpha, beta, dev) and a column of the matrix
lists a later release (the project's own rule: a release candidate is for early testing, and what is found
in it is fixed in later releases, not in that candidate).

Rows are chosen by ``select`` (column = literal) and ``row`` (column = fact key whose value the cell
must cover). When no row covers a version exactly, rows of the same release are used (torch_npu
2.9.0.post3 -> the 2.9.0 rows) and the note says so. With no row at all the result is unknown,
unless ``if_no_row`` says true/false (no row = no constraint).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..facts import describe_status, show
from ..version import VersionError, parse, parse_spec
from .model import Context, Outcome, family_of, lookup

#: The keys a compat predicate may have besides ``fact``, ``op`` and ``if_unknown``.
KEYS = ("matrix", "row", "select", "column", "if_no_row", "line")


def validate(cond: Mapping[str, Any], where: str) -> list[str]:
    errs: list[str] = []
    op = cond.get("op")
    if not isinstance(cond.get("matrix"), str):
        errs.append(f"{where}: op {op} needs 'matrix'")
    if not isinstance(cond.get("column"), str):
        errs.append(f"{where}: op {op} needs 'column'")
    if op == "compat_superseded":
        if "fact" not in cond:
            errs.append(f"{where}: op {op} needs 'fact' (the version to compare)")
        extra = sorted(k for k in ("row", "select", "if_no_row", "line") if k in cond)
        if extra:
            errs.append(f"{where}: op {op} takes no {extra}: it reads the whole column")
        return errs
    row, select = cond.get("row", {}), cond.get("select", {})
    if not isinstance(row, Mapping) or not isinstance(select, Mapping) or not (row or select):
        errs.append(f"{where}: op {op} needs 'row' (column = fact key) and/or 'select' (column = value)")
    if cond.get("if_no_row", "unknown") not in ("unknown", True, False):
        errs.append(f"{where}: 'if_no_row' must be \"unknown\", true or false")
    line = cond.get("line")
    if "line" in cond and (not isinstance(line, int) or isinstance(line, bool) or line < 1):
        errs.append(f"{where}: 'line' must be a positive integer (release fields to compare)")
    return errs


def _cell_values(cell: Any) -> list[str]:
    if cell is None:
        return []
    if isinstance(cell, list):
        return [str(c) for c in cell]
    return [str(cell)]


def cell_matches(cell: Any, value: Any, family: str | None) -> bool:
    """True when a matrix cell (a value, a version, a range, a series, or a list of them) covers ``value``."""
    sval = str(value).strip()
    for c in _cell_values(cell):
        if c.strip().lower() == sval.lower():
            return True
        try:
            if parse_spec(c, family).matches(sval, family):
                return True
        except VersionError:
            continue
    return False


def _versions(value: Any, cell: Any, family: str | None):
    """``value`` and each version of ``cell`` parsed, as (value, cell version) pairs; nothing unparseable."""
    try:
        v = parse(str(value), family)
    except VersionError:
        return
    for c in _cell_values(cell):
        try:
            yield v, parse(c, family)
        except VersionError:
            continue


def same_release(cell: Any, value: Any, family: str | None, fields: int | None = None) -> bool:
    """A cell version with the same release numbers as ``value`` (the first ``fields`` of them if given)."""
    for v, cv in _versions(value, cell, family):
        if not cv.vrc and not v.vrc:
            if fields:
                if cv.line(fields) == v.line(fields):
                    return True
                continue
            w = max(len(cv.release), len(v.release))
            same_kind = cv.is_prerelease == v.is_prerelease and (not v.is_prerelease or cv.quals[0] == v.quals[0])
            if same_kind and cv.release + (0,) * (w - len(cv.release)) == v.release + (0,) * (w - len(v.release)):
                return True
    return False


def _line_holds(cell: Any, value: Any, family: str | None) -> bool:
    """Whether ``value`` is a bare shorter version ('8.5') naming the line of a version in ``cell`` ('8.5.0')."""
    return any(v.names_line_of(cv) for v, cv in _versions(value, cell, family))


#: how a row's cell may hold a fact's value, tried in turn (each with the ones before it), and what the note says of
#: rows found that way: the value exactly; a release with the same numbers; any release of the line a short value
#: ('CANN 8.3') names, decided only where those releases agree
_ROW_TESTS = ((cell_matches, ""), (same_release, " (no exact row; rows of the same release)"),
             (_line_holds, " (rows of every release of the line)"))


def evaluate(cond: Mapping[str, Any], ctx: Context) -> Outcome:
    matrix = cond["matrix"]
    column = cond["column"]
    if ctx.compat is None:
        return Outcome(None, reasons=[f"compatibility matrix {matrix}: knowledge base not available"])
    rows = ctx.compat(matrix)
    if not rows:
        return Outcome(None, reasons=[f"compatibility matrix {matrix}: no rows in the knowledge base"])
    if cond["op"] == "compat_superseded":
        return _superseded(cond, ctx, rows)
    reasons: list[str] = []
    row_vals: dict[str, Any] = {}
    for col, key in (cond.get("row") or {}).items():
        fact = ctx.facts.get(key)
        if fact is None or not fact.ok:
            reasons.append(describe_status(key, fact))
        else:
            row_vals[col] = (key, fact.value)
    subject = None
    if "fact" in cond:
        found, subject, label, fact = lookup(cond, ctx)
        if not found:
            reasons.append(describe_status(cond["fact"], fact) if fact is None or not fact.ok
                           else f"{label}: no value")
    if reasons:
        return Outcome(None, reasons=reasons)
    selected = [r for r in rows if all(str(r.get(c, "")).lower() == str(v).lower()
                                       for c, v in (cond.get("select") or {}).items())]
    tests = []
    for test, approx in _ROW_TESTS:
        tests.append(test)
        picked = [r for r in selected
                  if all(any(t(r.get(c), v, family_of(k)) for t in tests) for c, (k, v) in row_vals.items())]
        if picked or not row_vals:
            break
    by_line = test is _line_holds
    want = ", ".join(f"{c}={show(v)}" for c, (_, v) in row_vals.items())
    sel = ", ".join(f"{c}={v}" for c, v in (cond.get("select") or {}).items())
    where = ", ".join(x for x in (sel, want) if x)
    if not picked:
        policy = cond.get("if_no_row", "unknown")
        note = f"{matrix}: no row for {where}"
        if policy == "unknown":
            return Outcome(None, [note], [f"{note} in the knowledge base, so this cannot be checked"])
        return Outcome(bool(policy), [note])
    fam = family_of(cond.get("fact", "")) if "fact" in cond else None
    cells = [(r, r.get(column)) for r in picked if r.get(column) not in (None, [], "")]
    if subject is None:       # no fact: "the row has a non-empty column"
        hits = [r for r, _ in cells]
    else:
        line = cond.get("line")
        hits = [r for r, cell in cells if cell_matches(cell, subject, fam)
                or (line and same_release(cell, subject, fam, line))]
    has = bool(hits)
    if by_line and cells and 0 < len(hits) < len(cells):
        note = f"{where} names a line whose releases answer differently in {matrix}"
        return Outcome(None, [note], [f"{note}, so this cannot be checked"])
    if not has and subject is not None:
        inside = [r for r, cell in cells if _line_holds(cell, subject, fam)]
        if inside:
            # 'CANN 8.5' as a report writes it: any release of the 8.5 line, and the matrix names one (8.5.0)
            note = (f"{cond['fact']} = {show(subject)} names every release of its line, and {matrix} lists "
                    f"{show(inside[0].get(column))} for {where}")
            return Outcome(None, [note], [f"{note}, so this cannot be checked"])
    shown = hits if has else [r for r, _ in cells] or picked
    listed = "; ".join(f"{show(r.get(column)) if r.get(column) not in (None, []) else '(none)'}"
                       f" [{r.get('source', '')}]" for r in shown[:4])
    subj = f"{cond['fact']} = {show(subject)}; " if subject is not None else ""
    note = f"{subj}{matrix} rows for {where}{approx}: {column} = {listed}"
    return Outcome(has if cond["op"] == "compat_has" else not has, [note])


def _superseded(cond: Mapping[str, Any], ctx: Context, rows: list[dict[str, Any]]) -> Outcome:
    """``compat_superseded``: true when the fact's version is a pre-release and ``column`` lists later ones."""
    found, subject, label, fact = lookup(cond, ctx)
    if not found:
        return Outcome(None, reasons=[describe_status(cond["fact"], fact) if fact is None or not fact.ok
                                      else f"{label}: no value"])
    fam = family_of(cond["fact"])
    try:
        v = parse(str(subject), fam)
    except VersionError:
        return Outcome(None, reasons=[f"{cond['fact']} = {show(subject)} is not a version"])
    if not v.is_prerelease:
        return Outcome(False, [f"{cond['fact']} = {show(subject)} is a final release"])
    later = []
    for r in rows:
        for c in _cell_values(r.get(cond["column"])):
            try:
                cv = parse(c, fam)
            except VersionError:
                continue                 # a range or a note, not one release
            if cv > v:
                later.append((cv, c))
    if not later:
        return Outcome(False, [f"{cond['fact']} = {show(subject)} is the newest release {cond['matrix']} lists"])
    later.sort(key=lambda x: x[0])
    newest = later[-1][1]
    finals = list(dict.fromkeys(c for cv, c in later if not cv.is_prerelease))
    note = (f"{cond['fact']} = {show(subject)} is a pre-release; {cond['matrix']} lists {len({c for _, c in later})} "
            f"later release(s), the newest {newest}" + (f" (final releases among them: {', '.join(finals[-3:])})"
                                                         if finals else ""))
    return Outcome(True, [note])
