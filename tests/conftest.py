"""Shared test settings: one assembled-model cache for the whole run."""

from __future__ import annotations

import os
from pathlib import Path

# Tests use temporary data directories; the 1.1 GB assembled model is shared
# across them (and across runs) in the repository's own data directory.
os.environ.setdefault("ROUNDTABLE_MODEL_CACHE", str(Path(__file__).resolve().parents[1] / ".roundtable" / "cache"))
