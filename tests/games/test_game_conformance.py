"""The game conformance suite (`roundtable.testing.games`): every rules module of the registry passes it, for every
configuration it offers."""

from __future__ import annotations

import dataclasses
import functools

import pytest

from roundtable.games import GAMES
from roundtable.games.errors import IllegalActionError
from roundtable.testing import games as suite

CASES = [(name, config) for name, rules in GAMES.items() for config in rules.configurations()]
IDS = [f"{name}-{i}" for i, (name, _) in enumerate(CASES)]


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
@pytest.mark.parametrize("seed", suite.SEEDS)
def test_random_legal_play_reaches_a_result(game, config, seed):
    suite.check_random_play(GAMES[game], config, seed)


@functools.cache
def illegal_answer_shapes(case: int) -> frozenset[str]:
    """The answer shapes `suite.check_illegal_answers` met in configuration ``CASES[case]`` (each played once)."""
    game, config = CASES[case]
    return frozenset(suite.check_illegal_answers(GAMES[game], config))


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_illegal_answers_are_refused_with_a_message_and_change_nothing(case):
    # every configuration of every game (Werewolf's sequential night asks one werewolf at a time): about 0.05 s each
    assert illegal_answer_shapes(case), "the check met no request"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_illegal_answers_met_every_answer_shape_of_each_game(game):
    # a configuration may meet fewer (no talk under discussion=none), the game's configurations together all three
    met = set().union(*(illegal_answer_shapes(i) for i, (name, _) in enumerate(CASES) if name == game))
    assert {"pick", "yes_no", "words"} <= met, f"{game}: only {sorted(met)}"


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_a_private_fact_reaches_only_its_player(game, config):
    suite.check_private_facts(GAMES[game], config)


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_a_seeded_game_replays_identically_and_resumes_from_its_snapshot(game, config):
    suite.check_replay_and_resume(GAMES[game], config)


@pytest.mark.parametrize(("game", "config"), CASES, ids=IDS)
def test_the_board_is_drawn_at_every_step_and_ignores_another_seats_private_entry(game, config):
    suite.check_board(GAMES[game], config)


def lenient(rules):
    """``rules`` whose ``apply`` takes an illegal answer silently (the state unchanged) instead of refusing it."""
    def apply(state, answers):
        try:
            return rules.apply(state, answers)
        except IllegalActionError:
            return state

    return dataclasses.replace(rules, apply=apply)


def test_a_check_that_fails_says_so():
    rules = GAMES["avalon"]
    broken = lenient(rules)
    with pytest.raises(AssertionError, match="accepted"):
        suite.check_illegal_answers(broken, rules.configurations()[0])


def test_a_game_whose_result_needs_its_log_fails_the_suite():
    """The game graph routes on a state restored without its log: a result read from the log is caught."""
    rules = GAMES["avalon"]
    log_bound = dataclasses.replace(rules, result=lambda state: rules.result(state) if state.events else None)
    with pytest.raises(AssertionError, match="restored without its log"):
        suite.check_random_play(log_bound, rules.configurations()[0], 0)
