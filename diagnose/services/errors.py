"""Errors a service reports to its user: each becomes one line and a documented exit code in the CLI,
a usage error in the pytest plugin, a message in the TUI."""

EXIT_FINDINGS = 1      # findings at or above the threshold, or the thing asked for was not found
EXIT_USAGE = 2         # bad arguments or bad input
EXIT_INTERNAL = 3      # a bug: reported in one line (with --debug the traceback)


class DoctorError(Exception):
    """Something the user can act on (bad arguments, unreadable input, a knowledge base that cannot be used)."""

    exit_code = EXIT_USAGE


class UsageError(DoctorError):
    exit_code = EXIT_USAGE


class InputError(DoctorError):
    exit_code = EXIT_USAGE


class NotFound(DoctorError):
    exit_code = EXIT_FINDINGS


class InternalError(DoctorError):
    """Shipped data that does not load (the built-in rules or knowledge): a bug of ours, exit 3."""

    exit_code = EXIT_INTERNAL
