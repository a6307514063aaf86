"""``ascend-doctor snapshot -o FILE``: record this machine for support (private by default)."""
from __future__ import annotations

NAME = "snapshot"
HELP = "record every probe's raw output into one JSON file (replay it with --replay FILE)"
DESCRIPTION = ("Record every probe's raw output and status on this machine into one versioned JSON file. "
               "Private by default: only allow-listed environment variables, serial numbers and UUIDs removed, "
               "no host name unless --include-hostname; the file is readable by you only (mode 0600).")


def add_arguments(parser) -> None:
    parser.add_argument("--preview", action="store_true",
                        help="show what the snapshot would hold and what it leaves out, write nothing")
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="snapshot file to write ('-' for standard output); an existing file is kept unless --force")
    parser.add_argument("--force", action="store_true", help="replace an existing output file")
    parser.add_argument("--include-hostname", action="store_true", help="keep the host name in the snapshot")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="Python interpreter whose packages are recorded (default: the current one)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=10.0,
                        help="time-out of each command (default 10)")
    parser.add_argument("--sim", metavar="PROFILE", default=None, help="record a bundled simulated machine instead")
    parser.add_argument("--node", metavar="NAME", default=None,
                        help="name of this node for 'ascend-doctor fleet' (kept in the snapshot; the host name is not)")
    parser.add_argument("--label", metavar="KEY=VALUE", action="append", default=[],
                        help="a label for 'fleet --group-by label.KEY' (rack=r07, superpod=sp1); repeatable")
    parser.add_argument("--sim-fleet", metavar="FLEET", default=None,
                        help="write every node of a bundled simulated fleet into the directory given by -o")


def run(args) -> int:
    import os
    import sys

    from ...files import write_error_texts
    from ...services.errors import InputError, UsageError
    from ...services.machine import MachineSpec, node_name, parse_labels, workload_python
    from ...snapshot import write_snapshot

    node, labels = node_name(args.node), parse_labels(args.label)
    if args.sim_fleet:
        return _write_fleet(args)
    machine = MachineSpec(sim=args.sim, python=args.python if args.sim else workload_python(args.python),
                          timeout=args.timeout)
    machine.system()                       # a bad --sim before anything else
    if not args.preview and not args.output:
        raise UsageError("snapshot needs -o FILE (or -o - for standard output), or --preview")
    if args.output and args.output != "-" and os.path.lexists(args.output) and not args.force \
            and not os.path.isdir(args.output):
        # refused before the machine is probed, with the same words the writer would use
        raise InputError(write_error_texts(args.output, FileExistsError(17, "it exists", args.output), "--force"))
    report: dict = {}
    snap = machine.snapshot(include_hostname=args.include_hostname, report=report, node=node, labels=labels)
    if args.preview:
        _print_preview(snap, report)
        if not args.output:
            return 0
    try:
        write_snapshot(snap, args.output, overwrite=args.force)
    except OSError as exc:
        raise InputError(write_error_texts(args.output, exc, "--force")) from exc
    bad = sum(1 for f in snap.facts if f["status"] != "ok")
    sys.stderr.write(f"wrote {'standard output' if args.output == '-' else args.output}: {len(snap.facts)} facts ({bad} not ok), "
                     f"{len(snap.calls)} recorded answers; mode 0600\n")
    return 0


def _write_fleet(args) -> int:
    import sys

    from ...services.errors import UsageError
    from ...services.fleet import write_sim_fleet

    if args.sim or args.node or args.label or args.preview:
        raise UsageError("--sim-fleet writes whole simulated fleets: it takes -o DIR and --force only")
    if not args.output or args.output == "-":
        raise UsageError("--sim-fleet needs -o DIR (a directory, created when absent)")
    written = write_sim_fleet(args.sim_fleet, args.output, overwrite=args.force)
    sys.stderr.write(f"wrote {len(written)} snapshot file(s) of simulated fleet {args.sim_fleet} into {args.output}; "
                     "mode 0600\n")
    return 0


def _print_preview(snap, report: dict) -> None:
    from ...render.console import visible

    bad = sum(1 for f in snap.facts if f["status"] != "ok")
    lines = [f"would write: {len(snap.facts)} facts ({bad} not ok), {report['answers_kept']} recorded answers "
             "(command outputs, files, the environment below); mode 0600",
             "environment kept: " + (", ".join(report["env_kept"]) or "-"),
             "environment left out: " + (", ".join(report["env_dropped"]) or "-"),
             "credentials removed from: " + (", ".join(report["env_values_changed"]) or "-"),
             "answers left out: " + (", ".join(f"{n} {k}" for k, n in sorted(report["answers_dropped"].items())) or "-")
             + " (other processes' open files, mounts that are not Ascend's)",
             "answers scrubbed (serial numbers, UUIDs, other processes, unrelated mounts): "
             + (", ".join(report["outputs_changed"]) or "-"),
             "host name: " + ("kept" if snap.meta.get("include_hostname") else "removed"),
             "node name: " + (snap.meta.get("node") or "- (fleet names the node by the file name)"),
             "labels: " + (", ".join(f"{k}={v}" for k, v in (snap.meta.get("labels") or {}).items()) or "-"),
             "kept for fleet checks: " + snap.meta.get("holds", "")]
    for ln in lines:
        print(visible(ln))
