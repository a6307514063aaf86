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


def _text(print_fn: Callable[..., None], min_width: int = 0) -> Callable[[Any, Options], str]:
    def render_text(report: Any, opts: Options) -> str:
        from rich.console import Console

        buf = io.StringIO()
        columns = shutil.get_terminal_size((100 if min_width else 80, 24)).columns
        width = columns if opts.color or not min_width else max(min_width, columns)
        console = Console(file=buf, force_terminal=opts.color, no_color=None if opts.color else True, highlight=False,
                          width=width, soft_wrap=False)
        print_fn(console, report, opts)
        return buf.getvalue()
    return render_text


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


#: report kind -> format -> renderer(report, Options) -> str. The first format is the default.
RENDERERS: dict[str, dict[str, Callable[[Any, Options], str]]] = {
    "check": {"text": _text(_check_text, min_width=100), "json": _check_json, "junit": _check_junit,
              "markdown": _check_markdown, "prometheus": _check_prometheus, "oneline": _check_oneline},
    "fleet": {"text": _text(_fleet_text, min_width=100), "json": _fleet_json, "junit": _fleet_junit,
              "markdown": _fleet_markdown, "prometheus": _fleet_prometheus},
    "diagnosis": {"text": _text(_diagnosis_text), "json": _diagnosis_json, "markdown": _diagnosis_markdown},
    "compat": {"text": _text(_compat_text), "json": _json},
}


def formats(kind: str) -> tuple[str, ...]:
    return tuple(RENDERERS[kind])


def render(kind: str, report: Any, fmt: str, **options: Any) -> str:
    """``report`` of ``kind`` in format ``fmt`` (see :data:`RENDERERS`)."""
    return RENDERERS[kind][fmt](report, Options(**options))
