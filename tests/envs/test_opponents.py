"""Opponents at the seats the learner does not hold: the games' rule bots in the process, other kinds through their
own nodes with their seat specs resolved as ``roundtable play`` resolves them, their model calls counted."""

from __future__ import annotations

import random

import pytest
from env_actions import legal_text

from roundtable.envs import make
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.graphs.phases import agent_seed
from roundtable.testing.scripted import Script, ScriptedModels


def play(env, seed):
    env.reset(seed=seed)
    rng = random.Random(seed)
    while not env.game.done:
        env.step(legal_text(env.game.waiting[0], rng))
    return env.close()


def test_rule_bots_hold_the_evil_seats_and_the_learner_the_good_ones():
    env = make("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False)
    rewards, info = play(env, 3)
    assert {info["sides"][p] for p in info["learner"]} == {"good"}
    assert len(info["learner"]) == 3 and info["opponent_calls"] == 0


def test_a_rule_bots_decision_is_the_games_bot_with_the_seed_a_game_graph_gives_it():
    env = make("avalon", preset="bench5", opponents={"evil": "naive"}, talk=False)
    env.reset(seed=9)
    rules = GAMES["avalon"]
    rng = random.Random(9)
    checked = 0
    while not env.game.done and checked < 5:
        for request in rules.pending(env.game.state):
            if env.game.opponents.holds(request.player):
                view = rules.view(env.game.state, request.player)
                expected = rules.bot.decide(view, request, agent_seed(9, request.player))
                assert env.game.opponents.decide(env.game.config, view, request) == expected
                checked += 1
        env.step(legal_text(env.game.waiting[0], rng))
    assert checked >= 5


def test_the_opponent_string_takes_the_syntax_of_play_seats_by_number_included():
    env = make("avalon", preset="bench5", opponents="evil=naive,1=random", talk=False)
    env.reset(seed=2)
    sides = [side for _, side in env.game.sides()]
    kinds = env.game.opponents.kinds
    assert kinds[0] == "random"
    assert [k for k, side in zip(kinds[1:], sides[1:], strict=True) if side == "evil"] == ["naive"] * (
        sides[1:].count("evil"))
    assert env.game.learner == tuple(p for p in range(2, 6) if sides[p - 1] == "good")


def test_a_model_kind_plays_through_its_own_node_with_its_calls_counted():
    env = make("avalon", preset="bench5", opponents={"evil": "cot"}, models="evil=fake", talk=False,
               models_provider=ScriptedModels(Script(), json=True))
    rewards, info = play(env, 4)
    assert info["opponent_calls"] > 0
    assert info["result"]["winner"] in ("good", "evil")


@pytest.mark.parametrize(("opponents", "message"), [
    ({"evil": "nobody"}, "unknown agent kind"),
    ({"evil": "human"}, "asks a person"),
    ("naive", "hold every seat"),
    ({"wizard": "naive"}, "wizard"),
])
def test_bad_opponents_are_refused_by_name(opponents, message):
    env = make("avalon", preset="bench5", opponents=opponents)
    with pytest.raises(ConfigurationError, match=message):
        env.reset(seed=1)
