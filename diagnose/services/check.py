"""The environment check as a service: a machine -> CheckReport (rendered by ``render/registry.py``)."""
from __future__ import annotations

import time
from typing import Callable, Iterable

from .errors import InternalError, UsageError
from .machine import MachineSpec

FAIL_ON = ("error", "warning", "never")


def rule_words(values: Iterable[str]) -> list[str]:
    """``--only`` / ``--skip`` values: comma-separated and repeatable, as one list."""
    return [w.strip() for v in values for w in v.split(",") if w.strip()]


def select(only: Iterable[str] = (), skip: Iterable[str] = ()):
    """The rules to run; a bad selection is a UsageError and broken built-in rules an InternalError."""
    from ascend_doctor.rules.catalog import RuleError, load_rules, select_rules

    try:
        return select_rules(load_rules(), only=list(only), skip=list(skip))
    except RuleError as exc:
        raise InternalError(f"the built-in rules do not load: {exc}") from exc
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def build_report(facts, *, only: Iterable[str] = (), skip: Iterable[str] = (), fail_on: str = "error",
                 lang: str = "en", compat: Callable | None = None, fix_of: Callable | None = None,
                 origin: str = "", started: float | None = None, rules=None):
    """Run the rules (``rules``, or those ``only`` / ``skip`` select) over ``facts`` and return the
    CheckReport every renderer takes. ``fix_of(problem id)`` gives the fix of a rule that has none of its own."""
    from ascend_doctor import __version__
    from ascend_doctor.rules.catalog import load_groups, with_problem_fixes
    from ascend_doctor.rules.engine import exit_code, run_rules

    from ..render.check_common import CheckReport

    if fail_on not in FAIL_ON:
        raise UsageError(f"fail-on must be one of {', '.join(FAIL_ON)}")
    t0 = started if started is not None else time.perf_counter()
    rules = with_problem_fixes(select(only, skip) if rules is None else rules, fix_of)
    results = run_rules(rules, facts, compat)
    return CheckReport(results=results, facts=facts, lang=lang, fail_on=fail_on,
                       origin=origin or getattr(facts, "origin", ""), version=__version__,
                       duration_ms=(time.perf_counter() - t0) * 1000, exit_code=exit_code(results, fail_on),
                       groups=list(load_groups()))


def check(machine: MachineSpec, *, only: Iterable[str] = (), skip: Iterable[str] = (), fail_on: str = "error",
          lang: str = "en", kb_path: str | None = None, on_probe=None):
    """Probe ``machine`` and check it against the built-in rules. A bad rule selection is refused before
    the machine is probed."""
    from .knowledge import check_knowledge

    rules = select(only, skip)
    started = time.perf_counter()
    facts = machine.facts(on_probe=on_probe)
    compat, fix_of = check_knowledge(kb_path, lang=lang)
    return build_report(facts, fail_on=fail_on, lang=lang, compat=compat, fix_of=fix_of, started=started,
                        rules=rules)
