"""The agent conformance suite (`roundtable.testing.agents`): every agent kind of the registry passes it for every
game it plays."""

from __future__ import annotations

import pytest

from roundtable.agents.registry import AGENT_KINDS
from roundtable.games.errors import ConfigurationError
from roundtable.graphs.werewolf import graph as werewolf_graph
from roundtable.testing import agents as suite

CASES = [(kind, game) for kind in sorted(AGENT_KINDS) for game in sorted(AGENT_KINDS[kind].games)]
MODEL_CASES = [c for c in CASES if AGENT_KINDS[c[0]].needs_model]
FLAVOURS = [(game, flavour) for game, rules in sorted(suite.GAMES.items()) if rules.bot is not None
            for flavour in sorted(rules.bot.flavours)]
"""Every flavour of a game's rule bot, which the ``naive`` kind plays under its ``flavour`` option."""
OPTION_MODEL_CASES = [(kind, game, dict(AGENT_KINDS[kind].model_options or {})) for kind, game in CASES
                      if not AGENT_KINDS[kind].needs_model and AGENT_KINDS[kind].model_options]
"""The kinds that need no model but play one under their seat options (`AgentKind.model_options`: the ``naive``
kind's ``words=model``), in every game they play, with those options."""
PREPARING = [c for c in CASES if AGENT_KINDS[c[0]].prepares_rounds]
PROBED = [c for c in CASES if c[1] in AGENT_KINDS[c[0]].probed]
"""The kinds that answer the belief probe through their graph, in every game whose probe they answer."""


def test_the_games_ask_every_answer_shape():
    assert set(suite.requests_of_every_shape("avalon")) == {
        "pickN", "pickN+pass", "pick1", "pick1+pass", "yes_no1", "yes_no2", "words"}
    assert set(suite.requests_of_every_shape("werewolf")) == {"pick1", "pick1+pass", "yes_no2", "words"}


def test_a_kind_is_refused_for_a_game_it_does_not_play_before_any_model_call(monkeypatch):
    from dataclasses import replace

    # a model-driven kind that plays Avalon alone (lga itself plays every game with a table)
    avalon_only = replace(AGENT_KINDS["lga"], name="lanonly", games=frozenset({"avalon"}))
    monkeypatch.setitem(AGENT_KINDS, "lanonly", avalon_only)
    seats = [{"kind": "naive"}] * 6 + [{"kind": "lanonly", "model": "local"}]
    with pytest.raises(ConfigurationError, match="agent kind 'lanonly' does not play werewolf; kinds that do: .*naive"):
        werewolf_graph.invoke({"config": {"preset": "xu7"}, "seed": 1, "seats": seats})


@pytest.mark.parametrize(("kind", "game"), CASES)
def test_a_legal_decision_for_every_answer_shape(kind, game):
    suite.check_legal_decisions(kind, game)


def test_avalon_offers_the_avalonbench_flavour():
    assert ("avalon", "avalonbench") in FLAVOURS


@pytest.mark.parametrize("words", ["template", "model"])
@pytest.mark.parametrize(("game", "flavour"), FLAVOURS)
def test_every_flavour_of_the_naive_kind_gives_a_legal_decision_for_every_answer_shape(game, flavour, words):
    suite.check_legal_decisions("naive", game, {"flavour": flavour, "words": words})


def test_the_naive_kind_plays_a_model_for_its_words_in_every_game_it_plays():
    assert [(kind, game) for kind, game, _ in OPTION_MODEL_CASES] == [
        ("naive", game) for game in sorted(AGENT_KINDS["naive"].games)]
    assert all(options == {"words": "model"} for _, _, options in OPTION_MODEL_CASES)


@pytest.mark.parametrize(("kind", "game", "options"), OPTION_MODEL_CASES)
def test_a_seat_playing_a_model_under_its_options_gives_a_legal_decision_for_every_answer_shape(kind, game, options):
    suite.check_legal_decisions(kind, game, options)


@pytest.mark.parametrize("json", [True, False], ids=["json", "prose"])
@pytest.mark.parametrize(("kind", "game"), MODEL_CASES)
def test_garbage_replies_give_legal_decisions_with_the_fallback_recorded(kind, game, json):
    suite.check_garbage(kind, game, json)


@pytest.mark.parametrize("json", [True, False], ids=["json", "prose"])
@pytest.mark.parametrize(("kind", "game", "options"), OPTION_MODEL_CASES)
def test_garbage_replies_to_a_seat_playing_a_model_under_its_options_fall_back_recorded(kind, game, options, json):
    suite.check_garbage(kind, game, json, options)


@pytest.mark.parametrize(("kind", "game"),
                         [c for c in CASES if AGENT_KINDS[c[0]].needs_model or AGENT_KINDS[c[0]].asks_person])
def test_no_prompt_carries_another_players_private_fact(kind, game):
    suite.check_no_leaks(kind, game)


@pytest.mark.parametrize(("kind", "game", "options"), OPTION_MODEL_CASES)
def test_no_prompt_of_a_seat_playing_a_model_under_its_options_carries_another_players_private_fact(kind, game,
                                                                                                   options):
    suite.check_no_leaks(kind, game, options)


def test_the_lga_kind_prepares_rounds():
    assert ("lga", "avalon") in PREPARING


@pytest.mark.parametrize(("kind", "game"), PREPARING)
def test_a_round_notice_writes_the_notes_once_and_their_cost_reaches_the_next_decision(kind, game):
    suite.check_round_notice(kind, game)


def test_a_kind_that_answers_another_request_fails_the_suite(monkeypatch):
    """Negative control: a kind whose decision is keyed by another request id is caught, naming the kind and game."""
    from roundtable.agents.protocol import AgentKind, agent_output
    from roundtable.agents.random.policy import decide
    from roundtable.games.protocol import Request

    def node(task):
        request = Request.model_validate(task["request"])
        decision = decide(suite.GAMES["avalon"].view_model.model_validate(task["view"]), request, 1)
        return agent_output(decision.model_copy(update={"request_id": request.id + ".other"}))

    monkeypatch.setitem(AGENT_KINDS, "astray", AgentKind(name="astray", description="answers another request",
                                                         games=frozenset({"avalon"}), node=lambda models: node))
    with pytest.raises(AssertionError, match="astray in avalon: decisions keyed"):
        suite.check_agent_kind("astray")


@pytest.mark.parametrize(("kind", "game"), PROBED)
def test_the_belief_probe_states_a_probability_for_every_player_asked(kind, game):
    suite.check_belief_probe(kind, game)
