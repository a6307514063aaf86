"""The application layer: what every front end (CLI, TUI, pytest plugin) calls.

Each service takes plain values (a :class:`~.machine.MachineSpec`, paths, options) and returns a
report object; none reads argparse arguments, prints, or exits. Errors the user can act on are
:class:`~.errors.DoctorError` subclasses carrying their exit code. Renderers for the reports are
chosen through ``render/registry.py``.

    machine.MachineSpec      which machine: live, --sim profile or --replay snapshot -> System, facts, snapshot
    knowledge.open_kb        the knowledge base, built when needed
    check.check              machine -> CheckReport
    diagnosis.diagnose       logs / pasted text (+ machine facts) -> Diagnosis
"""
