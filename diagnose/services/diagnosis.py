"""The log diagnosis as a service, and the entry point of the log pipeline:

    inputs (files, folders, .gz, stdin, pasted text)
      -> evidence.read_evidence        lines read, cleaned, classified; codes; facts found in the text
      -> facts merged                  the machine's own facts win over what the text says
      -> matcher.Matcher.match         signatures, codes, words, facts -> ranked Findings
      = Diagnosis                      rendered through render/registry.py
"""
from __future__ import annotations

import os
import shutil

from .errors import InputError, UsageError, message
from .machine import MachineSpec

#: Paths whose presence says this is an Ascend machine, so its facts are worth collecting.
ASCEND_MARKERS = ("/usr/local/Ascend/driver", "/dev/davinci_manager")


def looks_like_ascend_machine() -> bool:
    return any(os.path.exists(p) for p in ASCEND_MARKERS) or shutil.which("npu-smi") is not None


def machine_facts(machine: MachineSpec | None):
    """Facts of the machine a diagnosis may use: a --sim / --replay machine always, the live one only when
    it is an Ascend machine; None when ``machine`` is None (--no-env)."""
    if machine is None:
        return None
    if not machine.is_live or looks_like_ascend_machine():
        return machine.facts()
    return None


def diagnose(kb, paths=(), text: str | None = None, facts=None, lang: str = "en"):
    """Read the inputs and match them against the knowledge: the one call every front end and bench uses."""
    from ascend_doctor.kb.language import fact_keys
    from ascend_doctor.kb.language.facts import FactSet

    from ..evidence import read_evidence
    from ..matcher import Matcher

    matcher = kb.derived("matcher", lambda: Matcher(kb))
    ev = read_evidence(paths, text=text, signatures=matcher.patterns)
    merged = FactSet(origin=getattr(facts, "origin", "") or "text")
    stated = FactSet(origin="text")
    moment = fact_keys.moment()
    for f in ev.facts:
        merged.add(f)
        if f.key not in moment:     # a pasted process table shows the job's own workers as often as another holder
            stated.add(f)
    failing = {}
    if facts is not None:
        for f in facts:           # the machine's own facts win over what the text says
            merged.add(f)
        failing = failing_checks(kb, facts, lang)
    # the rules run on what the report states too: "CANN 8.3 with driver 24.1" is a candidate by itself
    in_text = failing_checks(kb, stated, lang) if len(stated) else {}
    return matcher.match(ev, merged, lang=lang, failing=failing, failing_in_text=in_text)


def failing_checks(kb, facts, lang: str = "en") -> dict[str, tuple[str, str, str]]:
    """problem id -> (rule id, status, message) for each rule that fails or warns on the machine's own
    facts: the causes the environment check finds here are candidates of a diagnosis on the same machine."""
    from ascend_doctor.rules.catalog import load_rules
    from ascend_doctor.rules.engine import run_rules

    out: dict[str, tuple[str, str, str]] = {}
    for r in run_rules(load_rules(), facts, compat=kb.compat):
        if r.status in ("FAIL", "WARN") and r.problem and r.problem not in out:
            out[r.problem] = (r.rule, r.status, r.text("message", lang))
    return out


def require_input(d) -> None:
    """An InputError when nothing at all could be read (every input empty or unreadable)."""
    if d.lines_read == 0:
        why = {lang: "; ".join(f"{n.source}: {n.text(lang)}" for n in d.notes)
               or message("input_empty", lang) for lang in ("en", "zh")}
        raise InputError(key="nothing_to_diagnose", why=why)


def check_inputs(paths: list[str], text: str | None, stdin_is_terminal: bool) -> list[str]:
    """The paths to read (``-`` for standard input when nothing else is given and it is not a terminal)."""
    paths = list(paths)
    if text is not None and not text.strip():
        raise InputError(key="text_empty")
    if not paths and text is None:
        if stdin_is_terminal:
            raise UsageError(key="no_input")
        paths = ["-"]
    if paths.count("-") > 1:
        raise UsageError("'-' (stdin) may be given once")
    return paths
