"""The naive bots decide as docs/agents/naive.md (AvalonBench) says, decision by decision, over many seeded games."""

from __future__ import annotations

import pytest
from avalon_helpers import play

from roundtable.games import avalon as A

AVALONBENCH = A.AvalonConfig.build("bench5", rules=("fifth_rejection=auto_approve",))


@pytest.mark.parametrize("config", [A.AvalonConfig.build("bench5"), AVALONBENCH], ids=["official", "avalonbench"])
def test_the_minion_leaves_the_fail_to_the_assassin(config):
    """bench5 quests need one fail: the Minion beside the Assassin plays success, so no quest shows two."""
    both_on_a_team = 0
    for seed in range(60):
        state, _ = play(config, seed, "naive", keep_steps=False)
        roles = {p: r for p, (r, _) in enumerate(A.RULES.seats(state), start=1)}
        for event in state.events:
            if event["type"] == "quest_result":
                evil = [p for p in event["team"] if roles[p] in ("minion", "assassin")]
                assert event["fails"] == (1 if evil else 0), (seed, event)
                both_on_a_team += len(evil) == 2
    assert both_on_a_team > 0  # the case was played


def test_the_minion_fails_when_the_assassin_is_not_on_the_team():
    for seed in range(30):
        state, _ = play(AVALONBENCH, seed, "naive", keep_steps=False)
        roles = {p: r for p, (r, _) in enumerate(A.RULES.seats(state), start=1)}
        cards = [e for e in state.events if e["type"] == "quest_card"]
        teams = {e["round"]: e["team"] for e in state.events if e["type"] == "quest_result"}
        for card in cards:
            if roles[card["player"]] == "minion" and all(roles[p] != "assassin" for p in teams[card["round"]]):
                assert card["success"] is False


def test_merlin_proposes_himself_plus_good_players():
    proposals = 0
    for seed in range(50):
        state, _ = play(AVALONBENCH, seed, "naive", keep_steps=False)
        roles = {p: r for p, (r, _) in enumerate(A.RULES.seats(state), start=1)}
        merlin = next(p for p, r in roles.items() if r == "merlin")
        for event in state.events:
            if event["type"] == "proposal" and event["leader"] == merlin:
                proposals += 1
                assert merlin in event["team"], (seed, event)
                assert all(roles[p] not in ("minion", "assassin") for p in event["team"]), (seed, event)
    assert proposals >= 20
