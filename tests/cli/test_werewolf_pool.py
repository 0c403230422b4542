"""Werewolf learning series and Xu et al.'s measures against experience pool size (hand-built records, bot games)."""

from __future__ import annotations

import json
from pathlib import Path

from roundtable.experiments.config import resolve_games
from roundtable.experiments.manifest import read_runs
from roundtable.experiments.runner import run_experiment

SERIES = """
name = "wolves"
game = "werewolf"
games_per_condition = 2
parallel_games = 2

[defaults]
agents = "naive"

[[conditions]]
name = "learning"
learning = {}
"""


def test_a_werewolf_learning_series_plays_its_games_in_order(tmp_path: Path):
    config = tmp_path / "wolves.toml"
    config.write_text(SERIES)
    summary = run_experiment(config, tmp_path / "exp")
    assert summary.finished == ["learning-s0000", "learning-s0001"] and not summary.failed
    assert [r["game_id"] for r in read_runs(tmp_path / "exp")] == ["learning-s0000", "learning-s0001"]
    record = json.loads((tmp_path / "exp" / "records" / "learning-s0001.json").read_text())
    assert record["status"] == "finished"
