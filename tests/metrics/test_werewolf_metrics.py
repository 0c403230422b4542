"""Xu et al.'s Werewolf measures (village win rate, game length in days) from hand-built records, no model."""

from __future__ import annotations

import pytest

from roundtable.metrics import game_days, werewolf_outcomes
from roundtable.metrics.intervals import wilson


def record(winner: str | None, day: int, reason: str = "werewolves_dead") -> dict:
    return {"game_id": f"g{day}", "events": [
        {"type": "night_start", "to": None, "day": 1, "alive": [1, 2, 3]},
        {"type": "game_over", "to": None, "day": day, "winner": winner, "reason": reason, "roles": {}},
    ]}


UNFINISHED = {"game_id": "u", "events": [{"type": "night_start", "to": None, "day": 4, "alive": [1, 2]}]}


def test_village_win_rate_counts_draws_as_games_the_village_did_not_win_and_skips_unfinished_games():
    records = [record("village", 3), record("werewolves", 2, "werewolves_at_parity"), record("village", 5),
               record(None, 10, "max_days"), UNFINISHED]
    out = werewolf_outcomes(records)
    assert (out.games, out.village_wins, out.werewolf_wins, out.draws) == (4, 2, 1, 1)
    assert out.village_win_rate == 0.5 and out.village_win_interval == wilson(2, 4)
    assert out.days == (3, 2, 5, 10) and out.mean_days == 5.0
    low, high = out.days_interval
    assert 2 <= low <= 5.0 <= high <= 10


def test_game_length_is_the_day_of_the_end_and_none_while_playing():
    assert game_days(record("werewolves", 4)) == 4
    assert game_days(UNFINISHED) is None


def test_no_finished_games_give_no_rates_and_a_foreign_winner_is_refused():
    empty = werewolf_outcomes([UNFINISHED])
    assert (empty.games, empty.village_win_rate, empty.mean_days) == (0, None, None)
    with pytest.raises(ValueError, match="'good'"):
        werewolf_outcomes([record("good", 3)])


def test_the_measure_table_gives_each_condition_its_rates_and_mean_length():
    from roundtable.metrics.tables import find
    from roundtable.metrics.werewolf import werewolf_measure_table

    finished = [record("village", 3) | {"status": "finished"}, record(None, 10, "max_days") | {"status": "finished"}]
    rows = werewolf_measure_table({"a": finished + [UNFINISHED | {"status": "running"}], "b": []})
    village = find(rows, "village_win_rate", "a")
    assert (village.k, village.n, village.value, village.games) == (1, 2, 0.5, 2)
    assert (village.low, village.high) == wilson(1, 2)
    assert find(rows, "draw_rate", "a").value == 0.5 and find(rows, "werewolf_win_rate", "a").value == 0.0
    days = find(rows, "days_per_game", "a")
    assert (days.value, days.interval) == (6.5, "bootstrap")
    assert find(rows, "village_win_rate", "b").value is None and find(rows, "days_per_game", "b").value is None
