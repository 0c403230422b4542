"""Werewolf's rules (docs/games/werewolf.md; Xu et al. 2023) rule by rule: the night's order and effects, the guard, the
potions, ties, last words, the end and the maximum number of days, role-set validation."""

from __future__ import annotations

from collections import Counter

import pytest
from werewolf_helpers import decision, game, seat, seats, step, until

from roundtable.games import werewolf as W
from roundtable.games.errors import ConfigurationError, IllegalActionError

P = W.Phase
R = W.Role


def deaths(state: W.WerewolfState) -> list[list[int]]:
    return [e["players"] for e in state.events if e["type"] == "deaths"]


def private(state: W.WerewolfState, kind: str, player: int) -> list[dict]:
    return [e for e in state.events if e["type"] == kind and e["to"] == [player]]


def test_the_deal_follows_the_xu7_role_set_and_werewolves_know_each_other():
    state = game(seed=3)
    assert Counter(r.value for r in state.roles) == {"werewolf": 2, "villager": 2, "seer": 1, "witch": 1, "guard": 1}
    wolves = seats(state, R.WEREWOLF)
    for p in state.players:
        known = W.view(state, p).knowledge
        expected = [{"player": q, "is": "werewolf"} for q in wolves if q != p] if p in wolves else []
        assert list(known) == expected
    # xu7 votes on the kill in turn (werewolf_night=sequential, tests/games/test_werewolf_night.py): the first
    # werewolf in seat order is asked first.
    assert state.phase is P.WEREWOLVES and [r.player for r in W.pending(state)] == wolves[:1]
    assert {r.kind for r in W.pending(state)} == {"kill"} and all(r.may_pass for r in W.pending(state))
    assert {seed: game(seed=seed).roles for seed in range(30)}.__len__() > 1, "the deal depends on the seed"


@pytest.mark.parametrize(("votes", "target"), [((None, None), None), ("tie", None), ("one", "one"), ("both", "both")])
def test_the_kill_vote_most_named_dies_a_tie_or_all_passes_kill_nobody(votes, target):
    state = game("potions_per_night=one", "werewolf_night=simultaneous", seed=4)
    w1, w2 = seats(state, R.WEREWOLF)
    villagers = seats(state, R.VILLAGER)
    names = {"tie": (villagers[0], villagers[1]), "one": (villagers[0], None), "both": (villagers[0], villagers[0]),
             (None, None): (None, None)}[votes]
    state = step(state, kill=lambda r: names[0] if r.player == w1 else names[1])
    told = [e["target"] for e in state.events if e["type"] == "night_target" and e["to"] == [w1, w2]]
    assert told == [None if target is None else villagers[0]]
    state = until(state, P.DAY_TALK, protect=lambda r: next(p for p in r.candidates if p not in villagers))
    assert deaths(state) == [[] if target is None else [villagers[0]]]


def test_the_guard_cancels_the_kill_not_the_poison_and_never_protects_one_player_two_nights_running():
    state = game(seed=5)
    guard, witch = seat(state, R.GUARD), seat(state, R.WITCH)
    v1, v2 = seats(state, R.VILLAGER)
    state = until(state, P.DAY_TALK, kill=lambda r: v1, protect=lambda r: v1, poison=lambda r: v2)
    assert deaths(state) == [[v2]], "protected from the kill, not from the poison"
    state = until(state, P.GUARD, eliminate=lambda r: None)
    (request,) = W.pending(state)
    assert request.kind == "protect" and v1 not in request.candidates and guard in request.candidates
    with pytest.raises(IllegalActionError):
        W.apply(state, {guard: decision(request, v1)})
    assert witch in W.view(state, witch).alive


def test_the_witch_is_told_the_target_only_while_she_holds_the_antidote_and_each_potion_works_once():
    state = game("potions_per_night=two", seed=6)
    witch, seer = seat(state, R.WITCH), seat(state, R.SEER)
    v1, v2 = seats(state, R.VILLAGER)
    state = until(state, P.WITCH, kill=lambda r: v1, protect=lambda r: witch)
    (save,) = W.pending(state)
    assert (save.kind, save.options, save.details["target"], save.unclear) == ("save", ("save", "pass"), v1, False)
    assert private(state, "night_target", witch)[-1]["target"] == v1
    state = step(state, save=lambda r: True)
    (poison,) = W.pending(state)
    assert poison.kind == "poison" and witch not in poison.candidates and poison.may_pass
    state = until(state, P.DAY_TALK, poison=lambda r: seer)
    assert deaths(state) == [[seer]], "saved, and the poison still works on the same night under potions_per_night=two"
    told_before = len(private(state, "night_target", witch))
    state = until(state, P.DAWN, kill=lambda r: v2, protect=lambda r: next(p for p in r.candidates if p != v2))
    assert len(private(state, "night_target", witch)) == told_before, "no antidote: not told the target"
    assert not any(e["type"] in ("save", "poison") and e["day"] == 2 for e in state.events)
    state = step(state)
    assert deaths(state)[-1] == [v2]


def test_at_most_one_potion_per_night_by_default():
    state = game(seed=6)
    assert state.config.rules.potions_per_night is W.PotionsPerNight.ONE
    witch = seat(state, R.WITCH)
    v1 = seats(state, R.VILLAGER)[0]
    state = until(state, P.WITCH, kill=lambda r: v1, protect=lambda r: witch)
    state = step(state, save=lambda r: True)
    assert state.phase is not P.WITCH, "a night she saves she is not offered the poison"
    state = until(state, P.DAY_TALK)
    assert deaths(state) == [[]]
    state = until(state, P.WITCH)
    assert [r.kind for r in W.pending(state)] == ["poison"], "the next night she may poison (the antidote is gone)"
    state = until(state, P.DAY_TALK, poison=lambda r: v1)
    assert v1 in deaths(state)[-1] and not state.poison
    state = until(state, P.DAWN)
    if not state.is_over:  # both potions used: the witch is not woken
        assert not any(e["to"] == [witch] and e["day"] == 3 for e in state.events if "day" in e)


def test_the_seer_learns_privately_whether_a_player_is_a_werewolf():
    state = game(seed=7)
    seer, wolf = seat(state, R.SEER), seat(state, R.WEREWOLF)
    state = until(state, P.DAWN, see=lambda r: wolf)
    (result,) = [e for e in state.events if e["type"] == "seer_result"]
    assert result["to"] == [seer] and result["target"] == wolf and result["werewolf"] is True
    assert not any(e.get("target") == wolf for e in W.view(state, wolf).events if e["type"] == "seer_result")


def test_the_speaking_order_is_the_living_players_drawn_fresh_each_day_from_the_seed():
    orders = []
    for seed in range(6):
        state = until(game(seed=seed), P.DAY_TALK)
        (start,) = [e for e in state.events if e["type"] == "day_start"]
        assert sorted(start["order"]) == list(state.alive) and start["to"] is None
        assert [r.player for r in (W.pending(state))] == [start["order"][0]]
        state = until(until(state, P.DAY_VOTE), P.DAY_TALK)
        if not state.is_over:
            orders.append([e["order"] for e in state.events if e["type"] == "day_start"])
        assert until(game(seed=seed), P.DAY_TALK).events == until(game(seed=seed), P.DAY_TALK).events
    assert any(first != second for first, second in orders), "a new order each day"


def test_a_vote_tie_eliminates_nobody_and_the_most_votes_is_eliminated_with_last_words():
    state = until(game(seed=8), P.DAY_VOTE)
    alive = list(state.alive)
    a, b = alive[0], alive[1]
    tie = step(state, eliminate=lambda r: a if r.player in alive[2:4] else b if r.player in alive[4:6] else None)
    (result,) = [e for e in tie.events if e["type"] == "vote_result"]
    assert result["eliminated"] is None and result["tally"] == [{"player": a, "votes": 2}, {"player": b, "votes": 2}]
    assert tie.phase is P.WEREWOLVES and tie.day == 2 and set(tie.alive) == set(alive)
    out = step(state, eliminate=lambda r: a if r.player != a else b)
    assert a not in out.alive
    if not out.is_over:
        assert out.phase is P.LAST_WORDS
        (request,) = W.pending(out)
        assert (request.player, request.kind, request.answer) == (a, "last_words", "words")
        out = step(out, last_words=lambda r: "farewell")
        assert [e for e in out.events if e["type"] == "utterance"][-1] | {"to": None} == {
            "type": "utterance", "to": None, "speaker": a, "phase": "last_words", "day": 1, "text": "farewell"}
        assert out.phase is P.WEREWOLVES and out.day == 2


def test_an_elimination_that_ends_the_game_asks_for_no_last_words():
    state = game(seed=9)
    w1, w2 = seats(state, R.WEREWOLF)
    state = until(state, P.DAY_VOTE)
    state = step(state, eliminate=lambda r: w1 if r.player != w1 else w2)
    state = until(state, P.DAY_VOTE, last_words=lambda r: "no")
    final = step(state, eliminate=lambda r: w2 if r.player != w2 else None)
    assert final.is_over and W.RULES.result(final).model_dump() == {"winner": "village", "reason": "werewolves_dead"}
    assert not any(e["type"] == "utterance" and e["speaker"] == w2 and e["phase"] == "last_words" for e in final.events)


@pytest.mark.parametrize(("rule", "outcome"), [("werewolf_win=parity_or_villagers", ("werewolves", "villagers_dead")),
                                               ("werewolf_win=parity", None)])
def test_werewolves_win_when_every_villager_is_dead_under_xu_et_al(rule, outcome):
    state = game(rule, seed=10)
    v1, v2 = seats(state, R.VILLAGER)
    state = until(state, P.DAY_TALK, kill=lambda r: v1, protect=lambda r: next(p for p in r.candidates if p != v1))
    state = until(state, P.DAY_VOTE)
    state = step(state, eliminate=lambda r: v2 if r.player != v2 else r.candidates[0])
    result = W.RULES.result(state)
    assert (None if result is None else (result.winner, result.reason)) == outcome
    assert len(state.alive) == 5 and len(state.living(R.WEREWOLF)) == 2


def test_werewolves_win_at_parity():
    state = game("werewolf_win=parity", seed=11)
    wolves = seats(state, R.WEREWOLF)

    def village(r):
        return next(p for p in r.candidates if p not in wolves)

    state = until(state, P.OVER, kill=village, eliminate=village,
                  protect=lambda r: next(p for p in r.candidates if p in wolves))
    assert (state.winner, state.end_reason) == (W.Side.WEREWOLVES, "werewolves_at_parity")
    assert len(state.alive) == 4 and set(wolves) <= set(state.alive)


def test_the_maximum_number_of_days_ends_the_game_in_a_draw():
    state = game("max_days=2", seed=12)
    state = until(state, P.OVER, protect=lambda r: r.candidates[0])
    assert state.day == 2 and W.RULES.result(state).model_dump() == {"winner": None, "reason": "max_days"}
    (over,) = [e for e in state.events if e["type"] == "game_over"]
    assert over["winner"] is None and over["day"] == 2 and len(over["roles"]) == 7


def test_illegal_night_actions_are_refused_naming_the_rule():
    state = game("werewolf_night=simultaneous", seed=13)
    wolf = seat(state, R.WEREWOLF)
    requests = {r.player: r for r in W.pending(state)}
    with pytest.raises(IllegalActionError, match="missing"):
        W.apply(state, {wolf: decision(requests[wolf], None)})
    state = until(state, P.SEER)
    (see,) = W.pending(state)
    with pytest.raises(IllegalActionError):
        W.apply(state, {see.player: decision(see, see.player)})
    with pytest.raises(IllegalActionError):
        W.apply(state, {see.player: decision(see, None)})


@pytest.mark.parametrize(("roles", "rules", "message"), [
    (["werewolf", "villager", "seer"], [], "4 to 12 players"),
    (["villager"] * 4 + ["seer", "witch", "guard"], [], "at least one werewolf"),
    (["werewolf"] * 3 + ["villager", "seer", "witch"], [], "fewer than the other players"),
    (["werewolf", "werewolf", "villager", "villager", "seer", "seer", "witch"], [], "only once: seer"),
    (["werewolf", "seer", "witch", "guard", "seer"][:4] + ["guard"], ["werewolf_win=parity"], "only once: guard"),
    (["werewolf", "werewolf", "seer", "witch", "guard"], [], "needs at least one villager"),
    (["werewolf", "villager", "seer", "wizard"], [], "unknown Werewolf role 'wizard'"),
    (None, ["max_days=0"], "max_days must be a whole number"),
    (None, ["potions_per_night=three"], "valid values: one, two"),
    (None, ["discussion=none"], "unknown Werewolf rule variant 'discussion'"),
])
def test_unplayable_configurations_are_refused_with_the_problem_named(roles, rules, message):
    with pytest.raises(ConfigurationError, match=message):
        W.WerewolfConfig.build(roles=roles, rules=rules)


def test_a_configuration_round_trips_and_names_its_problems():
    config = W.RULES.config({"preset": "xu7", "rules": {"max_days": 4, "werewolf_win": "parity"}})
    assert W.RULES.config(W.RULES.config_dict(config)) == config and config.rules.max_days == 4
    for bad, message in [({"preset": "lan6"}, "unknown Werewolf preset"), ({"players": 8}, "is for 7 players"),
                         ({"team": 1}, "unknown configuration field"), ({"roles": "seer"}, "list of role names")]:
        with pytest.raises(ConfigurationError, match=message):
            W.RULES.config(bad)
