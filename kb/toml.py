"""``tomllib`` on every supported Python (the ``tomli`` backport before 3.11). Import it from here."""
import sys

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.9 and 3.10 only
    import tomli as tomllib

__all__ = ["tomllib"]
