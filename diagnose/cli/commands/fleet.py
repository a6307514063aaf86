"""``ascend-doctor fleet DIR|FILE...``: the same check on every node of a cluster, and what differs between
them (docs/fleet.md)."""
from __future__ import annotations

NAME = "fleet"
HELP = "compare the snapshots of many nodes: per-node rules on each, cross-node rules over all"
DESCRIPTION = (HELP + ". Give snapshot files or directories of them ('ascend-doctor snapshot --node NAME -o FILE' on "
               "every node), or --sim FLEET. Exit code: 0 nothing at or above --fail-on, 1 findings, 2 bad usage or "
               "input, 3 internal error. See docs/fleet.md.")


def add_arguments(parser) -> None:
    from ...render.registry import formats
    from ...services.fleet import FAIL_ON
    from ..options import add_format, add_kb, add_lang

    parser.add_argument("paths", nargs="*", metavar="DIR|FILE", help="snapshot files, or directories of them")
    parser.add_argument("--sim", metavar="FLEET", default=None,
                        help="a bundled simulated fleet instead of files (see 'ascend-doctor profiles --fleets')")
    parser.add_argument("--expect-nodes", metavar="NODESET", default=None,
                        help="the nodes that must be there: 'node[001-064]', 'n1,n2', or @FILE")
    parser.add_argument("--baseline", metavar="FILE", default=None,
                        help="desired state (TOML [expect] table of fact -> value): the reference instead of the majority")
    parser.add_argument("--group-by", action="append", default=[], metavar="KEYS",
                        help="compare within groups of these facts or labels (default hardware.family; e.g. "
                             "hardware.family,label.superpod); comma-separated, repeatable")
    parser.add_argument("--rank-table", metavar="FILE", default=None,
                        help="the job's rank table: every server of it must match a node's NPU NICs")
    parser.add_argument("--only", action="append", default=[], metavar="IDS",
                        help="run only these fleet rules or fleet groups (comma-separated, repeatable)")
    parser.add_argument("--skip", action="append", default=[], metavar="IDS", help="do not run these fleet rules or groups")
    parser.add_argument("--no-per-node", action="store_true", help="do not run the per-node rules on each node")
    parser.add_argument("--fail-on", choices=FAIL_ON, default="error",
                        help="exit 1 when a fleet or node result is at or above this level (default: error)")
    add_format(parser, choices=formats("fleet"))
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="write the --format output to FILE instead of stdout (whole or not at all)")
    parser.add_argument("--json", metavar="FILE", default=None, help="also write the JSON report to FILE")
    parser.add_argument("--junit", metavar="FILE", default=None, help="also write JUnit XML to FILE")
    parser.add_argument("--markdown", metavar="FILE", default=None, help="also write the Markdown report to FILE")
    parser.add_argument("--prometheus", metavar="FILE", default=None, help="also write the Prometheus textfile to FILE")
    parser.add_argument("-v", "--verbose", action="store_true", help="show passing rules, every node and the versions")
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:
    from ...services.check import rule_words
    from ...services.fleet import fleet_check
    from ..options import lang_of
    from ..output import check_output_files, emit

    lang = lang_of(args)
    check_output_files((args.output, args.json, args.junit, args.markdown, args.prometheus))
    report = fleet_check(args.paths, sim=args.sim, expect_nodes=args.expect_nodes, baseline=args.baseline,
                         group_by=args.group_by, rank_table=args.rank_table, only=rule_words(args.only),
                         skip=rule_words(args.skip), per_node=not args.no_per_node, fail_on=args.fail_on, lang=lang,
                         kb_path=args.kb)
    emit("fleet", report, args.format, args.output,
         {"json": args.json, "junit": args.junit, "markdown": args.markdown, "prometheus": args.prometheus},
         verbose=args.verbose)
    return report.exit_code
