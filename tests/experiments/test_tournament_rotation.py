"""Tournaments: entrants rotated evenly through every role place, seats from the game's deal, and refusals of a
tournament that cannot rotate evenly or of an entrant that would not start, before any game."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roundtable.agents.registry import AGENT_KINDS
from roundtable.experiments.config import ExperimentConfigError, parse_config, resolve_games
from roundtable.experiments.runner import run_experiment
from roundtable.experiments.tournament import Tournament, place_entrants, places, seat_entrants
from roundtable.games import GAMES

ENTRANTS = """
[tournament]
seed = {seed}

[[tournament.entrants]]
name = "naive"
agent = "naive"

[[tournament.entrants]]
name = "bench"
agent = "naive"
options = {{ flavour = "avalonbench" }}

[[tournament.entrants]]
name = "random"
agent = "random"
"""

CONFIG = """
name = "tour"
games_per_condition = {games}

[defaults]
preset = "bench5"
rules = {{ fifth_rejection = "auto_approve" }}

[[conditions]]
name = "bench5"
""" + ENTRANTS


def config(games: int = 6, seed: int = 0):
    return parse_config(CONFIG.format(games=games, seed=seed))


def tournament(entrants: int, seed: int = 0) -> Tournament:
    return Tournament.model_validate({"seed": seed, "entrants": [
        {"name": f"e{i}", "agent": "naive" if i % 2 else "random"} for i in range(entrants)]})


GAME_CONFIGS = [("avalon", {"preset": "bench5"}), ("avalon", {"preset": "lan6"}), ("avalon", {"preset": "play7"}),
                ("avalon", {"preset": "standard", "players": 10}), ("werewolf", {"preset": "xu7"})]


@settings(max_examples=40, deadline=None)
@given(entrants=st.integers(2, 9), blocks=st.integers(1, 3), seed=st.integers(0, 10**6),
       which=st.sampled_from(range(len(GAME_CONFIGS))), first_seed=st.integers(0, 10**6))
def test_every_entrant_holds_every_role_place_and_side_equally_often(entrants, blocks, seed, which, first_seed):
    name, data = GAME_CONFIGS[which]
    rules = GAMES[name]
    base = rules.config_dict(rules.config(data))
    spec = tournament(entrants, seed)
    of_game = places(rules, base)
    per_place: Counter[tuple[str, tuple[str, int]]] = Counter()
    per_role: Counter[tuple[str, str]] = Counter()
    per_side: Counter[tuple[str, str]] = Counter()
    for index in range(entrants * blocks):
        chosen = place_entrants(spec, index, len(of_game))
        for place, e in zip(of_game, chosen, strict=True):
            per_place[(spec.entrants[e].name, place)] += 1
        seated = seat_entrants(spec, rules, base, first_seed + index, index)
        for entrant, (role, side) in zip(seated, rules.seats(rules.new_game(rules.config(base), first_seed + index)),
                                         strict=True):
            per_role[(entrant, role)] += 1
            per_side[(entrant, side)] += 1
    counts = Counter(role for role, _ in of_game)
    for e in spec.names:
        assert all(per_place[(e, p)] == blocks for p in of_game)
        assert all(per_role[(e, role)] == blocks * n for role, n in counts.items())
    sides = Counter(side for _, side in rules.seats(rules.new_game(rules.config(base), 0)))
    assert {(e, side): per_side[(e, side)] for e in spec.names for side in sides} == {
        (e, side): blocks * n for e in spec.names for side, n in sides.items()}


@settings(max_examples=20, deadline=None)
@given(entrants=st.integers(2, 7), block=st.integers(0, 50), seed=st.integers(0, 10**6))
def test_within_each_block_every_place_meets_every_entrant_once(entrants, block, seed):
    spec = tournament(entrants, seed)
    for place in range(5):
        held = [place_entrants(spec, block * entrants + g, 5)[place] for g in range(entrants)]
        assert sorted(held) == list(range(entrants))


def test_the_plan_seats_the_entrants_checked_specs_and_is_the_same_every_time():
    games = resolve_games(config())
    assert [g.game_id for g in games] == [f"bench5-s{s:04d}" for s in range(6)]
    specs = {"naive": ("naive", {}), "bench": ("naive", {"flavour": "avalonbench"}), "random": ("random", {})}
    for game in games:
        assert len(game.entrants) == 5
        assert [(s["kind"], s["options"]) for s in game.inputs["seats"]] == [specs[e] for e in game.entrants]
        rules = GAMES["avalon"]
        roles = [r for r, _ in rules.seats(rules.new_game(rules.config(game.inputs["config"]), game.seed))]
        assert Counter(roles) == Counter({"servant": 2, "merlin": 1, "assassin": 1, "minion": 1})
    again = resolve_games(config())
    assert [(g.entrants, g.inputs) for g in again] == [(g.entrants, g.inputs) for g in games]
    other = resolve_games(config(seed=7))
    assert [g.entrants for g in other] != [g.entrants for g in games]
    held = Counter((e, s["kind"]) for g in games for e, s in zip(g.entrants, g.inputs["seats"], strict=True))
    assert {e for e, _ in held} == {"naive", "bench", "random"} and all(n == 10 for n in held.values())


def test_seat_numbers_follow_the_games_deal():
    games = resolve_games(config(games=30))
    seats = Counter((e, seat) for g in games for seat, e in enumerate(g.entrants, start=1))
    assert len({seat for _, seat in seats}) == 5  # every entrant is dealt about every seat, not a fixed one
    assert all(seats[("naive", seat)] > 0 for seat in range(1, 6))


@pytest.mark.parametrize(("games", "could"), [(7, "6 or 9"), (10, "9 or 12"), (2, "(3)")])
def test_a_game_count_that_cannot_rotate_evenly_is_refused_with_the_counts_that_would(games, could):
    with pytest.raises(ExperimentConfigError, match=r"conditions\[bench5\]: .*cannot rotate 3 entrants evenly") as e:
        config(games=games)
    assert could in str(e.value) and "multiple of 3" in str(e.value)


def test_a_conditions_own_game_count_must_rotate_evenly_too():
    text = CONFIG.format(games=6, seed=0) + '\n[[conditions]]\nname = "more"\ngames = 4\nseed_start = 100\n'
    with pytest.raises(ExperimentConfigError, match=r"conditions\[more\]: 4 games cannot rotate"):
        parse_config(text)


@pytest.mark.parametrize(("where", "extra"), [
    ("defaults", 'agents = "naive"'),
    ("conditions[bench5]", 'models = "local"'),
    ("conditions[bench5]", 'agent_options = ["flavour=ours"]'),
])
def test_seats_given_besides_the_entrants_are_refused(where, extra):
    text = CONFIG.format(games=6, seed=0)
    anchor = "[defaults]\n" if where == "defaults" else 'name = "bench5"\n'
    with pytest.raises(ExperimentConfigError, match=rf"{re.escape(where)}: .* cannot be given in a tournament"):
        parse_config(text.replace(anchor, anchor + extra + "\n"))


@pytest.mark.parametrize(("entrant", "message"), [
    ('name = "gpt"\nagent = "lga"\nmodel = "http://127.0.0.1:9"', r"tournament\.entrants\[gpt\]: model: .*names a "
                                                                   r"server but no model"),
    ('name = "gpt"\nagent = "lga"\nmodel = "ftp://h/v1#m"', r"tournament\.entrants\[gpt\]: model: unsupported URL"),
    ('name = "odd"\nagent = "naive"\noptions = { flavour = "nope" }', r"tournament\.entrants\[odd\]: invalid naive "
                                                                       r"options .*unknown flavour"),
    ('name = "bot"\nagent = "naive"\nmodel = "local"', r"tournament\.entrants\[bot\]: agent kind 'naive' plays no "
                                                        r"model .*words=model"),
    ('name = "who"\nagent = "wizard"', r"tournament\.entrants\[who\]: unknown agent kind 'wizard'"),
    ('name = "again"\nagent = "random"', r"tournament\.entrants\[again\]: plays exactly as entrants\[random\]"),
])
def test_an_entrant_that_would_not_start_is_refused_naming_it(entrant, message):
    four = parse_config(CONFIG.format(games=8, seed=0) + f"\n[[tournament.entrants]]\n{entrant}\n")
    with pytest.raises(ExperimentConfigError, match=message):
        resolve_games(four)


def test_an_entrant_of_a_kind_that_does_not_play_the_game_is_refused(monkeypatch):
    # every model kind plays every game with a table: lga is made an Avalon-only kind here
    monkeypatch.setitem(AGENT_KINDS, "lga", dataclasses.replace(AGENT_KINDS["lga"], games=frozenset({"avalon"})))
    text = """
name = "wolves"
game = "werewolf"
games_per_condition = 2

[[conditions]]
name = "xu7"

[[tournament.entrants]]
name = "bot"
agent = "naive"

[[tournament.entrants]]
name = "lan"
agent = "lga"
"""
    with pytest.raises(ExperimentConfigError, match=r"tournament\.entrants\[lan\]: agent kind 'lga' does not play "
                                                    r"werewolf"):
        resolve_games(parse_config(text))


@pytest.mark.parametrize(("text", "message"), [
    ('[[tournament.entrants]]\nname = "solo"\nagent = "naive"\n', r"tournament\.entrants: List should have at least 2"),
    ('[[tournament.entrants]]\nname = "a"\nagent = "naive"\n[[tournament.entrants]]\nname = "a"\nagent = "random"\n',
     r"names must be unique; repeated: a"),
    ('[[tournament.entrants]]\nname = "a b"\nagent = "naive"\n[[tournament.entrants]]\nname = "c"\nagent = "random"\n',
     r"'a b' is not an entrant name"),
])
def test_a_malformed_entrant_list_is_refused(text, message):
    with pytest.raises(ExperimentConfigError, match=message):
        parse_config('name = "t"\ngames_per_condition = 2\n[[conditions]]\nname = "c"\n' + text)


def test_a_run_of_part_of_the_games_must_be_whole_blocks_and_is_refused_before_any_game(tmp_path: Path):
    path = tmp_path / "tour.toml"
    path.write_text(CONFIG.format(games=6, seed=0))
    with pytest.raises(ExperimentConfigError, match=r"--games 2: 2 games cannot rotate 3 entrants evenly"):
        run_experiment(path, tmp_path / "exp", first=2)
    assert not (tmp_path / "exp" / "records").exists()

