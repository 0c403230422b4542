"""The papers' metrics (roundtable.metrics.tables and its families) on hand-built records with known answers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from roundtable.metrics.cost import cost_summary
from roundtable.metrics.facts import game_facts, player_facts
from roundtable.metrics.intervals import bootstrap, wilson
from roundtable.metrics.tables import find, measure_table

ROLES = {"1": "merlin", "2": "servant", "3": "servant", "4": "minion", "5": "assassin"}


def record(game_id: str, events: list[dict], winner: str | None, reason: str | None, *, kinds=None,
           status: str = "finished", usage: dict | None = None) -> dict:
    kinds = kinds or ["naive"] * 5
    return {"game_id": game_id, "status": status, "roles": ROLES, "winner": winner, "end_reason": reason,
            "seats": [{"kind": k, "model": "m" if k == "lga" else None} for k in kinds],
            "events": events, "usage": {"game": usage or {}}}


def proposal(rnd, attempt, leader, team, final=True):
    return {"type": "proposal", "round": rnd, "attempt": attempt, "leader": leader, "team": team, "final": final}


def votes(rnd, attempt, approvals):
    return [{"type": "vote_team", "round": rnd, "attempt": attempt, "player": p, "approve": p in approvals}
            for p in range(1, 6)]


def quest(rnd, cards: dict[int, bool]):
    fails = sum(1 for ok in cards.values() if not ok)
    return [{"type": "quest_card", "round": rnd, "player": p, "success": ok} for p, ok in cards.items()] + [
        {"type": "quest_result", "round": rnd, "team": sorted(cards), "fails": fails, "fails_needed": 1,
         "success": fails == 0}]


def all_rejected() -> dict:
    """Five proposals in round 1, every vote reject: evil wins with no quest played."""
    events = []
    for attempt in range(1, 6):
        events += [proposal(1, attempt, attempt, [attempt, attempt % 5 + 1])] + votes(1, attempt, set())
        events.append({"type": "vote_result", "round": 1, "attempt": attempt, "approvals": 0, "approved": False})
    return record("rejected", events, "evil", "five_rejected_proposals")


def good_game(hit: bool) -> dict:
    """Three successful quests led by Merlin (player 1, on his teams), then an assassination."""
    events = []
    for rnd in (1, 2, 3):
        events += [proposal(rnd, 1, 1, [1, 2]), *votes(rnd, 1, {1, 2, 3, 4}), *quest(rnd, {1: True, 2: True})]
    target = 1 if hit else 2
    events.append({"type": "assassination", "assassin": 5, "target": target, "hit": hit})
    return record(f"assassin-{hit}", events, "evil" if hit else "good",
                  "merlin_assassinated" if hit else "three_successful_quests")


def evil_game_with_fallbacks() -> dict:
    """Minion (4) leads teams with himself, fails three quests; player 2 (an lga) has two fallbacks."""
    events = []
    for rnd in (1, 2, 3):
        events += [proposal(rnd, 1, 4, [2, 4]), *votes(rnd, 1, {2, 4, 5}), *quest(rnd, {2: True, 4: False})]
    events += [{"type": "decision", "player": 2, "request": f"r{i}.x", "kind": "vote_team", "fallback": i < 2}
               for i in range(4)]
    events += [{"type": "decision", "player": 3, "request": "r1.a1.speak.p3", "kind": "speak", "team": [3, 5]}]
    return record("evil", events, "evil", "three_failed_quests", kinds=["naive", "lga", "naive", "naive", "naive"],
                  usage={"calls": 10, "prompt_tokens": 1000, "cached_tokens": 250, "completion_tokens": 50,
                         "fallbacks": 2, "decisions": 4})


def test_wilson_known_values():
    assert wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson(10, 10) == pytest.approx((0.72247, 1.0), abs=1e-5)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(3, 2)


@given(st.integers(0, 200).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_the_estimate(kn):
    k, n = kn
    low, high = wilson(k, n)
    assert 0 <= low <= high <= 1
    if n:
        assert low <= k / n <= high


def test_bootstrap_is_seeded_and_brackets_the_mean():
    values = [3, 4, 5, 3, 5, 4, 4, 3]
    low, high = bootstrap(values)
    assert bootstrap(values) == (low, high)
    assert low <= sum(values) / len(values) <= high and 3 <= low and high <= 5
    assert bootstrap([4.0]) == (4.0, 4.0)
    assert all(math.isnan(x) for x in bootstrap([]))


def test_no_quest_played_and_all_teams_rejected():
    rows = measure_table({"c": [all_rejected()]})
    assert find(rows, "quest_success_rate").n == 0 and find(rows, "quest_success_rate").value is None
    assert find(rows, "QER").value is None  # no round played: nothing to engage in
    lar = find(rows, "LAR")
    assert (lar.k, lar.n, lar.value) == (0, 25, 0.0)
    assert find(rows, "good_win_rate").value == 0.0
    assert find(rows, "mission_win_rate").value == 0.0  # evil won, but not by quests
    assert find(rows, "quests_per_game").value == 0.0
    assert find(rows, "SRR").value == 1.0  # every leader put himself on his team


def test_assassination_hit_and_miss():
    rows = measure_table({"c": [good_game(hit=True), good_game(hit=False)]})
    acc = find(rows, "assassination_accuracy")
    assert (acc.k, acc.n) == (1, 2)
    assert find(rows, "assassination_win_rate").value == 0.5
    assert find(rows, "good_win_rate").value == 0.5
    assert find(rows, "WR", group_by="role", group="merlin").value == 0.5
    assert find(rows, "WR", group_by="side", group="evil").value == 0.5
    assert find(rows, "WR", group_by="side", group="good").n == 2  # one per game, not one per good player
    merlin_qer = find(rows, "QER", group_by="role", group="merlin")
    assert (merlin_qer.k, merlin_qer.n) == (6, 6)
    srs = find(rows, "SRS", group_by="role", group="merlin")
    assert (srs.k, srs.n) == (6, 6)
    lar = find(rows, "LAR", group_by="role", group="merlin")
    assert (lar.k, lar.n) == (24, 30)


def test_fvr_vrr_and_groups_by_kind():
    rows = measure_table({"c": [evil_game_with_fallbacks()]})
    fvr = find(rows, "FVR", group_by="role", group="minion")
    assert (fvr.k, fvr.n) == (3, 3)
    assert find(rows, "FVR", group_by="side", group="good") is None  # FVR is for evil players only
    vrr = find(rows, "VRR", group_by="kind", group="lga")
    assert (vrr.k, vrr.n) == (2, 4)
    assert find(rows, "VRR", group_by="model", group="m").value == 0.5
    assert find(rows, "mission_win_rate").value == 1.0
    srr = find(rows, "SRR", group_by="role", group="servant")  # player 3 suggested a team with himself
    assert (srr.k, srr.n) == (1, 1)
    assert find(rows, "SRS", group_by="role", group="servant").value == 0.0


def test_unfinished_games_are_left_out_and_conditions_kept_apart():
    unfinished = good_game(hit=False) | {"status": "interrupted"}
    rows = measure_table({"a": [good_game(hit=False), unfinished], "b": [all_rejected()]})
    assert find(rows, "good_win_rate", "a").games == 1
    assert find(rows, "good_win_rate", "b").value == 0.0


def test_player_and_game_facts():
    facts = player_facts(evil_game_with_fallbacks())
    assert [f.side for f in facts] == ["good", "good", "good", "evil", "evil"]
    assert facts[3].fail_cards == 3 and facts[3].won
    g = game_facts(good_game(hit=True))
    assert (g.quests, g.good_quests, g.assassinations, g.merlin_hits) == (3, 3, 1, 1)


def test_cost_summary():
    cost = cost_summary([evil_game_with_fallbacks(), good_game(hit=True)])
    assert cost["games"] == 2 and cost["calls"] == 10 and cost["calls_per_game"] == 5
    assert cost["cached_share"] == 0.25 and cost["fallbacks"] == 2
    assert cost_summary([])["cached_share"] == 0.0


def test_plain_words_after_dropped_sentences_are_no_fallback_in_the_cost_tables():
    """The cost tables count what the play-quality measure counts: plain words said because the agent's own check
    dropped every sentence are its rule, not a fallback, even in a record whose stored usage counted them."""
    from roundtable.games.fallbacks import PLAIN_WORDS
    from roundtable.store.records import usage_totals

    dropped = {"type": "decision", "player": 2, "request": "r1.a1.speak.p2", "kind": "speak", "fallback": PLAIN_WORDS,
               "checks": ["words expose: sentences dropped"], "usage": {"calls": 2}}
    unusable = {"type": "decision", "player": 3, "request": "r1.a1.vote.p3", "kind": "vote_team",
                "fallback": "no usable reply", "usage": {"calls": 1}}
    events = [dropped, unusable]
    assert usage_totals(events)["game"]["fallbacks"] == 1
    assert usage_totals(events)["2"]["fallbacks"] == 0
    stored = record("old", events, "good", "three_successful_quests",
                    usage={"calls": 3, "decisions": 2, "fallbacks": 2})
    assert cost_summary([stored])["fallbacks"] == 1
    assert cost_summary([dict(stored, events=[])])["fallbacks"] == 2
