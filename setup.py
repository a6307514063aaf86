"""Package layout for ascend-doctor.

The repository keeps three top-level folders (kb/, rules/, diagnose/) that are
installed as ``ascend_doctor.kb``, ``ascend_doctor.rules`` and
``ascend_doctor.diagnose``. ``diagnose/_pkg`` holds the files of the
``ascend_doctor`` package itself (``__init__``, ``__main__`` and the install script
``make wheelhouse`` puts beside the wheels).

Packages and data files are found by walking the folders, so a new subpackage
or knowledge file is never left out of the wheel (tests/test_packaging.py checks).
"""
import os

from setuptools import setup

ROOTS = {"kb": "ascend_doctor.kb", "rules": "ascend_doctor.rules", "diagnose": "ascend_doctor.diagnose"}
SKIP_DIRS = {"__pycache__", "_pkg"}


def _walk():
    packages, package_dir, package_data = ["ascend_doctor"], {"ascend_doctor": "diagnose/_pkg"}, {}
    for folder, root_name in ROOTS.items():
        package_dir[root_name] = folder
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
            rel = os.path.relpath(dirpath, folder)
            if "__init__.py" in filenames:
                name = root_name if rel == "." else root_name + "." + rel.replace(os.sep, ".")
                packages.append(name)
                continue
        # data files: everything that is not a python module, relative to its root package
        data = []
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
            for f in filenames:
                if f.endswith((".py", ".pyc")):
                    continue
                data.append(os.path.relpath(os.path.join(dirpath, f), folder))
        package_data[root_name] = sorted(data)
    # the ascend_doctor package itself: its two modules and the wheelhouse's install script
    package_data["ascend_doctor"] = sorted(f for f in os.listdir("diagnose/_pkg") if not f.endswith((".py", ".pyc"))
                                           and os.path.isfile(os.path.join("diagnose/_pkg", f)))
    return packages, package_dir, package_data


PACKAGES, PACKAGE_DIR, PACKAGE_DATA = _walk()

setup(packages=PACKAGES, package_dir=PACKAGE_DIR, package_data=PACKAGE_DATA, include_package_data=False)
