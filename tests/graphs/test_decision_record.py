"""The hidden decision entry the game graph writes for each answer (`roundtable.graphs.phases.decision_record`):
what the record keeps of an agent's answer for the measures."""

from __future__ import annotations

from roundtable.games import werewolf as W
from roundtable.games.protocol import Decision
from roundtable.graphs.phases import agent_seed, decision_record
from roundtable.testing.policies import rule_policies


def speak_request():
    state, naive = W.new_game(W.WerewolfConfig.build(), 1), rule_policies("werewolf")["naive"]
    while not any(r.kind == "speak" for r in W.pending(state)):
        state = W.apply(state, {r.player: naive(W.view(state, r.player), r, agent_seed(1, r.player))
                                for r in W.pending(state)})
    return next(r for r in W.pending(state) if r.kind == "speak")


def test_the_entry_keeps_the_agents_private_thoughts_and_checks_for_the_play_quality_measures():
    request = speak_request()
    decision = Decision.to(request, utterance="I trust Player 3.", thoughts=("Player 5 is my teammate.",),
                           checks=("near copy of Player 2: asked again",))
    entry = decision_record(W.RULES, request, decision, "cga")
    assert entry["thoughts"] == ["Player 5 is my teammate."]
    assert entry["checks"] == ["near copy of Player 2: asked again"]
    assert entry["to"] == [], "hidden from every player"


def test_an_answer_without_thoughts_writes_no_thoughts_key():
    request = speak_request()
    entry = decision_record(W.RULES, request, Decision.to(request, utterance="Hello."), "naive")
    assert "thoughts" not in entry and "checks" not in entry
