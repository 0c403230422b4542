"""The CodeAct leader's facts hold nothing its player may not know, for every role of the AvalonPlay setting
(sentinel test), and state the public outcomes as plain facts (Shi et al. 2023; docs/agents/codeact.md#memory)."""

from __future__ import annotations

import pytest

from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.codeact.facts import leader_facts
from roundtable.agents.codeact.memory import remember
from roundtable.games import avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.games.protocol import belief_request
from roundtable.prompts.narrator import narrate
from roundtable.tables.protocol import game_table

PRESET, RULES = avalon.setting("avalonplay")


def games():
    """States of AvalonPlay games at every proposal from round 2 on (naive bots), with sentinels planted."""
    for seed in range(6):
        state = avalon.new_game(avalon.AvalonConfig.build(PRESET, rules=RULES), seed)
        while not state.is_over:
            requests = avalon.pending(state)
            if state.round >= 2 and any(r.kind == "propose_team" for r in requests):
                yield seed, state
            state = avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, seed)
                                         for r in requests})


def planted(state: avalon.AvalonState) -> avalon.AvalonState:
    """Every player's private log gets a sentinel, and its quest cards stay private."""
    extra = [{"type": "utterance", "to": [p], "speaker": p, "phase": "proposal", "round": state.round,
              "attempt": state.attempt, "text": f"SENTINEL-{p} I am {state.role_of(p).value}"}
             for p in state.players]
    return avalon.AvalonState.restore(state.snapshot(), list(state.events) + extra)


def facts_for(state: avalon.AvalonState, player: int) -> tuple[list[dict], str]:
    view = avalon.view(state, player)
    memory = remember({}, view, lambda e: narrate("avalon", e, player, view.rules), 15, 20)
    table = game_table(view, belief_request(player, [], view.phase, view.round), CodeActContext())
    facts = leader_facts(view, memory, table, table.paper_game)
    return facts, CodeActContext().render("aids/codeact/facts", facts=facts)


@pytest.mark.parametrize("role", sorted({r.value for r in avalon.preset_roles("play7")}))
def test_the_facts_hold_nothing_their_player_may_not_know(role):
    checked = 0
    for _seed, state in games():
        state = planted(state)
        (player,) = [p for p in state.players if state.role_of(p).value == role][:1]
        facts, text = facts_for(state, player)
        others = [p for p in state.players if p != player]
        assert not any(f"SENTINEL-{p}" in text for p in others)
        known = {int(k["player"]): k["is"] for k in avalon.knowledge_of(state.roles, player)}
        for fact in facts:
            if fact["kind"] in ("evil", "evil_team", "merlin", "one_good_one_evil"):
                assert set(fact["players"]) == set(known), (role, fact, known)
            if fact["kind"] == "self":
                assert fact["player"] == player and fact["role"] == state.role_of(player).title
        for p in others:  # no other player's role is named, unless its player may know it
            title = state.role_of(p).title
            if title in text and title != state.role_of(player).title:
                assert role == "percival" and title in ("Merlin", "Morgana") and "one is good" in text
        # Quest and vote facts are the public record, nothing more.
        quests = [e for e in state.events if e["type"] == "quest_result"]
        assert [(f["round"], f["team"], f["fails"]) for f in facts if f["kind"] == "quest"] == [
            (e["round"], e["team"], e["fails"]) for e in quests]
        votes = [e for e in state.events if e["type"] == "vote_result"]
        assert [(f["round"], f["attempt"], f["approvers"]) for f in facts if f["kind"] == "vote_team"] == [
            (e["round"], e["attempt"], e.get("approvers")) for e in votes]
        checked += 1
    assert checked >= 6


def test_the_facts_read_as_plain_statements():
    facts = [
        {"kind": "one_good_one_evil", "players": [1, 4]},
        {"kind": "quest", "round": 1, "team": [1, 2], "fails": 1, "success": False, "exact": False},
        {"kind": "quest", "round": 2, "team": [3, 5, 6], "fails": 0, "success": True, "exact": True},
        {"kind": "vote_team", "round": 2, "attempt": 1, "leader": 3, "team": [3, 5, 6], "approved": True,
         "approvals": 4, "rejections": 3, "approvers": [1, 3, 5, 6], "rejecters": [2, 4, 7]},
    ]
    text = CodeActContext().render("aids/codeact/facts", facts=facts)
    assert "Among players 1 and 4 one is good (Merlin) and one is evil (Morgana)." in text
    assert "Quest 1 with players 1 and 2 failed with 1 fail: at least 1 of them is evil." in text
    assert "Quest 2 with players 3, 5 and 6 succeeded with 0 fails: exactly 0 of them are evil." in text
    assert ("Proposal 1 of quest 2 (leader 3, players 3, 5 and 6) was approved: approved by players 1, 3, 5 and 6, "
            "rejected by players 2, 4 and 7.") in text
