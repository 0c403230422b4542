"""Werewolf's rules over random legal play (hypothesis): the invariants of docs/games/werewolf.md hold at every step of
games with any configuration the rules module offers, and every view holds exactly what its player may know
(sentinels planted in every event)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roundtable.games import werewolf as W
from roundtable.games.protocol import Decision, Request

CONFIGS = W.RULES.configurations()


def random_answer(request: Request, rng: random.Random) -> Decision:
    if request.answer == "pick":
        options: list = list(request.candidates) + ([None] * 2 if request.may_pass else [])
        choice = rng.choice(options)
        return Decision.to(request, players=None if choice is None else (choice,))
    if request.answer == "yes_no":
        return Decision.to(request, choice=rng.choice(request.allowed))
    return Decision.to(request, utterance=f"words {rng.random()}")


def play(config: dict, seed: int, rng: random.Random) -> list[tuple[W.WerewolfState, list[Request], W.WerewolfState]]:
    state = W.new_game(W.RULES.config(config), seed)
    steps = []
    while not state.is_over:
        requests = W.pending(state)
        after = W.apply(state, {r.player: random_answer(r, rng) for r in requests})
        steps.append((state, requests, after))
        state = after
    return steps


def check_step(before: W.WerewolfState, requests: list[Request], after: W.WerewolfState) -> None:
    alive = set(before.alive)
    for r in requests:
        assert r.player in alive or (r.kind == "last_words" and r.player == before.eliminated), f"dead: {r}"
        assert set(r.candidates) <= alive, f"a dead player can be named: {r}"
        assert before.role_of(r.player) is {"kill": W.Role.WEREWOLF, "protect": W.Role.GUARD, "save": W.Role.WITCH,
                                            "poison": W.Role.WITCH, "see": W.Role.SEER}.get(r.kind,
                                                                                           before.role_of(r.player))
    kinds = [r.kind for r in requests]
    if "kill" in kinds:
        check_kill(before, requests, after)
    if "protect" in kinds:
        last = [e["target"] for e in before.events if e["type"] == "protect" and e["day"] == before.day - 1]
        assert not set(last) & set(requests[0].candidates), "the guard protects one player two nights running"
        assert set(requests[0].candidates) == alive - set(last), "any other living player, itself included"
    if "save" in kinds:
        target = [e["target"] for e in before.events if e["type"] == "night_target" and e["day"] == before.day]
        assert not any(e["type"] == "save" and e["saved"] for e in before.events) and target[0] is not None
        assert requests[0].details["target"] == target[0]
    if "poison" in kinds:
        assert before.poison and requests[0].player not in requests[0].candidates
        if before.config.rules.potions_per_night is W.PotionsPerNight.ONE:
            assert not before.saved, "two potions in one night"
    if "eliminate" in kinds:
        assert sorted(r.player for r in requests) == sorted(alive)
    new = after.events[len(before.events):]
    died = set(before.alive) - set(after.alive)
    if before.phase is W.Phase.DAWN:
        (result,) = [e for e in new if e["type"] == "night_result"]
        expected = set()
        if result["target"] is not None and result["target"] != result["protected"] and not result["saved"]:
            expected.add(result["target"])
        if result["poisoned"] is not None:
            expected.add(result["poisoned"])
        assert died == expected and [e["players"] for e in new if e["type"] == "deaths"] == [sorted(expected)]
    elif before.phase is W.Phase.DAY_VOTE:
        (result,) = [e for e in new if e["type"] == "vote_result"]
        assert died == ({result["eliminated"]} - {None})
        counts = sorted((v["votes"] for v in result["tally"]), reverse=True)
        assert (result["eliminated"] is None) == (not counts or (len(counts) > 1 and counts[0] == counts[1]))
        if died and not after.is_over:
            assert after.phase is W.Phase.LAST_WORDS and W.pending(after)[0].player in died
    else:
        assert not died, f"a death outside dawn and the vote: {before.phase}"


def check_kill(before: W.WerewolfState, requests: list[Request], after: W.WerewolfState) -> None:
    """The kill vote: all at once, or in seat order each vote told to the living werewolves; the target by the
    night's count (docs/games/werewolf.md#werewolf_night)."""
    wolves = list(before.living(W.Role.WEREWOLF))
    new = after.events[len(before.events):]
    assert all(e["to"] == wolves for e in new if e["type"] in ("kill", "utterance")), "the werewolves' only"
    witch = before.living(W.Role.WITCH)
    assert all(e["to"] in (wolves, list(witch)) for e in new if e["type"] == "night_target")
    tonight = [e["target"] for e in after.events if e["type"] == "kill" and e["day"] == before.day]
    if before.config.rules.werewolf_night is W.WerewolfNight.SIMULTANEOUS:
        assert sorted(r.player for r in requests) == wolves and not any(r.wants_words for r in requests)
        counts = Counter(t for t in tonight if t is not None).most_common()
    else:
        voted = [e["by"] for e in before.events if e["type"] == "kill" and e["day"] == before.day]
        assert voted == wolves[:len(voted)] and [r.player for r in requests] == [wolves[len(voted)]], "seat order"
        assert requests[0].wants_words == (len(wolves) > 1) and requests[0].audience == tuple(wolves)
        assert [v["target"] for v in requests[0].details["votes"]] == tonight[:len(voted)]
        if len(voted) + 1 < len(wolves):
            assert after.phase is W.Phase.WEREWOLVES and not any(e["type"] == "night_target" for e in new)
            return
        counts = Counter(tonight).most_common()  # a pass counts as a choice
    (told,) = [e["target"] for e in new if e["type"] == "night_target" and e["to"] == wolves]
    agreed = counts and (len(counts) == 1 or counts[0][1] > counts[1][1])
    assert told == (counts[0][0] if agreed else None), f"kill votes {tonight}, target {told}"


def check_game(steps: list) -> None:
    final = steps[-1][2]
    events = final.events
    witch = next((p for p in final.players if final.role_of(p) is W.Role.WITCH), None)
    saves = [e for e in events if e["type"] == "save" and e["saved"]]
    poisons = [e for e in events if e["type"] == "poison" and e["target"] is not None]
    assert len(saves) <= 1 and len(poisons) <= 1, "each potion once per game"
    if saves:
        told_after = [e for e in events if e["type"] == "night_target" and e["to"] == [witch]
                      and e["day"] > saves[0]["day"]]
        assert not told_after, "the witch is told the target only while she holds the antidote"
    result = W.RULES.result(final)
    assert final.day <= final.config.rules.max_days
    won = W.winner(final)
    if result.reason == "max_days":
        assert result.winner is None and won is None and final.day == final.config.rules.max_days
    else:
        assert won is not None and (won[0].value, won[1]) == (result.winner, result.reason)
        for _before, _, after in steps[:-1]:
            assert W.winner(after) is None or after.is_over, "the game goes on after a side has won"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**40), play_seed=st.integers(0, 2**32))
def test_random_legal_play_keeps_every_rule(config, seed, play_seed):
    steps = play(config, seed, random.Random(play_seed))
    for before, requests, after in steps:
        check_step(before, requests, after)
    check_game(steps)


def plant(state: W.WerewolfState) -> tuple[W.WerewolfState, dict[str, set[int] | None]]:
    """A copy of ``state`` whose every event carries a sentinel; ``{sentinel: audience, None if public}``."""
    events, audience = [], {}
    for i, e in enumerate(state.events):
        tag = f"<{'SECRET' if isinstance(e['to'], list) else 'PUBLIC'}-{i}>"
        audience[tag] = set(e["to"]) if isinstance(e["to"], list) else None
        events.append({**e, "sentinel": tag})
    return replace(state, events=tuple(events)), audience


def check_view(state: W.WerewolfState, p: int) -> None:
    planted, audience = plant(state)
    view = W.view(planted, p)
    text = view.model_dump_json()
    for tag, who in audience.items():
        assert (tag in text) == (who is None or p in who), f"player {p} and {tag}"
    role = state.role_of(p)
    assert (view.role, view.side) == (role.value, role.side.value)
    wolves = [q for q in state.players if state.role_of(q) is W.Role.WEREWOLF]
    assert [k["player"] for k in view.knowledge] == ([q for q in wolves if q != p] if p in wolves else [])
    for e in view.events:
        if e["type"] in ("role", "knowledge"):
            assert e["player"] == p
        if e["type"] in ("protect", "save", "poison", "seer_result"):
            assert e["by"] == p, f"player {p} sees another's night action {e}"
        if e["type"] == "kill":
            assert p in wolves
        assert e["type"] not in ("decision", "night_result")
        if not state.is_over:
            assert "roles" not in e
    assert (view.alive, view.dead, view.round, view.phase) == (state.alive, state.dead, state.day, state.phase.value)
    shuffled = list(state.roles)
    others = [q for q in state.players if q != p]
    perm = others[:]
    random.Random(p).shuffle(perm)
    for q, r in zip(others, perm, strict=True):
        shuffled[q - 1] = state.roles[r - 1]
    assert W.view(replace(state, roles=tuple(shuffled)), p) == W.view(state, p), "the view reads the log only"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**40))
def test_views_hold_only_what_the_player_may_know(config, seed):
    from roundtable.graphs.phases import decision_record

    rng = random.Random(seed)
    state = W.new_game(W.RULES.config(config), seed)
    moments = [state]
    while not state.is_over:
        requests = W.pending(state)
        answers = {r.player: random_answer(r, rng) for r in requests}
        records = [decision_record(W.RULES, r, answers[r.player], "random") for r in requests]
        state = W.apply(state, answers)
        state = replace(state, events=state.events + tuple(records))  # the game graph's hidden records
        if rng.random() < 0.3 or state.is_over:
            moments.append(state)
    for moment in moments:
        for p in moment.players:
            check_view(moment, p)
