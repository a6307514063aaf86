"""Where the knowledge files, the compiled database and the user overlays live."""
from __future__ import annotations

import os
from pathlib import Path

#: Built-in knowledge files shipped with the package.
KNOWLEDGE_DIR = Path(__file__).resolve().parent / "knowledge"

ENV_KB = "ASCEND_DOCTOR_KB"
ENV_DATA = "ASCEND_DOCTOR_DATA"
ENV_SITE = "ASCEND_DOCTOR_SITE_KNOWLEDGE"
#: where an administrator puts knowledge files for every user of a machine (or every node of a cluster)
SITE_OVERLAY_DIR = "/etc/ascend-doctor/knowledge.d"


def cache_base() -> Path:
    """The directory that must already exist for the cache to be created in it: the parent of
    ``$XDG_CACHE_HOME`` when that is set, else the home directory (a home that does not exist, as
    under a service account with HOME=/nonexistent, is never created)."""
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg).parent if xdg else Path(os.path.expanduser("~"))


def cache_dir() -> Path:
    """User cache directory (``$XDG_CACHE_HOME/ascend-doctor``, default ``~/.cache/ascend-doctor``)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ascend-doctor"


def data_dir() -> Path:
    """User data directory holding overlays (``$ASCEND_DOCTOR_DATA`` or ``$XDG_DATA_HOME/ascend-doctor``)."""
    if os.environ.get(ENV_DATA):
        return Path(os.environ[ENV_DATA])
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "ascend-doctor"


def overlay_dir() -> Path:
    """User overlay knowledge files (``kb add``, ``kb import-faultdiag``) are kept here."""
    return data_dir() / "overlay"


def site_overlay_dir() -> Path:
    """Site-wide overlay knowledge files (``$ASCEND_DOCTOR_SITE_KNOWLEDGE``, else
    ``/etc/ascend-doctor/knowledge.d``): read, never written by ascend-doctor."""
    return Path(os.environ.get(ENV_SITE) or SITE_OVERLAY_DIR)


def default_db_path() -> Path:
    """The compiled database: ``--kb`` / ``$ASCEND_DOCTOR_KB`` override this."""
    if os.environ.get(ENV_KB):
        return Path(os.environ[ENV_KB])
    return cache_dir() / "kb.sqlite"
