"""``ascend-doctor rules``: list the built-in rules (``explain <RULE-ID>`` shows one)."""
from __future__ import annotations

NAME = "rules"
HELP = "list the built-in check rules (ascend-doctor explain AD-CONT-001 shows one)"


def add_arguments(parser) -> None:
    from ..options import add_format, add_lang

    parser.add_argument("--group", action="append", default=[], metavar="GROUP",
                        help="only rules of this group (driver, cann, python, container, devices, network)")
    add_format(parser)
    add_lang(parser)


def run(args) -> int:

    from ascend_doctor.rules.catalog import RuleError, load_groups, load_rules

    from ...services.errors import EXIT_INTERNAL, DoctorError, UsageError
    from ..options import lang_of
    from ..output import emit

    try:
        rules = load_rules()
    except RuleError as exc:
        err = DoctorError(f"the built-in rules do not load: {exc}")
        err.exit_code = EXIT_INTERNAL
        raise err from exc
    groups = {g.id for g in load_groups()}
    wanted = [w.strip().lower() for v in args.group for w in v.split(",") if w.strip()]
    bad = [w for w in wanted if w not in groups]
    if bad:
        raise UsageError(f"unknown group '{bad[0]}' (groups: {', '.join(sorted(groups))})")
    if wanted:
        rules = [r for r in rules if r.group in wanted]
    emit("rules", rules, args.format, lang=lang_of(args))
    return 0
