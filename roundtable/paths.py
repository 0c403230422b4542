"""Where roundtable keeps its data: checkpoints, records, caches.

The data directory is ``$ROUNDTABLE_HOME`` when set, otherwise ``.roundtable``
in the current working directory.
"""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """Return the data directory (created if missing).

    Returns:
        Absolute path of ``$ROUNDTABLE_HOME`` or ``./.roundtable``.
    """
    path = Path(os.environ.get("ROUNDTABLE_HOME") or ".roundtable").expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return path


def checkpoint_db() -> Path:
    """Path of the SQLite checkpoint database inside the data directory."""
    return home() / "checkpoints.sqlite"


def records_dir() -> Path:
    """Directory of the per-game JSON records (created if missing)."""
    path = home() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    """Directory for large derived files such as the assembled model (created if missing)."""
    path = home() / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path
