"""The fleet check as a service: many snapshots -> FleetReport (rendered by ``render/registry.py``).

    inputs (snapshot files, directories of them, or a bundled simulated fleet)
      -> load every node; a broken or foreign file is a node marked unreadable, never an abort
      -> per-node rules on each node (the same rules as ``check``)
      -> fleet rules (rules/fleet/*.toml) per --group-by group, over the whole fleet or per SuperPoD
      = FleetReport

A node is named by ``meta.node`` (``snapshot --node``), else by its file name: ``node017.json`` ->
``node017``, and ``ad.json.node017`` (what ``clush --rcopy`` writes) -> ``node017``.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from .errors import InputError, InternalError, UsageError

FAIL_ON = ("error", "warning", "never")
SNAPSHOT_GLOBS = ("*.json", "*.json.*")


@dataclass
class FleetNode:
    name: str
    file: str = ""
    status: str = "ok"                   # ok | unreadable
    reason: str = ""
    facts: Any = None                    # FactSet
    labels: dict[str, str] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)
    results: list = field(default_factory=list)     # rules.engine.CheckResult

    @property
    def readable(self) -> bool:
        return self.status == "ok"

    def summary(self) -> dict[str, int]:
        from ascend_doctor.rules.engine import summarize

        return summarize(self.results)


@dataclass
class FleetReport:
    nodes: list[FleetNode]
    rules: list                          # rules.fleet_engine.FleetResult
    expected: list[str] | None = None
    group_by: list[str] = field(default_factory=list)
    groups: list[tuple[dict[str, str], list[str]]] = field(default_factory=list)
    baseline: dict[str, Any] | None = None
    baseline_file: str = ""
    rank_table_file: str = ""
    fail_on: str = "error"
    exit_code: int = 0
    lang: str = "en"
    version: str = ""
    origin: str = ""
    duration_ms: float = 0.0
    node_groups: list = field(default_factory=list)     # rules.catalog.Group of the per-node rules
    fleet_groups: list = field(default_factory=list)    # rules.fleet_catalog groups
    per_node: bool = True

    @property
    def received(self) -> list[str]:
        return [n.name for n in self.nodes]

    @property
    def missing(self) -> list[str]:
        if self.expected is None:
            return []
        have = set(self.received)
        return [n for n in self.expected if n not in have]

    @property
    def unreadable(self) -> list[FleetNode]:
        return [n for n in self.nodes if not n.readable]

    def summary(self) -> dict[str, Any]:
        from ascend_doctor.rules.engine import summarize

        fleet = {s: 0 for s in ("pass", "warn", "fail", "skip", "error")}
        for r in self.rules:
            fleet[r.status.lower()] += 1
        nodes_with = {s: sum(1 for n in self.nodes if any(r.status == s.upper() for r in n.results))
                      for s in ("fail", "warn", "error")}
        node_totals = summarize([r for n in self.nodes for r in n.results])
        return {"fleet": fleet, "nodes": {"expected": len(self.expected) if self.expected is not None else None,
                                          "received": len(self.nodes), "readable": sum(n.readable for n in self.nodes),
                                          "unreadable": len(self.unreadable), "missing": len(self.missing),
                                          "with_fail": nodes_with["fail"], "with_warn": nodes_with["warn"],
                                          "with_error": nodes_with["error"]},
                "node_results": node_totals, "fail_on": self.fail_on, "exit_code": self.exit_code}


# -- inputs ----------------------------------------------------------------------------------------------
def node_name_of(path: str, meta: dict | None = None) -> str:
    """``meta.node``, else the file name without ``.json``; ``base.json.NODE`` (clush --rcopy) -> NODE."""
    if meta and isinstance(meta.get("node"), str) and meta["node"].strip():
        return meta["node"].strip()
    base = os.path.basename(path)
    if ".json." in base:
        return base.split(".json.", 1)[1] or base
    return base[:-5] if base.endswith(".json") and len(base) > 5 else base


def snapshot_files(paths: Iterable[str]) -> list[str]:
    """The files named (each is a node) and the snapshot files of the directories named (``*.json`` and
    ``*.json.<node>``, not hidden). A path that does not exist, or a directory without snapshots, is a
    usage error."""
    import glob

    files: list[str] = []
    for p in paths:
        if os.path.isdir(p):
            found = sorted({f for g in SNAPSHOT_GLOBS for f in glob.glob(os.path.join(glob.escape(p), g))
                            if os.path.isfile(f) and not os.path.basename(f).startswith(".")})
            if not found:
                raise InputError(f"{p}: no snapshot files in this directory (*.json, or *.json.<node> as clush "
                                 "--rcopy writes them)")
            files += found
        elif os.path.lexists(p):
            files.append(p)
        else:
            raise InputError(f"{p}: no such file or directory")
    return files


def read_baseline(path: str) -> dict[str, Any]:
    """``--baseline FILE``: a TOML ``[expect]`` table of fact key (or rule subject) -> desired value."""
    from ascend_doctor.kb.toml import tomllib

    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise InputError(f"--baseline {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"--baseline {path}: not TOML ({exc})") from exc
    expect = data.get("expect")
    if not isinstance(expect, dict) or not expect:
        raise InputError(f"--baseline {path}: needs an [expect] table (\"cann.version\" = \"8.3.RC1\", ...)")
    return dict(expect)


def read_rank_table(path: str) -> dict[str, Any]:
    from ..parsers.cluster import parse_rank_table

    try:
        with open(path, "rb") as fh:
            data = fh.read(64 * 1024 * 1024)
    except OSError as exc:
        raise InputError(f"--rank-table {path}: {exc.strerror or exc}") from exc
    res = parse_rank_table(data.decode("utf-8", errors="replace"))
    if not res.ok:
        raise InputError(f"--rank-table {path}: {res.reason}")
    return res.value


def expected_nodes(spec: str | None) -> list[str] | None:
    """``--expect-nodes 'node[001-064]'``, a comma list, or ``@FILE`` (node sets, one per line or comma)."""
    from ascend_doctor.rules.nodeset import NodeSetError, expand

    if spec is None:
        return None
    text = spec
    if spec.startswith("@"):
        try:
            with open(spec[1:], encoding="utf-8") as fh:
                text = ",".join(ln.strip() for ln in fh if ln.strip() and not ln.lstrip().startswith("#"))
        except OSError as exc:
            raise InputError(f"--expect-nodes {spec}: {exc.strerror or exc}") from exc
    try:
        names = expand(text)
    except NodeSetError as exc:
        raise UsageError(f"--expect-nodes: {exc}") from exc
    if not names:
        raise UsageError("--expect-nodes names no node")
    return names


def group_keys(values: Iterable[str]) -> list[str]:
    from ascend_doctor.kb.language import fact_keys

    keys = [w.strip() for v in values for w in v.split(",") if w.strip()]
    for k in keys:
        if not (k.startswith("label.") and len(k) > 6) and not fact_keys.known(k):
            raise UsageError(f"--group-by {k}: not a fact key (docs/facts.md) nor label.<name>")
    return keys


# -- loading ---------------------------------------------------------------------------------------------
def _facts_of(snap) -> Any:
    """The node's facts: as stored when the snapshot was written by this version, else computed again
    from its recorded answers by this version's parsers (so every node is read alike)."""
    from ascend_doctor import __version__
    from ascend_doctor.kb.language.facts import Fact, FactSet

    from ..probes import collect

    if snap.meta.get("tool_version") == __version__ and snap.facts:
        facts = FactSet.from_list(snap.facts, origin=f"snapshot:{snap.path}")
    else:
        facts = collect(snap.system(), python=snap.python, timeout=float(snap.meta.get("timeout") or 10.0))
    facts.add(Fact("snapshot.tool_version", str(snap.meta.get("tool_version", "")), source="meta.tool_version"))
    return facts


def _node_from_snapshot(snap, file: str) -> FleetNode:
    labels = snap.meta.get("labels") if isinstance(snap.meta.get("labels"), dict) else {}
    meta = {k: snap.meta.get(k) for k in ("tool_version", "created", "origin", "collected_at")}
    return FleetNode(name=node_name_of(file, snap.meta), file=file, facts=_facts_of(snap),
                     labels={str(k): str(v) for k, v in labels.items()}, meta=meta)


def load_nodes(files: list[str]) -> list[FleetNode]:
    from ..snapshot import SnapshotError, load_snapshot

    nodes: list[FleetNode] = []
    for f in files:
        try:
            snap = load_snapshot(f)
            nodes.append(_node_from_snapshot(snap, f))
        except SnapshotError as exc:
            nodes.append(FleetNode(name=node_name_of(f), file=f, status="unreadable", reason=str(exc)))
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            nodes.append(FleetNode(name=node_name_of(f), file=f, status="unreadable",
                                   reason=f"{f}: not a snapshot this version can read ({type(exc).__name__}: {exc})"))
    return _dedupe(nodes)


def _dedupe(nodes: list[FleetNode]) -> list[FleetNode]:
    seen: dict[str, FleetNode] = {}
    out = []
    for n in nodes:
        if n.name in seen:
            n = FleetNode(name=f"{n.name}#{sum(1 for x in out if x.name.startswith(n.name + '#')) + 2}", file=n.file,
                          status="unreadable", reason=f"{n.file}: a second snapshot of node {n.name} "
                                                      f"(also {seen[n.name].file})")
        seen.setdefault(n.name, n)
        out.append(n)
    return out


def sim_nodes(name: str) -> tuple[list[FleetNode], Any]:
    """The nodes of a bundled simulated fleet (in memory, as the files would read) and the fleet."""
    from ..simfleet import generate, load_fleet
    from ..system import ProfileError

    try:
        fleet = load_fleet(name)
        generated = list(generate(fleet))
    except ProfileError as exc:
        raise UsageError(str(exc)) from exc
    nodes = []
    for node, kind, payload in generated:
        if kind == "snapshot":
            nodes.append(_node_from_snapshot(payload, f"{node}.json"))
        elif kind == "corrupt":
            import json

            try:
                json.loads(payload)
                reason = f"{node}.json: not a snapshot"
            except ValueError as exc:
                reason = f"{node}.json is not a snapshot (invalid JSON at line {getattr(exc, 'lineno', '?')})"
            nodes.append(FleetNode(name=node, file=f"{node}.json", status="unreadable", reason=reason))
    return nodes, fleet


def write_sim_fleet(name: str, directory: str, overwrite: bool = False) -> list[str]:
    """``snapshot --sim-fleet NAME -o DIR``: every node's file (a corrupt node's truncated file; a dropped
    node none), mode 0600."""
    from ..files import write_error_texts, write_file
    from ..simfleet import generate, load_fleet
    from ..snapshot import write_snapshot
    from ..system import ProfileError

    try:
        fleet = load_fleet(name)
    except ProfileError as exc:
        raise UsageError(str(exc)) from exc
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create {directory}: {exc.strerror or exc}") from exc
    written = []
    for node, kind, payload in generate(fleet):
        path = os.path.join(directory, f"{node}.json")
        try:
            if kind == "snapshot":
                write_snapshot(payload, path, overwrite=overwrite)
            elif kind == "corrupt":
                write_file(path, payload, mode=0o600, overwrite=overwrite)
            else:
                continue
        except OSError as exc:
            raise InputError(write_error_texts(path, exc, "--force")) from exc
        written.append(path)
    return written


# -- the check -------------------------------------------------------------------------------------------
def _node_rule_runner(rules: list, compat):
    """The per-node rules as a function of a node's facts. A rule's result depends only on the facts it
    reads (its conditions and its texts) and on the knowledge, so nodes that agree on those share one
    evaluation: a fleet of identical nodes costs little more than one node."""
    from ascend_doctor.rules.engine import evaluate_rule

    used = {r.id: r.facts_used() for r in rules}
    memo: dict[tuple, Any] = {}

    def key_of(rule, facts) -> tuple:
        parts = []
        for k in used[rule.id]:
            f = facts.get(k)
            parts.append((k, None, None, None) if f is None else (k, f.status, repr(f.value), f.detail))
        return (rule.id, tuple(parts))

    def run(facts) -> list:
        out = []
        for rule in rules:
            key = key_of(rule, facts)
            if key not in memo:
                memo[key] = evaluate_rule(rule, facts, compat)
            out.append(memo[key])
        return out

    return run



def fleet_check(paths: Iterable[str] = (), *, sim: str | None = None, expect_nodes: str | None = None,
                baseline: str | None = None, group_by: Iterable[str] = (), rank_table: str | None = None,
                only: Iterable[str] = (), skip: Iterable[str] = (), per_node: bool = True, fail_on: str = "error",
                lang: str = "en", kb_path: str | None = None,
                on_node: Callable[[int, int], None] | None = None) -> FleetReport:
    """Load the nodes (snapshot files and directories, or ``sim``), run the per-node rules on each and the
    fleet rules over all of them."""
    from ascend_doctor import __version__
    from ascend_doctor.kb.language.conditions.fleet import FleetContext
    from ascend_doctor.rules import catalog, fleet_catalog
    from ascend_doctor.rules.catalog import RuleError, with_problem_fixes
    from ascend_doctor.rules.engine import LEVEL
    from ascend_doctor.rules.engine import FAIL_ON as LEVELS
    from ascend_doctor.rules.fleet_engine import DEFAULT_GROUP_BY, group_nodes, run_fleet_rules

    from .check import select
    from .knowledge import check_knowledge

    t0 = time.perf_counter()
    if fail_on not in FAIL_ON:
        raise UsageError(f"fail-on must be one of {', '.join(FAIL_ON)}")
    paths = list(paths)
    if sim and paths:
        raise UsageError("give snapshot files / directories or --sim FLEET, not both")
    if not sim and not paths:
        raise UsageError("give snapshot files or directories (DIR|FILE...), or --sim FLEET")
    try:
        rules = fleet_catalog.select_fleet_rules(fleet_catalog.load_fleet_rules(), only=list(only), skip=list(skip))
    except RuleError as exc:
        raise InternalError(f"the built-in fleet rules do not load: {exc}") from exc
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    keys = group_keys(group_by) or list(DEFAULT_GROUP_BY)
    expected = expected_nodes(expect_nodes)
    base = read_baseline(baseline) if baseline else None
    table = read_rank_table(rank_table) if rank_table else None
    node_rules = select() if per_node else []
    origin = ""
    if sim:
        nodes, fleet = sim_nodes(sim)
        origin = f"sim-fleet:{sim}"
        if expected is None and fleet.expect:
            expected = list(fleet.nodes)
    else:
        files = snapshot_files(paths)
        nodes = load_nodes(files)
        origin = ", ".join(paths)
    compat, fix_of = check_knowledge(kb_path, lang=lang) if node_rules else (None, None)
    node_rules = with_problem_fixes(node_rules, fix_of)
    memo: dict[str, list] = {}

    def cached(name: str) -> list:
        if name not in memo:
            memo[name] = compat(name) if compat else []
        return memo[name]

    readable = [n for n in nodes if n.readable]
    run = _node_rule_runner(node_rules, cached if compat else None)
    for i, n in enumerate(readable, 1):
        if node_rules:
            n.results = run(n.facts)
        if on_node is not None:
            on_node(i, len(readable))
    members = {n.name: n.facts for n in readable}
    labels = {n.name: n.labels for n in readable}
    fctx = FleetContext(baseline=base or {}, expected=expected, received=[n.name for n in nodes],
                        unreadable={n.name: n.reason for n in nodes if not n.readable}, rank_table=table)
    results = run_fleet_rules(rules, members, fctx, group_by=keys, labels=labels)
    threshold = LEVELS[fail_on]
    worst = max([LEVEL[r.status] for r in results] + [LEVEL[r.status] for n in readable for r in n.results] + [0])
    report = FleetReport(nodes=nodes, rules=results, expected=expected, group_by=keys,
                         groups=[(dict(k), v) for k, v in group_nodes(members, keys, labels).items()],
                         baseline=base, baseline_file=baseline or "", rank_table_file=rank_table or "",
                         fail_on=fail_on, exit_code=1 if worst >= threshold else 0, lang=lang, version=__version__,
                         origin=origin, node_groups=list(catalog.load_groups()),
                         fleet_groups=list(fleet_catalog.load_groups()), per_node=per_node)
    report.duration_ms = (time.perf_counter() - t0) * 1000
    return report
