"""The command line as a newcomer runs it, for the end-to-end tests: ``roundtable`` in a fresh process over a data
directory of the test's own, and the game records it writes there."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CLI = [sys.executable, "-m", "roundtable.cli.main"]


def run(home: Path, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess[str]:
    """``roundtable ARGS...`` with ``ROUNDTABLE_HOME=home``, no stdin, output captured as text."""
    env = os.environ | {"ROUNDTABLE_HOME": str(home)}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL)


def record(home: Path, game_id: str) -> dict:
    """The game record ``game_id`` written under ``home``."""
    return json.loads((home / "records" / f"{game_id}.json").read_text())
