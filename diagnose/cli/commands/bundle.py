"""``ascend-doctor bundle -o FILE.tar.gz``: everything support asks for, in one private archive."""
from __future__ import annotations

NAME = "bundle"
HELP = "support bundle: snapshot, npu-smi per device, kernel messages and the newest logs in one private .tar.gz"
DESCRIPTION = ("Gather what support needs into one .tar.gz (like nvidia-bug-report): the private snapshot, "
               "npu-smi info -t health|ecc|board|usages for every device and die, the kernel's Ascend messages "
               "(dmesg), the newest host slog, plog/device logs and msnpureport export within --log-limit, and a "
               "manifest of what was collected, left out (and why), cut and redacted. Read-only on the machine; "
               "secrets, credentials, serial numbers and (unless --include-hostname) the host name are removed; "
               "the file is readable by you only (mode 0600).")


def add_arguments(parser) -> None:
    from ...services.bundle import DEFAULT_LOG_LIMIT

    parser.add_argument("-o", "--output", metavar="FILE.tar.gz", default=None,
                        help="archive to write; an existing file is kept unless --force")
    parser.add_argument("--preview", action="store_true", help="list what the bundle would hold and leave out; write nothing")
    parser.add_argument("--force", action="store_true", help="replace an existing output file")
    parser.add_argument("--include-hostname", action="store_true", help="keep the host name (removed by default)")
    parser.add_argument("--log-limit", metavar="SIZE", default=f"{DEFAULT_LOG_LIMIT >> 20}M",
                        help=f"at most this much log text, newest first (default {DEFAULT_LOG_LIMIT >> 20}M; 512K, 1G...)")
    parser.add_argument("--msnpureport", metavar="DIR", action="append", default=[],
                        help="an msnpureport export folder (or a folder of them) besides /var/log/npu/report; repeatable")
    parser.add_argument("--python", metavar="PATH", default=None,
                        help="Python interpreter whose packages are recorded (default: the workload's)")
    parser.add_argument("--timeout", metavar="SECONDS", type=float, default=10.0,
                        help="time-out of each command (default 10)")
    parser.add_argument("--sim", metavar="PROFILE", default=None, help="bundle a bundled simulated machine instead")


def run(args) -> int:
    import os
    import sys

    from ...render.bundle_text import preview, wrote
    from ...render.console import visible
    from ...render.messages import message
    from ...services.bundle import collect_bundle, parse_size, write_bundle
    from ...services.errors import InputError, UsageError
    from ...services.machine import MachineSpec, workload_python
    from ..options import default_lang

    lang = default_lang()
    limit = parse_size(args.log_limit)
    if limit is None:
        raise UsageError(message("bundle.bad_limit", lang, value=args.log_limit))
    if args.output == "-":
        raise UsageError(message("output.no_stdout", lang, what=message("bundle.what", lang)))
    if not args.preview and not args.output:
        raise UsageError(message("bundle.needs_output", lang))
    machine = MachineSpec(sim=args.sim, python=args.python if args.sim else workload_python(args.python),
                          timeout=args.timeout)
    machine.system()                       # a bad --sim before anything else
    if args.output:
        _check_output(args.output, args.force, lang)
    bundle = collect_bundle(machine, log_limit=limit, include_hostname=args.include_hostname,
                            exports=tuple(args.msnpureport))
    if args.preview:
        sys.stdout.write(preview(bundle, lang))
        if not args.output:
            return 0
    try:
        size = write_bundle(bundle, args.output, overwrite=args.force)
    except FileExistsError as exc:
        raise InputError(message("output.exists", lang, path=visible(args.output))) from exc
    except OSError as exc:
        raise InputError(message("output.cannot_write", lang, path=visible(args.output), why=exc.strerror or exc)) from exc
    sys.stderr.write(wrote(bundle, os.path.abspath(args.output), size, lang))
    return 0


def _check_output(path: str, force: bool, lang: str) -> None:
    """Refuse before the machine is read: an existing file (unless --force), a directory, a missing folder."""
    import os

    from ...render.console import visible
    from ...render.messages import message
    from ...services.errors import InputError

    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        why = message("output.is_dir", lang)
    elif os.path.lexists(path) and not force:
        raise InputError(message("output.exists", lang, path=visible(path)))
    elif not os.path.isdir(parent):
        why = message("output.no_folder", lang, folder=visible(parent))
    else:
        return
    raise InputError(message("output.cannot_write", lang, path=visible(path), why=why))
