"""pytest plugin: ``pytest --ascend-doctor`` runs the environment check once per session.

(Owned by the rules/check work; this first version only registers the option so that pytest
starts; the check itself is wired in by the check command's module.)
"""
from __future__ import annotations


def pytest_addoption(parser) -> None:
    group = parser.getgroup("ascend-doctor")
    group.addoption("--ascend-doctor", action="store_true", default=False,
                    help="run the ascend-doctor environment check before the tests")
