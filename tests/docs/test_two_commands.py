"""The test command is written once in effect: the README's, run by ``.ci/run`` and shown on the docs' home page
(docs/index.md#the-two-commands), so a newcomer copies what CI runs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def readme_test_command() -> str:
    """The README's line that sets up and runs the tests."""
    (line,) = [line for line in (ROOT / "README.md").read_text().splitlines() if ".ci/checks" in line]
    return line


def test_ci_and_the_docs_home_run_the_readmes_test_command() -> None:
    command = readme_test_command()
    assert command in (ROOT / ".ci" / "run").read_text()
    assert command in (ROOT / "docs" / "index.md").read_text()
