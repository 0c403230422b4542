"""AvalonBench's deduction accuracy and its 0.5 baseline on hand-built records with known answers."""

from __future__ import annotations

import pytest

from roundtable.experiments.config import parse_config
from roundtable.experiments.report import measures_csv, render_markdown
from roundtable.metrics.deduction import deductions
from roundtable.metrics.intervals import wilson
from roundtable.metrics.tables import deduction_accuracy, find, measure_table

ROLES = {"1": "merlin", "2": "servant", "3": "servant", "4": "minion", "5": "assassin"}  # good: 1, 2, 3


def record(game_id: str, beliefs: dict | None, kinds=("naive",) * 5) -> dict:
    out = {"game_id": game_id, "status": "finished", "roles": ROLES, "winner": "good",
           "end_reason": "three_successful_quests", "events": [],
           "seats": [{"kind": k, "model": "m" if k == "lga" else None} for k in kinds]}
    return out if beliefs is None else out | {"beliefs": beliefs}


SURE = {"2": 1.0, "3": 1.0, "4": 0.0, "5": 0.0}  # Merlin: right on all four
ONE_WRONG = {"1": 1.0, "3": 0.5, "4": 0.0, "5": 0.6}  # right on 1, 3 (0.5 guesses good) and 4; wrong on 5
HALF = {"1": 0.5, "2": 0.5, "4": 0.5, "5": 0.5}  # 0.5 for everyone: the baseline itself


def test_each_good_player_guesses_good_at_one_half_or_more():
    found = deductions(record("a", {"1": SURE, "2": ONE_WRONG, "3": HALF}))
    assert {p: (d.right, d.guesses, d.baseline) for p, d in found.items()} == {
        1: (4, 4, 2), 2: (3, 4, 2), 3: (2, 4, 2)}


def test_an_evil_players_belief_is_not_scored_and_a_bad_one_is_refused():
    assert set(deductions(record("a", {"4": {"1": 0.0, "2": 1.0, "3": 1.0, "5": 0.0}, "1": SURE}))) == {1}
    for bad in ({"1": {"1": 1.0}}, {"1": {"9": 0.5}}, {"1": {"2": 1.5}}, {"1": {"2": "high"}}):
        with pytest.raises(ValueError, match="game 'bad'"):
            deductions(record("bad", bad))


def test_pooled_with_wilson_intervals_and_grouped_like_the_other_metrics():
    records = {"c": [record("a", {"1": SURE, "2": ONE_WRONG}, kinds=("naive", "naive", "lga", "naive", "naive")),
                     record("b", {"3": HALF}, kinds=("naive", "naive", "lga", "naive", "naive"))]}
    rows = deduction_accuracy(records)
    every = find(rows, "deduction_accuracy")
    assert (every.k, every.n, every.games) == (9, 12, 2) and (every.low, every.high) == wilson(9, 12)
    baseline = find(rows, "deduction_baseline")
    assert (baseline.k, baseline.n, baseline.value) == (6, 12, 0.5)
    servants = find(rows, "deduction_accuracy", group_by="role", group="servant")
    assert (servants.k, servants.n) == (5, 8)
    assert find(rows, "deduction_accuracy", group_by="kind", group="lga").value == 0.5
    assert find(rows, "deduction_accuracy", group_by="model", group="m").value == 0.5
    assert find(rows, "deduction_accuracy", group_by="side", group="evil") is None  # good players only
    # the same rows stand in the full table of the report
    assert [r for r in measure_table(records) if r.metric.startswith("deduction_")] == rows


def test_records_without_beliefs_give_no_guesses():
    old = record("old", None)  # a record written before the belief probe
    assert deductions(old) == {} and deductions(record("none", {})) == {}
    rows = deduction_accuracy({"c": [old]})
    every = find(rows, "deduction_accuracy")
    assert (every.n, every.value, every.low) == (0, None, None)


def test_the_report_shows_it_next_to_the_baseline_or_says_no_beliefs_were_recorded():
    config = parse_config('name = "d"\ngames_per_condition = 2\n[[conditions]]\nname = "with"\n'
                          '[[conditions]]\nname = "without"\n')
    records = {"with": [record("a", {"1": SURE, "2": ONE_WRONG}), record("b", {"3": HALF})],
               "without": [record("c", None)]}
    rows = measure_table(records)
    text = render_markdown(config, records, rows)
    section = text.split("## Deduction accuracy (AvalonBench)")[1].split("##")[0]
    assert "| with | all | 12 | 75.0% [46.8, 91.1] | 50.0% [25.4, 74.6] | - |" in section
    assert "| with | role=merlin | 4 | 100.0%" in section
    assert "| without | - | 0 | no beliefs recorded | - | - |" in section
    csv = measures_csv(rows)
    assert "deduction_accuracy,with,all,all,9,12,0.750000," in csv
    none = render_markdown(config, {"with": [record("c", None)], "without": []},
                           measure_table({"with": [record("c", None)], "without": []}))
    assert "No beliefs recorded" in none


def test_an_unusable_probe_is_left_out_counted_as_unanswered_and_not_in_vrr():
    kinds = ("lga", "lga", "naive", "naive", "naive")
    probes = [{"type": "decision", "to": [], "player": 1, "request": "belief.p1", "kind": "belief", "agent": "lga",
               "beliefs": {"2": 1.0, "3": 1.0, "4": 0.0, "5": 0.0}},
              {"type": "decision", "to": [], "player": 2, "request": "belief.p2", "kind": "belief", "agent": "lga",
               "beliefs": None, "fallback": "belief unclear: no probabilities read, left out"}]
    game = record("p", {"1": SURE, "3": HALF}, kinds) | {"events": probes}
    rows = measure_table({"c": [game]})
    assert find(rows, "probe_answered", "c", "kind", "lga").k == 1
    assert find(rows, "probe_answered", "c", "kind", "lga").n == 2
    assert find(rows, "deduction_accuracy", "c", "kind", "lga").n == 4, "player 2's unusable probe has no guess"
    assert find(rows, "VRR", "c").n == 0, "the probe is not a move"
    config = parse_config('name = "d"\ngames_per_condition = 1\n[[conditions]]\nname = "c"\n')
    text = render_markdown(config, {"c": [game]}, rows)
    section = text.split("## Deduction accuracy (AvalonBench)")[1].split("##")[0]
    assert "| c | kind=lga | 4 | 100.0%" in section and "| 50.0% [" in section


def test_another_game_scores_the_probed_sides_beliefs_by_the_sides_its_role_events_deal(monkeypatch):
    """A game whose probe asks about its own side (a Liberal's P(liberal)) is scored on that side, the sides read
    from the record's role events, not from any game's role list."""
    from dataclasses import replace

    from roundtable.games import GAMES
    from roundtable.metrics import facts, sides

    other = replace(GAMES["avalon"], name="other", probe_side="liberal", role_side=None)
    monkeypatch.setattr(sides, "GAMES", {**GAMES, "other": other})
    dealt = {1: ("liberal", "liberal"), 2: ("liberal", "liberal"), 3: ("liberal", "liberal"),
             4: ("fascist", "fascist"), 5: ("hitler", "fascist")}
    events = [{"type": "role", "to": [p], "player": p, "role": r, "side": s} for p, (r, s) in dealt.items()]
    game = {"game_id": "sh", "game": "other", "status": "finished", "winner": "liberal", "events": events,
            "roles": {str(p): r for p, (r, _) in dealt.items()}, "seats": [{"kind": "naive"}] * 5,
            "beliefs": {"1": SURE, "2": ONE_WRONG, "4": {"1": 1.0, "2": 0.0, "3": 0.0, "5": 1.0}}}
    found = deductions(game)
    assert {p: (d.right, d.guesses, d.baseline) for p, d in found.items()} == {1: (4, 4, 2), 2: (3, 4, 2)}
    rows = facts.player_facts(game)
    assert [r.side for r in rows] == ["liberal"] * 3 + ["fascist"] * 2
    assert [r.probed_side for r in rows] == [True] * 3 + [False] * 2
    with pytest.raises(ValueError, match="no role events"):
        deductions(game | {"events": []})
