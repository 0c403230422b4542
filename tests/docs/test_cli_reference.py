"""docs/cli.md is the CLI reference that Typer generates from the command-line app, as it is now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "cli.md"
APP_MODULE = "roundtable.cli.main"
REGENERATE = f"typer {APP_MODULE} utils docs --name roundtable --output docs/cli.md"


def test_the_cli_reference_is_current(tmp_path: Path):
    generated = tmp_path / "cli.md"
    result = subprocess.run(
        [sys.executable, "-m", "typer", APP_MODULE, "utils", "docs", "--name", "roundtable",
         "--output", str(generated)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, f"typer could not generate the reference:\n{result.stderr}"
    assert REFERENCE.is_file(), f"docs/cli.md is missing; generate it with: {REGENERATE}"
    assert generated.read_text(encoding="utf-8") == REFERENCE.read_text(encoding="utf-8"), (
        f"docs/cli.md is out of date with the command-line app; regenerate it with: {REGENERATE}")
