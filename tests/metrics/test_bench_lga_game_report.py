"""``benchmarks/bench_lga_game.py --report``: the distribution of a (stopped) run's games, from its summary file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmark_scripts import load_script


def bench():
    return load_script("bench_lga_game")


def game(seed: int, minutes: float, teams: int) -> dict:
    return {"game_id": f"g{seed}", "seed": seed, "wall_s": minutes * 60, "quests": 1, "teams_voted": teams,
            "calls": 13 * teams, "uncached_tokens": 4000 * teams, "generated_tokens": 700 * teams, "re_asks": seed,
            "usage": {}}


def test_the_report_lists_each_game_and_the_median_90th_percentile_and_maximum(tmp_path: Path) -> None:
    games = [game(1, 14.0, 8), game(2, 12.0, 7), game(3, 10.0, 6)]
    (tmp_path / "bench_lga_game.json").write_text(json.dumps({"home": str(tmp_path), "games": games}))
    text = bench().report(tmp_path)
    assert "| 2 | 1 | 7 | 12.0 | 91 | 28,000 | 4,900 | 2 |" in text
    assert "over 3 games" in text
    assert "| wall min | 12.0 | 13.6 | 14.0 |" in text
    assert "| teams voted | 7 | 8 | 8 |" in text


def test_a_directory_without_games_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        bench().report(tmp_path)
    (tmp_path / "bench_lga_game.json").write_text(json.dumps({"home": str(tmp_path), "games": []}))
    with pytest.raises(ValueError, match="no game in"):
        bench().report(tmp_path)


def test_the_report_pools_the_games_of_several_directories(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    for home, games in ((first, [game(1, 14.0, 8)]), (second, [game(2, 12.0, 7), game(3, 10.0, 6)])):
        home.mkdir()
        (home / "bench_lga_game.json").write_text(json.dumps({"home": str(home), "games": games}))
    text = bench().report(first, second)
    assert "over 3 games" in text and "| 1 | 1 | 8 | 14.0 |" in text and "| 3 | 1 | 6 | 10.0 |" in text
    assert "| wall min | 12.0 | 13.6 | 14.0 |" in text


def test_a_second_run_into_a_directory_adds_its_games_to_the_first_runs(tmp_path: Path) -> None:
    module = bench()
    module.save_games(tmp_path, [game(1, 14.0, 8), game(2, 12.0, 7)])
    module.save_games(tmp_path, [game(3, 10.0, 6)])
    module.save_games(tmp_path, [game(3, 11.0, 6), game(4, 9.0, 5)])  # seed 3's game again: replaced, not doubled
    saved = json.loads((tmp_path / "bench_lga_game.json").read_text())["games"]
    assert [(g["seed"], g["wall_s"]) for g in saved] == [(1, 840.0), (2, 720.0), (3, 660.0), (4, 540.0)]
