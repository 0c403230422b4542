"""``roundtable show`` prints the play-quality measures of a game of either game, as computed from its record
(`roundtable.metrics.play_quality.quality_lines`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from roundtable.cli.main import app
from roundtable.metrics.play_quality import quality_lines


@pytest.mark.parametrize("game", [["werewolf", "--seed", "21", "--agents", "naive,2=random"],
                                  ["avalon", "--preset", "bench5", "--seed", "7"]])
def test_show_prints_the_play_quality_of_the_record(tmp_path: Path, game: list[str]) -> None:
    env = {"ROUNDTABLE_HOME": str(tmp_path)}
    runner = CliRunner()
    assert runner.invoke(app, ["play", *game, "--game-id", "g", "--quiet"], env=env).exit_code == 0
    shown = runner.invoke(app, ["show", "g"], env=env, catch_exceptions=False)
    record = json.loads((tmp_path / "records" / "g.json").read_text())
    lines = quality_lines(record)
    assert lines[0].startswith("Play quality, talk: parroting ") and lines[1].startswith("Play quality, decisions:")
    printed = " ".join(shown.stdout.split())
    assert all(" ".join(line.split()) in printed for line in lines)
    assert ("Ended by five rejected teams:" in printed) == (game[0] == "avalon")
