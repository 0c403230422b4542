"""Ratings from hand-built records with known answers: a dominant entrant first, a known order kept, ties equal,
intervals that shrink with more games, cost per game, and the same records giving the same bytes."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from roundtable.experiments.reports.leaderboard import board_csv, board_plot, markdown
from roundtable.experiments.tournament_board import Source
from roundtable.metrics.ratings import ALL, Board, BoardRow, MatchError, leaderboard, record_match, seat_label

ROLES = [("merlin", "good"), ("servant", "good"), ("servant", "good"), ("assassin", "evil"), ("minion", "evil")]
SEATS = {"a": {"kind": "naive", "model": None, "options": {}},
         "b": {"kind": "naive", "model": None, "options": {"flavour": "avalonbench"}},
         "c": {"kind": "random", "model": None, "options": {}},
         "m": {"kind": "lga", "model": "local", "options": {}}}


def record(game_id: str, entrants: list[str], winner: str | None, calls: dict[int, int] | None = None,
           roles: list[tuple[str, str]] = ROLES, game: str = "avalon") -> dict:
    """A finished record: entrant ``entrants[i]`` plays ``roles[i]`` at seat i + 1."""
    usage = {str(p): {"calls": n, "prompt_tokens": 100 * n, "completion_tokens": 10 * n}
             for p, n in (calls or {}).items()}
    return {"game_id": game_id, "game": game, "status": "finished", "winner": winner,
            "seats": [SEATS[e] for e in entrants], "usage": usage,
            "events": [{"type": "role", "player": p, "role": r, "side": s}
                       for p, (r, s) in enumerate(roles, start=1)]}


def rotated(strength: dict[str, float], blocks: int, seed: int = 0, prefix: str = "g") -> list[dict]:
    """Games of the entrants of ``strength`` rotated through the five places (each place every entrant once per
    block); the side with the greater total strength wins, a coin with that edge decides a near tie."""
    names = sorted(strength)
    rng = random.Random(seed)
    out = []
    for block in range(blocks):
        for g in range(len(names)):
            seated = [names[(j + g + block) % len(names)] for j in range(5)]
            good = sum(strength[e] for e, (_, side) in zip(seated, ROLES, strict=True) if side == "good") / 3
            evil = sum(strength[e] for e, (_, side) in zip(seated, ROLES, strict=True) if side == "evil") / 2
            winner = "good" if rng.random() < 1 / (1 + 10 ** ((evil - good) / 400)) else "evil"
            out.append(record(f"{prefix}{block:03d}-{g}", seated, winner))
    return out


def board_of(records: list[dict], names: bool = True, resamples: int = 200, seed: int = 0) -> Board:
    return leaderboard([record_match(r, [SEATS_BY_SPEC[seat_label(s)] for s in r["seats"]] if names else None)
                        for r in records], resamples=resamples, seed=seed)


SEATS_BY_SPEC = {seat_label(spec): name for name, spec in SEATS.items()}


def row(board: Board, entrant: str, side: str = ALL) -> BoardRow:
    return next(r for r in board.rows if r.entrant == entrant and r.side == side)


def order(board: Board, system: str, side: str = ALL) -> list[str]:
    rows = [r for r in board.rows if r.side == side]
    return [r.entrant for r in sorted(rows, key=lambda r: -getattr(r, system).value)]


def test_a_dominant_entrant_rates_above_the_others_in_every_system():
    games = []
    for i, seated in enumerate(sorted(set(itertools.permutations(["a", "b", "c", "b", "c"])))):
        side_of_a = ROLES[seated.index("a")][1]
        games.append(record(f"d{i:03d}", list(seated), side_of_a))  # a's side always wins
    board = board_of(games, resamples=50)
    for system in ("openskill", "bt", "elo"):
        assert order(board, system)[0] == "a", system
        assert getattr(row(board, "a"), system).low > getattr(row(board, "b"), system).value
    assert row(board, "a").win_rate == 1.0 and row(board, "a").win_low > 0.85
    assert row(board, "a", "good").bt.value > row(board, "b", "good").bt.value
    assert row(board, "a", "evil").bt.value > row(board, "c", "evil").bt.value


def test_a_known_order_is_given_back():
    board = board_of(rotated({"a": 1800, "b": 1500, "c": 1200}, blocks=30), resamples=10)
    for system in ("openskill", "bt", "elo"):
        assert order(board, system) == ["a", "b", "c"], system
    assert [r.entrant for r in board.rows if r.side == ALL] == ["a", "b", "c"]  # rows ranked by Bradley-Terry
    assert row(board, "a").win_rate > row(board, "b").win_rate > row(board, "c").win_rate
    assert board.even_roles()


def test_symmetric_entrants_tie():
    games = []
    for i, seated in enumerate(sorted(set(itertools.permutations(["a", "b", "a", "b", "c"])))):
        games.append(record(f"t{i:03d}", list(seated), "good" if i % 2 else "evil"))
        swapped = ["b" if e == "a" else "a" if e == "b" else e for e in seated]
        games.append(record(f"u{i:03d}", swapped, "good" if i % 2 else "evil"))
    board = board_of(games, resamples=20)
    a, b = row(board, "a"), row(board, "b")
    assert a.bt.value == pytest.approx(b.bt.value, abs=1e-6)
    assert (a.wins, a.trials, a.games) == (b.wins, b.trials, b.games)


def test_draws_move_no_one_apart():
    roles = [("werewolf", "werewolves"), ("villager", "village"), ("seer", "village")]
    games = [record(f"w{i}", seated, None, roles=roles, game="werewolf")
             for i, seated in enumerate([["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]])]
    board = board_of(games, resamples=20)
    assert board.draws == 3
    for r in (row(board, e) for e in "abc"):
        assert r.wins == 0 and r.bt.value == pytest.approx(1500) and r.elo.value == pytest.approx(1500)


def test_intervals_shrink_with_more_games():
    strength = {"a": 1700, "b": 1500, "c": 1300}
    few = board_of(rotated(strength, blocks=4), resamples=100)
    many = board_of(rotated(strength, blocks=4) + rotated(strength, blocks=20, seed=1, prefix="h"), resamples=100)
    for entrant in "abc":  # Bradley-Terry is fitted to all games at once: its interval narrows as games add up
        width = [row(b, entrant).bt.high - row(b, entrant).bt.low for b in (few, many)]
        assert width[1] < 0.75 * width[0], entrant
        assert row(many, entrant).win_high - row(many, entrant).win_low < row(few, entrant).win_high - row(
            few, entrant).win_low
        assert row(many, entrant).openskill_sigma < row(few, entrant).openskill_sigma  # OpenSkill grows surer


def test_cost_per_game_is_the_entrants_seats_usage():
    games = [record("c1", ["m", "a", "a", "m", "a"], "good", calls={1: 4, 4: 6}),
             record("c2", ["a", "m", "a", "a", "a"], "evil", calls={2: 5})]
    board = board_of(games, resamples=10)
    m = row(board, "m")
    assert m.games == 2 and m.cost["calls_per_game"] == pytest.approx((4 + 6 + 5) / 2)
    assert m.cost["prompt_tokens_per_game"] == pytest.approx(750)
    assert row(board, "m", "evil").cost["calls_per_game"] == pytest.approx(6)
    assert row(board, "a").cost["calls_per_game"] == 0


def test_an_entrant_on_both_sides_counts_once_on_each():
    board = board_of([record("s1", ["a", "b", "b", "a", "c"], "good")], resamples=5)
    a = row(board, "a")
    assert (a.games, a.trials, a.wins) == (1, 2, 1)


def test_the_same_records_in_any_order_give_the_same_bytes(tmp_path: Path):
    games = rotated({"a": 1600, "b": 1500, "c": 1400}, blocks=6)
    shuffled = list(games)
    random.Random(3).shuffle(shuffled)
    boards = [board_of(games, resamples=40), board_of(shuffled, resamples=40)]
    sources = [Source(tmp_path, "t", True, len(games), len(games))]
    assert board_csv(boards[0]) == board_csv(boards[1])
    assert markdown(boards[0], sources) == markdown(boards[1], sources)
    for i, board in enumerate(boards):
        board_plot(tmp_path / f"{i}.png", board)
    assert (tmp_path / "0.png").read_bytes() == (tmp_path / "1.png").read_bytes()
    assert board_csv(board_of(games, resamples=40, seed=1)) != board_csv(boards[0])  # the seed is the bootstrap's


def test_without_names_an_entrant_is_its_seat_spec():
    board = board_of([record("n1", ["m", "a", "b", "c", "c"], "evil")], names=False, resamples=5)
    assert {r.entrant for r in board.rows} == {"lga@local", "naive", "naive[flavour=avalonbench]", "random"}


def test_records_that_cannot_be_rated_together_are_refused():
    with pytest.raises(MatchError, match="not finished"):
        record_match({**record("x", ["a"] * 5, None), "status": "running"})
    with pytest.raises(MatchError, match="several games"):
        board_of([record("x", ["a", "b", "c", "a", "b"], "good"),
                  record("y", ["a", "b", "c"], None, roles=ROLES[:3], game="werewolf")])
    with pytest.raises(MatchError, match="'a' plays as naive in game x but as random"):
        leaderboard([record_match(record("x", ["a", "b", "c", "a", "b"], "good"), ["a", "b", "c", "a", "b"]),
                     record_match(record("y", ["c", "b", "c", "a", "b"], "good"), ["a", "b", "c", "a", "b"])])
    with pytest.raises(ValueError, match="no finished game"):
        leaderboard([])
