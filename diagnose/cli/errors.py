"""Errors the CLI turns into one line on stderr and a documented exit code."""

EXIT_OK = 0
EXIT_FINDINGS = 1      # findings at or above the threshold, or the thing asked for was not found
EXIT_USAGE = 2         # bad arguments or bad input
EXIT_INTERNAL = 3      # a bug: reported in one line (with --debug the traceback)


class CLIError(Exception):
    exit_code = EXIT_USAGE


class UsageError(CLIError):
    exit_code = EXIT_USAGE


class InputError(CLIError):
    exit_code = EXIT_USAGE


class NotFound(CLIError):
    exit_code = EXIT_FINDINGS
