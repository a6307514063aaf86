"""``ascend-doctor check``: the environment check, for people and for CI (docs/check.md)."""
from __future__ import annotations

NAME = "check"
HELP = "check this machine (or a simulated / recorded one) against the built-in rules"
DESCRIPTION = (HELP + ". Exit code: 0 nothing at or above --fail-on, 1 findings at or above it, 2 bad usage or "
               "input, 3 internal error. See docs/check.md for the JSON schema.")


def add_arguments(parser) -> None:
    from ...render.registry import formats
    from ...services.check import FAIL_ON
    from ..machine import add_machine_options
    from ..options import add_format, add_kb, add_lang

    add_machine_options(parser)
    add_format(parser, choices=formats("check"))
    parser.add_argument("-o", "--output", metavar="FILE", default=None,
                        help="write the --format output to FILE instead of stdout")
    parser.add_argument("--json", metavar="FILE", default=None, help="also write the JSON report to FILE")
    parser.add_argument("--junit", metavar="FILE", default=None, help="also write JUnit XML to FILE")
    parser.add_argument("--markdown", metavar="FILE", default=None, help="also write the Markdown report to FILE")
    parser.add_argument("--fail-on", choices=FAIL_ON, default="error",
                        help="exit 1 when a result is at or above this level: error (FAIL), warning (FAIL, WARN, "
                             "ERROR) or never (default: error)")
    parser.add_argument("--only", action="append", default=[], metavar="IDS",
                        help="run only these rules or groups (ids, slugs or group names; comma-separated, repeatable)")
    parser.add_argument("--skip", action="append", default=[], metavar="IDS",
                        help="do not run these rules or groups (comma-separated, repeatable)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show skipped rules, the evidence, the facts used and probe timings")
    add_lang(parser)
    add_kb(parser)


def run(args) -> int:
    from ...services.check import check, rule_words, select
    from ..machine import machine_spec
    from ..options import lang_of
    from ..output import check_output_files, emit, spinner

    lang = lang_of(args)
    only, skip = rule_words(args.only), rule_words(args.skip)
    select(only, skip)                     # bad --only / --skip before anything else
    check_output_files((args.output, args.json, args.junit, args.markdown))
    machine = machine_spec(args)
    with spinner("正在检查本机…" if lang == "zh" else "Looking at the machine…"):
        report = check(machine, only=only, skip=skip, fail_on=args.fail_on, lang=lang, kb_path=args.kb)

    emit("check", report, args.format, args.output,
         {"json": args.json, "junit": args.junit, "markdown": args.markdown}, verbose=args.verbose)
    return report.exit_code
