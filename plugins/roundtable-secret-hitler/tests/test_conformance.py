"""roundtable's shipped suites on Secret Hitler, reached through the registries its entry points fill: the game
conformance suite (`roundtable.testing.games`) and the agent conformance suite (`roundtable.testing.agents`) for
the kinds that play it without a model (``random``, ``naive`` through the game's rule bot, ``human``), and a
whole game through roundtable's generic game graph."""

from __future__ import annotations

import dataclasses

import pytest

from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES
from roundtable.testing import agents as agent_suite
from roundtable.testing import games as game_suite

GAME = "secret_hitler"
KINDS = ("human", "naive", "random")


def test_the_entry_points_register_the_game_and_the_kinds_that_play_it():
    from roundtable_secret_hitler import RULES

    assert GAMES[GAME] is RULES
    assert all(GAME in AGENT_KINDS[kind].games for kind in KINDS)
    assert RULES.bot is not None


@pytest.mark.parametrize("config", GAMES[GAME].configurations(), ids=lambda c: f"{c['players']}p")
def test_the_game_conformance_suite(config):
    rules = GAMES[GAME]
    for seed in game_suite.SEEDS:
        game_suite.check_random_play(rules, config, seed)
    assert game_suite.check_illegal_answers(rules, config)
    game_suite.check_private_facts(rules, config)
    game_suite.check_replay_and_resume(rules, config)
    game_suite.check_board(rules, config)


def test_the_game_asks_every_answer_shape_and_passes_check_game():
    game_suite.check_game(GAMES[GAME])
    assert {"pick1", "yes_no1", "yes_no2", "words"} <= set(agent_suite.requests_of_every_shape(GAME))


@pytest.mark.parametrize("kind", KINDS)
def test_the_agent_conformance_suite_in_secret_hitler(kind, monkeypatch):
    # the suite of `check_agent_kind` for this game alone (the kind's other games are roundtable's to test)
    monkeypatch.setitem(AGENT_KINDS, kind, dataclasses.replace(AGENT_KINDS[kind], games=frozenset({GAME})))
    agent_suite.check_agent_kind(kind)


def test_a_whole_game_plays_through_the_generic_game_graph():
    from roundtable.graphs.game import build_game_graph

    graph = build_game_graph(GAMES[GAME]).compile()
    seats = [{"kind": "naive"}, {"kind": "random"}] * 3 + [{"kind": "naive"}]
    out = graph.invoke({"config": {"players": 7}, "seed": 5, "seats": seats}, {"recursion_limit": 10_000})
    over = [e for e in out["events"] if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["winner"] in ("liberal", "fascist"), over


MODEL_KINDS = sorted(name for name, kind in AGENT_KINDS.items() if kind.needs_model and GAME in kind.games)
"""The model-driven kinds that play the game: every kind that reads games through their tables."""


def test_every_model_kind_plays_the_game_through_its_table():
    assert {"cga", "lga", "react", "cot", "codeact"} <= set(MODEL_KINDS)


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_the_agent_conformance_suite_of_the_model_kinds_in_secret_hitler(kind, monkeypatch):
    monkeypatch.setitem(AGENT_KINDS, kind, dataclasses.replace(
        AGENT_KINDS[kind], games=frozenset({GAME}), probed=AGENT_KINDS[kind].probed & {GAME}))
    agent_suite.check_agent_kind(kind)


@pytest.mark.parametrize("kind", MODEL_KINDS)
def test_a_whole_scripted_model_game_plays_through_the_generic_game_graph(kind):
    from roundtable.graphs.game import build_game_graph
    from roundtable.testing.scripted import FAKE_MODEL, Script, ScriptedModels

    script = Script()
    graph = build_game_graph(GAMES[GAME], models=ScriptedModels(script)).compile()
    seats = [{"kind": kind, "model": FAKE_MODEL}, {"kind": "naive"}, {"kind": kind, "model": FAKE_MODEL},
             {"kind": "naive"}, {"kind": "naive"}]
    out = graph.invoke({"config": {"players": 5}, "seed": 4, "seats": seats}, {"recursion_limit": 10_000})
    over = [e for e in out["events"] if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["winner"] in ("liberal", "fascist"), over
    decided = [e for e in out["events"] if e["type"] == "decision" and e["player"] in (1, 3)]
    assert decided and script.calls, "the model seats decided through their model"
    prompts = "\n".join(call.prompt for call in script.calls)
    assert "Secret Hitler" in prompts and "Host: Player" in prompts
