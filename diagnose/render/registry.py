"""One renderer table per report kind: it drives each command's ``--format`` choices and the output.

    formats("check")                                  -> ("text", "json", "junit", "markdown", "prometheus", "oneline")
    render("check", report, "junit")                  -> str
    render("diagnosis", d, "text", lang="zh", top=3)  -> str
"""
from __future__ import annotations

import io
import shutil
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Options:
    lang: str = "en"
    top: int = 3
    verbose: bool = False
    color: bool = False            # ANSI colour (a terminal); text only


def _text(print_fn: Callable[..., None]) -> Callable[[Any, Options], str]:
    """Text through a rich console, with one width rule for every command: on a terminal (``color``)
    prose wraps at the terminal's width; anywhere else (a pipe, a file, a CI log) nothing is wrapped, so
    every line can be copied and grepped whole. Commands and URLs are printed unwrapped on a terminal too
    (the renderers print them with ``soft_wrap=True``)."""
    def render_text(report: Any, opts: Options) -> str:
        from rich.console import Console

        from .cjk import enable

        enable()                       # Chinese breaks between characters, not only at spaces
        buf = io.StringIO()
        if opts.color:
            console = Console(file=buf, force_terminal=True, highlight=False, soft_wrap=False,
                              width=shutil.get_terminal_size((80, 24)).columns)
        else:
            console = Console(file=buf, force_terminal=False, no_color=True, highlight=False, soft_wrap=True,
                              width=UNWRAPPED_WIDTH)
        print_fn(console, report, opts)
        return buf.getvalue()
    return render_text


#: the console width when nothing is wrapped (rich still needs one for alignment)
UNWRAPPED_WIDTH = 10_000


def _check_text(console, report, opts: Options) -> None:
    from .check_text import print_check

    print_check(console, report, verbose=opts.verbose)


def _check_json(report, opts: Options) -> str:
    from .check_json import check_json

    return check_json(report)


def _check_junit(report, opts: Options) -> str:
    from .check_junit import check_junit

    return check_junit(report)


def _check_markdown(report, opts: Options) -> str:
    from .check_markdown import check_markdown

    return check_markdown(report)


def _check_oneline(report, opts: Options) -> str:
    from .check_oneline import check_oneline

    return check_oneline(report)


def _check_prometheus(report, opts: Options) -> str:
    from .prometheus import check_prometheus

    return check_prometheus(report)


def _fleet_text(console, report, opts: Options) -> None:
    from .fleet_text import print_fleet

    print_fleet(console, report, verbose=opts.verbose)


def _fleet_json(report, opts: Options) -> str:
    from .fleet_json import fleet_json

    return fleet_json(report)


def _fleet_junit(report, opts: Options) -> str:
    from .fleet_junit import fleet_junit

    return fleet_junit(report)


def _fleet_markdown(report, opts: Options) -> str:
    from .fleet_markdown import fleet_markdown

    return fleet_markdown(report)


def _fleet_prometheus(report, opts: Options) -> str:
    from .prometheus import fleet_prometheus

    return fleet_prometheus(report)


def _diagnosis_text(console, d, opts: Options) -> None:
    from .diagnosis_text import print_diagnosis

    print_diagnosis(console, d, opts.lang, opts.top, verbose=opts.verbose)


def _diagnosis_json(d, opts: Options) -> str:
    from .diagnosis_json import render_json

    return render_json(d, opts.lang, opts.top) + "\n"


def _diagnosis_markdown(d, opts: Options) -> str:
    from .diagnosis_markdown import render_markdown

    return render_markdown(d, opts.lang, opts.top)


def _compat_text(console, result, opts: Options) -> None:
    from .compat_text import print_compat

    print_compat(console, result)


def _json(report, opts: Options) -> str:
    from .console import dumps_json

    return dumps_json(report, ensure_ascii=False, indent=2) + "\n"


def _lang_text(module: str, name: str) -> Callable[[Any, Options], str]:
    """Text of ``render.<module>.<name>(console, report, lang)``, imported when first used."""
    def print_fn(console, report, opts: Options) -> None:
        from importlib import import_module

        getattr(import_module(f"{__package__}.{module}"), name)(console, report, opts.lang)
    return _text(print_fn)


def _plain(module: str, name: str, *args: Any) -> Callable[[Any, Options], str]:
    """``render.<module>.<name>(report)`` (or ``<name>(*args)(report)``), imported when first used."""
    def render_plain(report: Any, opts: Options) -> str:
        from importlib import import_module

        fn = getattr(import_module(f"{__package__}.{module}"), name)
        return (fn(*args) if args else fn)(report)
    return render_plain


#: report kind -> format -> renderer(report, Options) -> str. The first format is the default.
RENDERERS: dict[str, dict[str, Callable[[Any, Options], str]]] = {
    "check": {"text": _text(_check_text), "json": _check_json, "junit": _check_junit,
              "markdown": _check_markdown, "prometheus": _check_prometheus, "oneline": _check_oneline},
    "fleet": {"text": _text(_fleet_text), "json": _fleet_json, "junit": _fleet_junit,
              "markdown": _fleet_markdown, "prometheus": _fleet_prometheus},
    "diagnosis": {"text": _text(_diagnosis_text), "json": _diagnosis_json, "markdown": _diagnosis_markdown},
    "compat": {"text": _text(_compat_text), "json": _json},
    "compat-versions": {"text": _lang_text("catalogues", "print_versions"), "json": _plain("catalogues", "rows_json", "")},
    "explanation": {"text": _lang_text("explanation", "print_explanation"),
                    "json": _plain("explanation", "explanation_json")},
    "search": {"text": _lang_text("search", "print_search"), "json": _plain("search", "search_json")},
    "facts": {"text": _lang_text("facts", "print_facts"), "json": _plain("facts", "facts_json")},
    "rules": {"text": _lang_text("rules", "print_rule_list"), "json": _plain("rules", "rules_json")},
    "profiles": {"text": _lang_text("catalogues", "print_profiles"),
                 "json": _plain("catalogues", "rows_json", "profiles")},
    "fleets": {"text": _lang_text("catalogues", "print_fleets"), "json": _plain("catalogues", "rows_json", "fleets")},
    "kb-stats": {"text": _lang_text("catalogues", "print_kb_stats"), "json": _plain("catalogues", "kb_stats_json")},
    "kb-lint": {"text": _lang_text("catalogues", "print_lint"), "json": _plain("catalogues", "lint_json")},
    "parse": {"json": _plain("parsed", "parsed_json"), "text": _lang_text("parsed", "print_parsed")},
}


def formats(kind: str) -> tuple[str, ...]:
    return tuple(RENDERERS[kind])


def render(kind: str, report: Any, fmt: str, **options: Any) -> str:
    """``report`` of ``kind`` in format ``fmt`` (see :data:`RENDERERS`)."""
    return RENDERERS[kind][fmt](report, Options(**options))
