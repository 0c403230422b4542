"""The package's entry points are visible before any test imports roundtable's registries (`dist_info.register`)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dist_info import register  # noqa: E402  # the tests folder is put on the path first

register()
