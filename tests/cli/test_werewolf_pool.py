"""Werewolf learning series and Xu et al.'s measures against experience pool size (hand-built records, bot games)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


CGA = {"kind": "cga", "model": "local"}


def pool_entry(player: int, pool: str | None, games: int, reads: bool = True) -> dict:
    return {"type": "experience_pool", "to": [], "player": player, "pool": pool, "reads": reads and pool is not None,
            "games": games, "experiences": 7 * games}


def game(game_id: str, winner: str | None, day: int, pool_games: int | None, *, cga: bool = True) -> dict:
    """A finished 7-player game whose village seats (1-4) play with a pool of ``pool_games`` games (``None``:
    recorded before seats logged their pool), its werewolves (5-7) without."""
    seats = [CGA | {"options": {"pool": "village"}} if cga and pool_games is not None and p <= 4
             else CGA | {"options": {"pool": "old"}} if cga and pool_games is None and p <= 4
             else CGA if cga else {"kind": "naive"} for p in range(1, 8)]
    events = []
    if cga and pool_games is not None:
        events = [pool_entry(p, "village" if p <= 4 else None, pool_games if p <= 4 else 0) for p in range(1, 8)]
    events += [{"type": "game_over", "to": None, "day": day, "winner": winner, "reason": "r", "roles": {}}]
    return {"game_id": game_id, "status": "finished", "seats": seats, "events": events}


def test_a_games_pool_size_is_the_largest_pool_read_counted_in_games():
    from roundtable.metrics.pools import bin_label, pool_bin, pool_size

    assert pool_size(game("g", "village", 3, 12)) == 12
    assert pool_size(game("g", "village", 3, 12, cga=False)) == 0  # no cga seat: no pool
    assert pool_size(game("g", "village", 3, None)) is None  # a cga seat named a pool the record does not size
    unread = game("g", "village", 3, 0)
    unread["events"][0] = pool_entry(1, "big", 40, reads=False)  # a seat that only writes to a pool
    assert pool_size(unread) == 0
    assert [pool_bin(s) for s in (0, 9, 10, 19, 40)] == [0, 0, 10, 10, 40] and bin_label(10) == "10-19"
    with pytest.raises(ValueError):
        pool_bin(-1)


def series() -> dict[str, list[dict]]:
    """``pool-0``: 3 games without a pool; ``learning``: game k with the k - 1 games before it (12 games), the
    village winning from the 6th game on, games growing shorter; one old record without its pool size."""
    return {"pool-0": [game(f"pool-0-s{i:04d}", "werewolves", 4, 0, cga=False) for i in range(3)],
            "learning": [game(f"learning-s{k:04d}", "village" if k >= 5 else "werewolves", 6 - k // 5, k)
                         for k in range(12)] + [game("learning-old", "village", 2, None)]}


def test_village_win_rate_and_length_are_binned_by_pool_size():
    from roundtable.metrics.intervals import wilson
    from roundtable.metrics.tables import find
    from roundtable.metrics.werewolf import POOL_GROUP, werewolf_pool_table

    rows = werewolf_pool_table(series())
    assert [(r.condition, r.group) for r in rows if r.metric == "village_win_rate"] == [
        ("pool-0", "0"), ("learning", "0"), ("learning", "10"), ("learning", "unknown")]
    first = find(rows, "village_win_rate", "learning", POOL_GROUP, "0")
    assert (first.k, first.n, first.games, (first.low, first.high)) == (5, 10, 10, wilson(5, 10))
    later = find(rows, "village_win_rate", "learning", POOL_GROUP, "10")
    assert (later.k, later.n, later.value) == (2, 2, 1.0)
    days = find(rows, "days_per_game", "learning", POOL_GROUP, "0")
    assert (days.value, days.interval) == ((5 * 6 + 5 * 5) / 10, "bootstrap") and days.low <= days.value <= days.high
    assert find(rows, "days_per_game", "learning", POOL_GROUP, "10").value == 4.0
    assert find(rows, "village_win_rate", "pool-0", POOL_GROUP, "0").value == 0.0


def test_the_report_plots_and_tables_them_byte_identically(tmp_path: Path):
    from roundtable.experiments.config import parse_config
    from roundtable.experiments.report import write_report

    text = SERIES.replace("games_per_condition = 2", "games_per_condition = 12").replace(
        '[[conditions]]\nname = "learning"', '[[conditions]]\nname = "pool-0"\n\n[[conditions]]\nname = "learning"')
    config = parse_config(text)
    games = resolve_games(config)
    (tmp_path / "exp" / "records").mkdir(parents=True)
    for items in series().values():
        for record in items:
            (tmp_path / "exp" / "records" / f"{record['game_id']}.json").write_text(json.dumps(record))
    old = game("learning-s0011", "village", 2, None)  # the series' last game, recorded before pools were logged
    (tmp_path / "exp" / "records" / "learning-s0011.json").write_text(json.dumps(old))
    first = write_report(tmp_path / "exp", config, games, tmp_path / "a").parent
    second = write_report(tmp_path / "exp", config, games, tmp_path / "b").parent
    for name in ("report.md", "measures.csv", "cost.csv", "win_rate.png", "pool_size.png"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    report = (first / "report.md").read_text()
    section = report.split("against experience pool size")[1]
    assert "| pool-0 | 0-9 | 3 | 0.0% [0.0, 56.1] | 4.00 [4.00, 4.00] |" in section
    assert "| learning | 10-19 | 1 | 100.0% [20.7, 100.0] | 4.00 [4.00, 4.00] |" in section
    assert "| learning | unknown (not recorded) | 1 | 100.0% [20.7, 100.0] | 2.00 [2.00, 2.00] |" in section
    assert "learning-old" not in report  # not a planned game of the experiment
    assert "pool_games,10," in (first / "measures.csv").read_text()
    assert (first / "pool_size.png").stat().st_size > 1000
