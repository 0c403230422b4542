"""lga plays any game that describes its table (issue 60, part 1; docs/agents/lga.md#other-games): in Werewolf it
passes the conformance suite with the aids off and on, its prompts name the game by the table's title and say none
of Lan et al.'s Avalon sentences, a Seer's own checks reach the aids, and it says what the registered table says."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from test_game_neutral import MarkedTable
from werewolf_fakes import werewolf_request

from roundtable.agents.lga.graph import build_lga_graph
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES, werewolf
from roundtable.testing import agents as suite
from roundtable.testing.scripted import FAKE_MODEL, Script, ScriptedModels

AIDED = {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False}


def test_lga_plays_the_games_with_tables():
    assert AGENT_KINDS["lga"].games == {name for name, rules in GAMES.items() if rules.table is not None}
    assert "werewolf" in AGENT_KINDS["lga"].games


@pytest.mark.parametrize("options", [{"aids": "off"}, AIDED], ids=["aids-off", "aids-on"])
def test_lga_gives_werewolf_a_legal_decision_for_every_answer_shape(options):
    suite.check_legal_decisions("lga", "werewolf", options)


@pytest.mark.parametrize("json", [True, False], ids=["json", "prose"])
def test_garbage_in_werewolf_with_the_aids_on_falls_back_recorded(json):
    suite.check_garbage("lga", "werewolf", json, AIDED)


def test_no_werewolf_prompt_with_the_aids_on_carries_another_players_private_fact():
    suite.check_no_leaks("lga", "werewolf", AIDED)


def _decide(kind: str, player: int, options: dict, day: int = 1) -> Script:
    state, request = werewolf_request(kind, player, day)
    script = Script()
    graph = build_lga_graph(ScriptedModels(script)).compile()
    graph.invoke({"view": werewolf.view(state, player).model_dump(mode="json"),
                  "request": request.model_dump(mode="json"), "pool": {},
                  "seat": {"kind": "lga", "model": FAKE_MODEL, "options": options}, "seed": 1})
    assert script.calls
    return script


def test_werewolf_prompts_name_the_game_and_say_no_avalon_sentence():
    script = _decide("eliminate", 4, {"aids": "off"})
    system = script.calls[0].messages[0].content
    assert "You are a Werewolf gamer and you are playing a 7-player Werewolf game." in system
    assert "help your camp win the game." in system and "3 points" not in system
    for call in script.calls:
        text = "\n".join(str(m.content) for m in call.messages)
        assert "Avalon" not in text and "Merlin" not in text and not re.search(r"\bquests?\b", text, re.I), call.module
    act = next(c for c in script.calls if c.module == "act").messages[1].content
    assert "within a Werewolf game, and the game has progressed to the day phase, round 1" in act
    assert "Host: Player 4, eliminate: choose 1 player from Player" in act


def test_a_seers_checks_reach_the_aids_note():
    """xu7, seed 1: Player 1 is the Seer; the day vote's instruction carries the aids' note of its own check."""
    script = _decide("eliminate", 1, AIDED, day=2)
    act = next(c for c in script.calls if c.module == "act").messages[1].content
    assert "Player 1, eliminate" in act


def marked_table(view, request, context, settings):
    """The table maker of `MarkedTable` (registered by its import path below)."""
    return MarkedTable(view=view, request=request, context=context, settings=settings)


@pytest.mark.parametrize("options", [{"aids": "off"}, AIDED], ids=["aids-off", "aids-on"])
def test_lga_says_what_the_table_the_game_registers_says(monkeypatch, options):
    monkeypatch.setitem(GAMES, "werewolf", replace(GAMES["werewolf"], table=f"{__name__}:marked_table"))
    script = _decide("eliminate", 4, options)
    act = next(c for c in script.calls if c.module == "act")
    assert "MARKED RULES." in act.messages[0].content
    assert "MARKED INSTRUCTION." in act.messages[1].content
    every = "\n".join(str(m.content) for c in script.calls for m in c.messages)
    assert "MARKED ROLE CARD." in every
    if options["aids"] == "off":
        assert "Marked Game" in act.messages[0].content and "<role>Marked Role</role>" in act.messages[1].content
