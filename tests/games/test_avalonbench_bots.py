"""The ``avalonbench`` flavour of the naive bots plays AvalonBench's ``baseline_agents.py`` decision by decision
(docs/agents/naive.md#the-avalonbench-flavour): positions worked by hand from that code's logic.

The draws are worked from the 32-bit words of ``random.seed(0, version=1)`` (every bot's constructor there):
3626764237, 1654615998, 3255389356, 3823568514, 1806341205, ... ``random.choice``/``sample`` call
``_randbelow(n)``, which takes the top ``n.bit_length()`` bits of the next word until they are below ``n``:
for n = 2 or 3 the top two bits are 3, 1, 3, 3, 1, 0; for n = 4 or 5 the top three bits are 6, 3, 6, 7, 3, 0.
Seats there are 0-based; here 1-based (their seat i is player i + 1).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from avalon_helpers import play

from roundtable.agents.naive.kind import KIND
from roundtable.games import avalon as A
from roundtable.games.avalon.bots import avalonbench, naive
from roundtable.games.avalon.roles import Role
from roundtable.games.avalon.view import AvalonView
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Request
from roundtable.graphs.avalon import graph

RULES = A.AvalonConfig.build("bench5", rules=("fifth_rejection=auto_approve",)).rules.to_dict()
ROLE_SET = ("assassin", "merlin", "minion", "servant", "servant")
SIZES = {1: 2, 2: 3, 3: 2, 4: 3, 5: 3}


Quests = tuple[tuple[tuple[int, ...], int], ...]


def view_of(player: int, role: str, *, knowledge: tuple[int, ...] = (), quests: Quests = (), led: tuple[int, ...] = (),
            players: int = 5, role_set: tuple[str, ...] = ROLE_SET) -> AvalonView:
    """``player``'s view as quest ``len(quests) + 1`` begins: ``knowledge`` the players it sees as evil,
    ``quests`` ``(team, fails)`` in order, ``led`` the earlier rounds whose (first) proposal it made."""
    round_ = len(quests) + 1
    events = [{"type": "proposal", "to": "public", "round": r, "attempt": 1, "leader": player,
               "team": [player], "final": True} for r in led]
    return AvalonView(
        game="avalon", player=player, role=role, side=Role(role).side.value,
        knowledge=tuple({"player": q, "is": "evil"} for q in knowledge), players=players,
        role_set=tuple(sorted(role_set)), rules=RULES, phase="proposal", round=round_, events=tuple(events),
        attempt=1, leader=player, team=(), quest_results=tuple(fails == 0 for _, fails in quests),
        quests=tuple({"round": r, "team": list(team), "fails": fails, "fails_needed": 1, "success": fails == 0}
                     for r, (team, fails) in enumerate(quests, start=1)))


def ask(view: AvalonView, kind: str, **fields: Any) -> Any:
    """The flavour's answer to a request of ``kind`` (players picked, or the yes/no choice)."""
    seen_evil = {k["player"] for k in view.knowledge}
    base: dict[str, Any] = {"id": f"r{view.round}.{kind}.p{view.player}", "kind": kind, "player": view.player,
                            "phase": view.phase, "round": view.round}
    shape = {"propose_team": {"answer": "pick", "count": SIZES[view.round],
                              "candidates": tuple(range(1, view.players + 1))},
             "assassinate": {"answer": "pick", "count": 1, "candidates": tuple(
                 p for p in range(1, view.players + 1) if p != view.player and p not in seen_evil)},
             "vote_team": {"answer": "yes_no", "options": ("approve", "reject")},
             "quest_card": {"answer": "yes_no", "options": ("success", "fail")}}[kind]
    decision = avalonbench.decide(view, Request(**base | shape | fields), 7)
    return decision.players if shape["answer"] == "pick" else decision.choice


def test_the_words_the_hand_worked_draws_start_from():
    rng = random.Random()
    rng.seed(0, version=1)
    assert [rng.getrandbits(32) for _ in range(5)] == [3626764237, 1654615998, 3255389356, 3823568514, 1806341205]


# ------------------------------------------------------------------ Servant


def test_a_servants_first_proposal_is_drawn_from_the_set_of_its_four_best_teams():
    """Quest 1 (two players), no outcome yet: the six assignments of two evil players among the other four are
    equally likely, so every team with itself and one other is all good with probability 1/2, the best. With no
    successful quest the code draws from ``list(set(best))``, which CPython lists {0,1}, {0,2}, {0,4}, {0,3};
    ``_randbelow(4)`` reads 6 (drawn again), then 3: the fourth, {0,3}, players 1 and 4."""
    best = [frozenset(t) for t in ((0, 1), (0, 2), (0, 3), (0, 4))]
    assert list(set(best)) == [frozenset({0, 1}), frozenset({0, 2}), frozenset({0, 4}), frozenset({0, 3})]
    servant = view_of(1, "servant")
    assert ask(servant, "propose_team") == (1, 4)
    assert [ask(servant, "vote_team", subject=team) for team in ((1, 2), (1, 5), (2, 3))] == [True, True, False]


def test_a_servant_rules_out_what_a_failed_quest_shows_and_draws_among_the_rest():
    """Quest 1's team (2, 3) had one fail, so the assignment with both good (evil 4 and 5) is ruled out. For quest
    2 (three players) each team of itself and two others is all good exactly when the other two are the evil
    pair: 1/5 each for the five surviving pairs, 0 for (1, 2, 3). ``list(set(best))`` lists {0,3,4}, {0,1,4},
    {0,2,3}, {0,2,4}, {0,1,3}; ``_randbelow(5)`` reads 6, then 3: {0,2,4}, players 1, 3 and 5."""
    servant = view_of(1, "servant", quests=(((2, 3), 1),))
    assert ask(servant, "propose_team") == (1, 3, 5)
    votes = {team: ask(servant, "vote_team", subject=team) for team in ((1, 4, 5), (1, 2, 4), (1, 2, 3), (2, 4, 5))}
    assert votes == {(1, 4, 5): True, (1, 2, 4): True, (1, 2, 3): False, (2, 4, 5): False}


def test_a_servant_keeps_to_the_largest_successful_team_and_approves_only_its_most_preferred():
    """Quest 1 (2, 3) failed, quest 2 (1, 3, 4) and quest 3 (1, 5) succeeded. For quest 4 five teams tie at 1/5
    as above. The largest successful team is (1, 3, 4): quest 3's smaller team does not replace it, and among the
    tied teams only (1, 3, 4) is a subset of it, so the Servant proposes and approves it alone. Our own
    Servant nests on the last successful team (1, 5) and approves every best-scoring team."""
    quests = (((2, 3), 1), ((1, 3, 4), 0), ((1, 5), 0))
    servant = view_of(1, "servant", quests=quests, led=(2, 3))
    assert ask(servant, "propose_team") == (1, 3, 4)
    assert ask(servant, "vote_team", subject=(1, 3, 4)) is True
    assert ask(servant, "vote_team", subject=(1, 4, 5)) is False
    ours = naive.decide(servant, Request(id="v", kind="vote_team", player=1, phase="vote_team", round=4,
                                         answer="yes_no", subject=(1, 4, 5)), 7)
    assert ours.choice is True


def test_percival_plays_the_servant_and_ignores_what_he_sees():
    percival = view_of(1, "percival", role_set=("assassin", "merlin", "morgana", "percival", "servant"))
    percival = percival.model_copy(update={"knowledge": ({"player": 2, "is": "merlin_or_morgana"},
                                                         {"player": 3, "is": "merlin_or_morgana"})})
    assert ask(percival, "propose_team") == (1, 4)


# ------------------------------------------------------------------ Merlin


def test_merlin_proposes_himself_and_a_good_player_drawn_from_the_others_and_votes_his_sight():
    """Merlin at seat 2 sees 4 and 5: ``random.sample([0, 2], 1)`` reads 3, then 1: seat 2, so (2, 3)."""
    merlin = view_of(2, "merlin", knowledge=(4, 5))
    assert ask(merlin, "propose_team") == (2, 3)
    assert ask(merlin, "vote_team", subject=(1, 3)) is True
    assert ask(merlin, "vote_team", subject=(1, 4)) is False


# ------------------------------------------------------------------ evil


def test_the_assassin_draws_his_target_after_his_own_proposals():
    """The Assassin at seat 4 (Minion at 5). No proposal of his: ``random.choice([0, 1, 2])`` reads 3, then 1:
    player 2. Having led quests 1 and 2 first, his generator moved on: quest 1 drew ``sample([0, 1, 2], 1)``
    (3, 1: two words), quest 2 ``sample([0, 1, 2], 2)`` (3, 3, 1, then 0 for the second pick: four words), so the
    target's draw reads the seventh word on."""
    assassin = view_of(4, "assassin", knowledge=(5,), quests=(((1, 2), 0), ((1, 2, 3), 0), ((1, 3), 0)))
    assert ask(assassin, "assassinate") == (2,)
    led = assassin.model_copy(update={"events": view_of(4, "assassin", led=(1, 2)).events})
    rng = random.Random()
    rng.seed(0, version=1)
    for _ in range(6):
        rng.getrandbits(32)
    assert ask(led, "assassinate") == (rng.choice([0, 1, 2]) + 1,)
    first = view_of(4, "assassin", knowledge=(5,))
    assert ask(first, "propose_team") == (2, 4)


def test_the_minions_vote_and_cards_follow_the_count_of_evil_on_the_team():
    minion = view_of(5, "minion", knowledge=(4,))
    assert ask(minion, "vote_team", subject=(1, 5)) is True
    assert ask(minion, "vote_team", subject=(1, 2)) is False
    assert ask(minion, "quest_card", subject=(1, 5), allowed=(True, False)) is False
    assert ask(minion, "quest_card", subject=(4, 5), allowed=(True, False)) is True  # two evil of two: his pass
    assert ask(minion, "quest_card", subject=(1, 2, 3), allowed=(True, False)) is True


def test_with_three_evil_players_a_minion_beside_another_fails_too():
    """Their Minion passes a quest with more evil than fails needed only in a game of two evil players."""
    roles = ("assassin", "merlin", "minion", "morgana", "percival", "servant", "servant")
    minion = view_of(7, "minion", knowledge=(5, 6), players=7, role_set=roles)
    assert ask(minion, "quest_card", subject=(6, 7), allowed=(True, False)) is False


# ------------------------------------------------------------------ the kind


def test_the_flavour_is_a_seat_option_of_the_naive_kind_and_unknown_ones_are_refused():
    assert KIND.options is not None
    assert KIND.options.parse({}).flavour == "ours"
    assert KIND.options.parse({"flavour": "avalonbench"}).flavour == "avalonbench"
    with pytest.raises(ConfigurationError, match="valid flavours: ours, avalonbench"):
        KIND.options.parse({"flavour": "paper"})


def test_the_avalonbench_flavour_is_refused_in_werewolf():
    from roundtable.graphs.werewolf import graph as werewolf_graph

    seats = [{"kind": "naive", "options": {"flavour": "avalonbench"}}] * 7
    with pytest.raises(ConfigurationError, match="not played in werewolf; games that have it: avalon"):
        werewolf_graph.invoke({"config": {"preset": "xu7"}, "seed": 1, "seats": seats}, {"recursion_limit": 10_000})


@pytest.mark.parametrize("seed", range(4))
def test_the_game_graph_plays_the_flavour_as_the_rules_loop_does(seed):
    """The graph delivers each bot only the entries it has not seen: the proposals it keeps bring its generator
    to the same place as the full log does."""
    config = A.AvalonConfig.build("bench5", rules=("fifth_rejection=auto_approve",
                                                   "discussion=leader_first_and_last"))
    state, _ = play(config, seed, dict.fromkeys(range(1, 6), avalonbench.decide), keep_steps=False)
    seats = [{"kind": "naive", "options": {"flavour": "avalonbench"}}] * 5
    out = graph.invoke({"config": config.to_dict(), "seed": seed, "seats": seats}, {"recursion_limit": 10_000})
    played = [e for e in out["events"] if e["type"] != "decision"]
    assert played == [e for e in state.events if e["type"] != "decision"]


def test_a_leader_names_the_same_team_before_and_after_the_talk():
    config = A.AvalonConfig.build("bench5", rules=("fifth_rejection=auto_approve",))
    for seed in range(10):
        state, _ = play(config, seed, dict.fromkeys(range(1, 6), avalonbench.decide), keep_steps=False)
        teams: dict[tuple[int, int], set[tuple[int, ...]]] = {}
        for e in state.events:
            if e["type"] == "proposal":
                teams.setdefault((e["round"], e["attempt"]), set()).add(tuple(e["team"]))
        assert all(len(t) == 1 for t in teams.values()), (seed, teams)


def test_the_flavour_plays_every_configuration_to_its_end():
    """Every role and variant the game offers: roles their code lacks play as the nearest one, legally."""
    for config in A.RULES.configurations():
        for seed in range(3):
            state, _ = play(A.RULES.config(config), seed, dict.fromkeys(range(1, 11), avalonbench.decide),
                            keep_steps=False)
            assert state.is_over, config


def test_the_default_flavour_is_ours_unchanged():
    config = A.AvalonConfig.build("bench5", rules=("fifth_rejection=auto_approve",)).to_dict()
    runs = [graph.invoke({"config": config, "seed": 3, "seats": [seat] * 5}, {"recursion_limit": 10_000})["events"]
            for seat in ({"kind": "naive"}, {"kind": "naive", "options": {"flavour": "ours"}})]
    state, _ = play(A.AvalonConfig.build("bench5", rules=("fifth_rejection=auto_approve",)), 3,
                    dict.fromkeys(range(1, 6), naive.decide), keep_steps=False)
    assert runs[0] == runs[1]
    assert [e for e in runs[0] if e["type"] != "decision"] == list(state.events)
