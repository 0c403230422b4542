"""A third game and a new agent kind from a package of their own, declared by entry points, with no file of this
project edited: both pass the shipped conformance suites and appear in ``roundtable --help``, the kind list and
the graph registry, the package's commands are ``roundtable toy ...``, and a game of the toy game plays to its end
through the generic game graph."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TOY = Path(__file__).resolve().parent / "toy"


def install_on_path(tmp_path: Path) -> Path:
    """The toy package's modules and a ``dist-info`` declaring its entry points, in ``tmp_path`` (put on the path,
    importlib.metadata finds the distribution as it would an installed one)."""
    for module in ("toy_game.py", "toy_kind.py"):
        (tmp_path / module).write_text((TOY / module).read_text())
    info = tmp_path / "roundtable_toy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: roundtable-toy\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[roundtable.games]\ntoy = toy_game:RULES\n\n"
                                           "[roundtable.agents]\nparrot = toy_kind:KIND\n\n"
                                           "[roundtable.commands]\ntoy = toy_kind:commands\n")
    return tmp_path


def test_a_toy_game_and_kind_from_another_package_plug_in(tmp_path):
    path = install_on_path(tmp_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(path), os.environ.get("PYTHONPATH", "")]),
           "ROUNDTABLE_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, str(TOY / "check_plugin.py")], env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "toy plugin ok" in done.stdout


def test_without_the_package_the_toy_game_is_unknown():
    from roundtable.agents.registry import AGENT_KINDS
    from roundtable.games import GAMES

    assert "toy" not in GAMES and "parrot" not in AGENT_KINDS
