"""``ascend-doctor check``: the environment check, for people and for CI (docs/check.md)."""
from __future__ import annotations

NAME = "check"
HELP = "check this machine (or a simulated / recorded one) against the built-in rules"
DESCRIPTION = (HELP + ". Exit code: 0 nothing at or above --fail-on, 1 findings at or above it, 2 bad usage or "
               "input, 3 internal error. See docs/check.md for the JSON schema.")
FORMATS = ("text", "json", "junit", "markdown")
FAIL_ON = ("error", "warning", "never")


def add_arguments(parser) -> None:
    from ..machine import add_machine_options
    from ..options import add_format, add_kb, add_lang

    add_machine_options(parser)
    add_format(parser, choices=FORMATS)
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


def _words(values: list[str]) -> list[str]:
    return [w.strip() for v in values for w in v.split(",") if w.strip()]


def compat_provider(args):
    """``KnowledgeBase.compat`` of the KB, or None (with a warning) when it cannot be opened."""
    import sys

    from ..errors import CLIError
    from ..options import open_kb

    try:
        kb = open_kb(args)
    except CLIError as exc:
        sys.stderr.write(f"ascend-doctor: warning: {exc}; rules that read compatibility matrices report ERROR\n")
        return None
    return kb.compat


def build_report(facts, *, only=(), skip=(), fail_on: str = "error", lang: str = "en", compat=None,
                 origin: str = "", started: float | None = None):
    """Run the rules over ``facts`` and return the CheckReport every renderer takes."""
    import time

    from ascend_doctor import __version__
    from ascend_doctor.rules.catalog import load_groups, load_rules, select_rules
    from ascend_doctor.rules.engine import exit_code, run_rules

    from ...render.check_common import CheckReport

    t0 = started if started is not None else time.perf_counter()
    rules = select_rules(load_rules(), only=list(only), skip=list(skip))
    results = run_rules(rules, facts, compat)
    return CheckReport(results=results, facts=facts, lang=lang, fail_on=fail_on,
                       origin=origin or getattr(facts, "origin", ""), version=__version__,
                       duration_ms=(time.perf_counter() - t0) * 1000, exit_code=exit_code(results, fail_on),
                       groups=list(load_groups()))


def render(report, fmt: str, verbose: bool = False, color: bool = False) -> str:
    if fmt == "json":
        from ...render.check_json import check_json

        return check_json(report)
    if fmt == "junit":
        from ...render.check_junit import check_junit

        return check_junit(report)
    if fmt == "markdown":
        from ...render.check_markdown import check_markdown

        return check_markdown(report)
    import io
    import shutil

    from rich.console import Console

    from ...render.check_text import print_check

    buf = io.StringIO()
    width = max(100, shutil.get_terminal_size((100, 24)).columns) if not color else shutil.get_terminal_size().columns
    console = Console(file=buf, force_terminal=color, no_color=not color, highlight=False, width=width)
    print_check(console, report, verbose=verbose)
    return buf.getvalue()


def _spinner(lang: str):
    """A spinner on stderr while probes run, only when stderr is a terminal."""
    import contextlib
    import sys

    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from rich.console import Console

    text = "正在检查本机…" if lang == "zh" else "Looking at the machine…"
    return Console(stderr=True).status(text, spinner="dots")


def _write(path: str, text: str) -> None:
    from ...files import write_error, write_file
    from ..errors import InputError

    try:
        write_file(path, text)
    except OSError as exc:
        raise InputError(write_error(path, exc)) from exc


def run(args) -> int:
    import sys
    import time

    from ascend_doctor.rules.catalog import RuleError, load_rules, select_rules

    from ..errors import EXIT_INTERNAL, CLIError, UsageError
    from ..machine import collect_facts
    from ..options import lang_of

    lang = lang_of(args)
    only, skip = _words(args.only), _words(args.skip)
    try:
        select_rules(load_rules(), only=only, skip=skip)      # bad --only / --skip before probing
    except RuleError as exc:
        err = CLIError(f"the built-in rules do not load: {exc}")
        err.exit_code = EXIT_INTERNAL
        raise err from exc
    except ValueError as exc:
        raise UsageError(str(exc)) from exc
    outputs = [p for p in (args.output, args.json, args.junit, args.markdown) if p]
    if len(set(outputs)) != len(outputs):
        raise UsageError("each output file may be given only once")

    started = time.perf_counter()
    with _spinner(lang):
        facts = collect_facts(args)
        compat = compat_provider(args)
        report = build_report(facts, only=only, skip=skip, fail_on=args.fail_on, lang=lang, compat=compat,
                              started=started)

    main_text = render(report, args.format, verbose=args.verbose,
                       color=args.format == "text" and not args.output and sys.stdout.isatty())
    for path, fmt in ((args.json, "json"), (args.junit, "junit"), (args.markdown, "markdown")):
        if path:
            _write(path, render(report, fmt))
    if args.output:
        _write(args.output, main_text)
    else:
        sys.stdout.write(main_text)
        sys.stdout.flush()
    return report.exit_code
