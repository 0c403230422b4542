"""The werewolves' night vote, rule by rule (docs/games/werewolf.md#werewolf_night): in turn as Xu et al. play it
(``werewolf_night=sequential``, the ``xu7`` default), each vote and its words told to the werewolves only and the
next werewolf voting having heard them, no consensus killing nobody; all at once (``simultaneous``) as before, and
records kept before the variant replaying as they were played."""

from __future__ import annotations

import hashlib
import json

import pytest
from werewolf_helpers import decision, game, seat, seats, step, until

from roundtable.games import werewolf as W
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Decision, Request
from roundtable.games.werewolf.bots import naive
from roundtable.testing import games as suite

P = W.Phase
R = W.Role
NINE = ["werewolf"] * 3 + ["villager"] * 3 + ["seer", "witch", "guard"]
OLD_XU7 = {"roles": ["werewolf", "werewolf", "villager", "villager", "seer", "witch", "guard"],
           "rules": {"potions_per_night": "one", "werewolf_win": "parity_or_villagers", "max_days": "10"},
           "preset": "xu7"}
"""An ``xu7`` configuration as records kept before ``werewolf_night`` existed hold it."""


def kill_request(state: W.WerewolfState) -> Request:
    (request,) = W.pending(state)
    assert request.kind == "kill"
    return request


def vote(state: W.WerewolfState, target: int | None, words: str | None = None) -> W.WerewolfState:
    """The werewolf asked now votes for ``target`` (``None``: a pass), saying ``words`` to its teammates."""
    request = kill_request(state)
    players = None if target is None else (target,)
    return W.apply(state, {request.player: Decision.to(request, players=players, utterance=words)})


def target_told(state: W.WerewolfState) -> int | None:
    wolves = list(state.living(R.WEREWOLF))
    (told,) = [e["target"] for e in state.events if e["type"] == "night_target" and e["to"] == wolves]
    return told


def dawn_deaths(state: W.WerewolfState) -> list[int]:
    """The first night's dead, the Guard protecting itself and the Witch using no potion."""
    state = until(state, P.DAY_TALK, protect=lambda r: r.player)
    return next(e["players"] for e in state.events if e["type"] == "deaths")


# ------------------------------------------------------------------ config


def test_xu7_votes_in_turn_by_default_and_a_role_set_given_by_hand_all_at_once():
    assert W.WerewolfConfig.build().rules.werewolf_night is W.WerewolfNight.SEQUENTIAL
    assert W.WerewolfConfig.build("xu7").rules.werewolf_night is W.WerewolfNight.SEQUENTIAL
    assert W.RULES.config({"preset": "xu7"}).rules.werewolf_night is W.WerewolfNight.SEQUENTIAL
    assert W.RULES.config({}).rules.werewolf_night is W.WerewolfNight.SEQUENTIAL
    assert W.WerewolfConfig.build(rules=["werewolf_night=simultaneous"]).rules.werewolf_night.value == "simultaneous"
    assert W.WerewolfConfig.build(roles=NINE).rules.werewolf_night is W.WerewolfNight.SIMULTANEOUS
    assert W.Rules().werewolf_night is W.WerewolfNight.SIMULTANEOUS, "what a record without the variant played"


def test_a_record_holds_the_night_only_when_in_turn_and_an_old_record_replays_all_at_once():
    assert W.RULES.config_dict(W.RULES.config({"preset": "xu7"}))["rules"]["werewolf_night"] == "sequential"
    simultaneous = W.RULES.config({"preset": "xu7", "rules": {"werewolf_night": "simultaneous"}})
    assert "werewolf_night" not in W.RULES.config_dict(simultaneous)["rules"]
    assert W.RULES.config_dict(simultaneous) == OLD_XU7
    assert W.RULES.config(OLD_XU7).rules.werewolf_night is W.WerewolfNight.SIMULTANEOUS
    for config in (W.RULES.config({}), simultaneous):
        assert W.RULES.config(W.RULES.config_dict(config)) == config
        assert W.WerewolfConfig.from_dict(config.to_dict()) == config


@pytest.mark.parametrize("value", ["both", "SEQUENTIAL", "in_turn"])
def test_an_unknown_night_is_refused_naming_the_valid_ones(value):
    with pytest.raises(ConfigurationError, match="rule werewolf_night cannot be .*valid values: sequential, "
                                                 "simultaneous"):
        W.WerewolfConfig.build(rules=[f"werewolf_night={value}"])


def test_the_conformance_configurations_play_both_nights_with_two_and_three_werewolves():
    configs = [W.RULES.config(c) for c in W.RULES.configurations()]
    pairs = {(c.rules.werewolf_night, c.roles.count(R.WEREWOLF)) for c in configs}
    assert {(n, k) for n in W.WerewolfNight for k in (2, 3)} <= pairs


# ------------------------------------------------------------- in turn


def test_the_werewolves_vote_in_seat_order_one_request_at_a_time_asked_for_words_to_their_teammates():
    state = game(seed=3)
    w1, w2 = seats(state, R.WEREWOLF)
    first = kill_request(state)
    assert (first.player, first.may_pass, first.wants_words, first.audience) == (w1, True, True, (w1, w2))
    assert first.details == {"werewolves": [w1, w2], "votes": []}
    assert set(first.candidates) == set(state.alive)
    villager = seat(state, R.VILLAGER)
    state = vote(state, villager, "The quiet one first.")
    assert state.phase is P.WEREWOLVES and state.target is None
    second = kill_request(state)
    assert (second.player, second.wants_words) == (w2, True)
    assert second.details["votes"] == [{"player": w1, "target": villager}]


def test_the_second_werewolf_sees_the_first_ones_vote_and_words_before_voting():
    state = game(seed=3)
    w1, w2 = seats(state, R.WEREWOLF)
    villager = seat(state, R.VILLAGER)
    state = vote(state, villager, f"Let us take Player {villager}: too sharp.")
    heard = [e for e in W.view(state, w2).events if e["type"] in ("utterance", "kill")]
    assert heard == [
        {"type": "utterance", "to": [w1, w2], "speaker": w1, "phase": "werewolves", "day": 1,
         "text": f"Let us take Player {villager}: too sharp."},
        {"type": "kill", "to": [w1, w2], "day": 1, "by": w1, "target": villager},
    ], "the words, then the vote, addressed to the werewolves"
    state = vote(state, villager, "Agreed.")
    assert [e["text"] for e in W.view(state, w1).events if e["type"] == "utterance"] == [
        f"Let us take Player {villager}: too sharp.", "Agreed."], "the first werewolf hears the answer too"
    assert target_told(state) == villager


def test_no_other_player_ever_sees_the_werewolves_votes_or_words():
    state = game(seed=3)
    wolves = seats(state, R.WEREWOLF)
    state = vote(state, seat(state, R.SEER), "SECRET-WORDS-1")
    partial = state
    state = vote(state, seat(state, R.SEER), "SECRET-WORDS-2")
    state = until(state, P.OVER, kill=lambda r: next(p for p in r.candidates if p not in wolves),
                  protect=lambda r: r.candidates[0])
    for moment in (partial, state):
        for p in moment.players:
            text = W.view(moment, p).model_dump_json()
            if p in wolves:
                assert "SECRET-WORDS-1" in text
                continue
            assert "SECRET-WORDS" not in text, f"player {p} hears the werewolves"
            seen = W.view(moment, p).events
            assert not [e for e in seen if e["type"] == "kill" or (e["type"] == "utterance" and e["to"] is not None)]


def test_words_are_optional_and_the_vote_goes_alone_without_them():
    state = game(seed=3)
    w1, w2 = seats(state, R.WEREWOLF)
    state = vote(state, seat(state, R.SEER))
    assert not any(e["type"] == "utterance" for e in state.events)
    assert [e for e in state.events if e["type"] == "kill"][-1] == {"type": "kill", "to": [w1, w2], "day": 1,
                                                                  "by": w1, "target": seat(state, R.SEER)}


@pytest.mark.parametrize(("first", "second", "dies"), [
    ("villager", "villager", True),
    ("villager", "seer", False),      # a split vote: no consensus (Xu et al., Appendix, night 2)
    ("villager", None, False),        # a vote against a pass: no consensus either (their moderator's count)
    (None, None, False),
])
def test_two_werewolves_kill_only_when_they_name_the_same_player(first, second, dies):
    state = game(seed=4)
    role = {"villager": R.VILLAGER, "seer": R.SEER}
    a = None if first is None else seat(state, role[first])
    b = None if second is None else seat(state, role[second])
    state = vote(vote(state, a), b)
    assert target_told(state) == (a if dies else None)
    assert dawn_deaths(state) == ([a] if dies else [])


@pytest.mark.parametrize(("votes", "target"), [
    ((0, 0, None), 0),          # two of three agree: the most named dies, a pass is outvoted
    ((0, 1, 0), 0),
    ((0, 1, None), None),       # one each: no consensus
    ((None, None, 0), None),    # the passes have it
    ((0, None, None), None),
    ((None, None, None), None),
])
def test_three_werewolves_the_choice_named_most_wins_a_pass_counting_as_a_choice(votes, target):
    state = W.new_game(W.WerewolfConfig.build(roles=NINE, rules=["werewolf_night=sequential"]), 5)
    wolves = seats(state, R.WEREWOLF)
    villagers = seats(state, R.VILLAGER)
    for k, v in enumerate(votes):
        assert kill_request(state).player == wolves[k]
        assert kill_request(state).details["votes"] == [
            {"player": wolves[j], "target": None if u is None else villagers[u]} for j, u in enumerate(votes[:k])]
        state = vote(state, None if v is None else villagers[v])
    assert state.phase is not P.WEREWOLVES
    assert target_told(state) == (None if target is None else villagers[target])


def test_a_dead_werewolf_is_skipped_and_a_lone_werewolf_is_asked_for_no_words():
    state = game(seed=9)
    w1, w2 = seats(state, R.WEREWOLF)
    state = until(state, P.DAY_VOTE, kill=lambda r: None)
    state = step(state, eliminate=lambda r: w1 if r.player != w1 else w2)
    state = until(state, P.WEREWOLVES, last_words=lambda r: "bye")
    assert w1 not in state.alive
    lone = kill_request(state)
    assert (lone.player, lone.wants_words, lone.audience, lone.details["votes"]) == (w2, False, (w2,), [])
    state = vote(state, seat(state, R.SEER), "nobody hears this")
    assert target_told(state) == seat(state, R.SEER), "alone, its vote is the consensus"
    assert not any(e["type"] == "utterance" and e["phase"] == "werewolves" for e in state.events)


def test_a_game_restored_from_its_snapshot_mid_vote_waits_for_the_next_werewolf():
    state = game(seed=3)
    state = vote(state, seat(state, R.VILLAGER), "you next")
    bare = W.WerewolfState.restore(json.loads(json.dumps(state.snapshot())), ())
    assert bare.kill_votes == state.kill_votes and W.pending(bare) == W.pending(state)
    assert W.WerewolfState.restore(state.snapshot(), state.events) == state


def test_illegal_votes_in_turn_are_refused():
    state = game(seed=3)
    w1, w2 = seats(state, R.WEREWOLF)
    request = kill_request(state)
    with pytest.raises(W.IllegalActionError, match="not asked of players"):
        W.apply(state, {w1: decision(request, None), w2: Decision(request_id=f"d1.kill.p{w2}", player=w2,
                                                                     kind="kill")})
    with pytest.raises(W.IllegalActionError):
        W.apply(state, {w1: decision(request, max(state.players) + 1)})


# ----------------------------------------------------------- all at once


def test_all_at_once_the_werewolves_vote_together_without_words_as_before():
    state = game("werewolf_night=simultaneous", seed=4)
    w1, w2 = seats(state, R.WEREWOLF)
    requests = W.pending(state)
    assert [r.player for r in requests] == [w1, w2]
    assert not any(r.wants_words or r.audience for r in requests)
    assert all(r.details == {"werewolves": [w1, w2]} for r in requests)
    villager = seat(state, R.VILLAGER)
    state = step(state, kill=lambda r: villager if r.player == w1 else None)
    assert target_told(state) == villager, "all at once, passes are not counted"


# Event logs of random legal play of OLD_XU7, and of the game graph with naive and random seats, as the rules before
# werewolf_night played them (computed from the commit before it): an old record replays identically.
OLD_LOGS = {0: "f4a22eb7abeaafa6c08ec290cdfcd9e825641a0ba434bbcf45c8f0a0b21e25fe",
            1: "f02215c102aaf94183da9e29271fe39a852f7e210ec80ad2f29fb1f8bb6a6a4e",
            2: "a45f2dc3dc6c2f6353d407047032e0645c191fc608ba047a54bb615ddbd2df4e",
            3: "00912cc9a75d227e1dc7e81b31f1a4cd0ef0123600bcec6b6b32654dfec60508"}
OLD_GRAPH_LOGS = {0: "f45da5f43d2da510f6cf28cb28cb0bca62232938468cd9a16c0c853ab4ecae0a",
                  1: "f57f7a2d8273bf559fd84bdcc28f7a6ba039ef276cd19ed67c9ed9c995791397"}


def digest(events) -> str:
    return hashlib.sha256(json.dumps(list(events), sort_keys=True).encode()).hexdigest()


@pytest.mark.parametrize("seed", sorted(OLD_LOGS))
def test_an_old_xu7_record_replays_exactly_as_it_was_played(seed):
    final, _ = suite.play(W.RULES, OLD_XU7, seed)
    assert digest(W.RULES.events(final)) == OLD_LOGS[seed]


@pytest.mark.parametrize("seed", sorted(OLD_GRAPH_LOGS))
def test_an_old_xu7_bot_game_replays_through_the_graph_exactly_as_it_was_played(seed):
    from roundtable.graphs.werewolf import graph

    kinds = ["naive", "random", "naive", "naive", "random", "naive", "naive"]
    out = graph.invoke({"config": OLD_XU7, "seed": seed, "seats": [{"kind": k} for k in kinds]},
                       {"recursion_limit": 10_000})
    assert digest(out["events"]) == OLD_GRAPH_LOGS[seed]


# ---------------------------------------------------------- the rule bots


def test_a_naive_werewolf_voting_second_follows_its_teammate_and_tells_its_vote():
    state = game(seed=3)
    w1, w2 = seats(state, R.WEREWOLF)
    for victim in [p for p in state.alive if p not in (w1, w2)]:
        after = vote(state, victim, "this one")
        request = kill_request(after)
        answer = naive.decide(W.view(after, w2), request, seed=1)
        assert answer.players == (victim,) and answer.utterance == f"Agreed, Player {victim}."
    first = naive.decide(W.view(state, w1), kill_request(state), seed=1)
    assert first.players and first.players[0] not in (w1, w2)
    assert first.utterance == f"Let us kill Player {first.players[0]} tonight."
    assert W.RULES.plain_words(W.view(state, w1), kill_request(state), Decision.to(kill_request(state))) == (
        "I pass tonight.")
