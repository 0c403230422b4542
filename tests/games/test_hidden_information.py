"""Hidden information: `view(state, p)` carries exactly what player ``p`` may know.

Bot games (every preset, several seeds and variant combinations, with the
hidden ``decision`` records the game graph adds; Werewolf's under either
``werewolf_night``) are stopped at several moments. Every event gets a
sentinel string: private and hidden ones
(``to`` is a list) a ``<SECRET-i>``, public ones a ``<PUBLIC-i>``. A player's
serialized view must contain the sentinel of every event it may see and of no
other event.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import replace

import pytest
from avalon_helpers import GOOD, PRESET_CASES, configs, expected_knowledge, knows_as_dict, play, seeds
from hypothesis import HealthCheck, given, settings

from roundtable.games import avalon as A
from roundtable.games import werewolf as W
from roundtable.graphs.phases import decision_record
from roundtable.testing.policies import rule_policies

RULE_SETS = {
    "official": ["fifth_rejection=evil_wins", "discussion=leader_first_and_last", "assassination=end_only",
                 "vote_visibility=public"],
    "lan": ["fifth_rejection=leader_assigns", "discussion=before_proposal", "assassination=after_each_quest",
            "vote_visibility=tally_only"],
    "bench_silent": ["fifth_rejection=auto_approve", "discussion=none", "assassination=end_only",
                     "vote_visibility=tally_only"],
}
SEEDS = [0, 7]


def plant(state: A.AvalonState) -> tuple[A.AvalonState, dict[str, set[int] | None]]:
    """A copy of ``state`` whose every event carries a sentinel; ``{sentinel: audience or None (public)}``."""
    events, audience = [], {}
    for i, e in enumerate(state.events):
        if isinstance(e["to"], list):
            tag = f"<SECRET-{i}>"
            audience[tag] = set(e["to"])
        else:
            assert e["to"] is None, f"'to' must be None or a list: {e}"
            tag = f"<PUBLIC-{i}>"
            audience[tag] = None
        events.append({**e, "sentinel": tag})
    return replace(state, events=tuple(events)), audience


def moments(steps) -> list[A.AvalonState]:
    """States worth looking at: the opening, after each quest, the assassination, a few others, the end."""
    picked = {0, len(steps) - 1}
    for i, step in enumerate(steps):
        kinds = {r.kind for r in step.requests}
        if "quest_card" in kinds or "assassinate" in kinds or step.before.phase is A.Phase.ASSASSINATION:
            picked.add(i)
    picked.update(range(0, len(steps), max(1, len(steps) // 4)))
    return [steps[0].before] + [steps[i].after for i in sorted(picked)]


def check_view(state: A.AvalonState, p: int) -> None:
    n = len(state.roles)
    roles = [r.value for r in state.roles]
    planted, audience = plant(state)
    v = A.view(planted, p)
    text = v.model_dump_json()
    for tag, who in audience.items():
        may_see = who is None or p in who
        assert (tag in text) == may_see, (
            f"player {p} {'misses' if may_see else 'sees'} {tag}: "
            f"{planted.events[int(tag.split('-')[1].rstrip('>'))]}"
        )
    # Own role, side and knowledge only.
    assert (v.player, v.role, v.side) == (p, roles[p - 1], "good" if roles[p - 1] in GOOD else "evil")
    assert knows_as_dict(v.knowledge) == expected_knowledge(roles, p)
    for e in v.events:
        assert e["to"] is None or p in e["to"], f"player {p} sees {e}"
        if e["type"] in ("role", "knowledge", "quest_card"):
            assert e["player"] == p, f"player {p} sees another player's {e['type']}: {e}"
        if e["type"] == "vote_team" and state.config.rules.vote_visibility is A.VoteVisibility.TALLY_ONLY:
            assert e["player"] == p, f"tally_only: player {p} sees another player's vote {e}"
        assert e["type"] != "decision", "decision records are for analysis only"
        if not state.is_over:
            assert "roles" not in e, f"the role assignment is public only at the end: {e}"
    # The public status of the table is the same for everyone.
    assert (v.players, v.phase, v.round, v.attempt, v.leader, v.team, v.quest_results) == (
        n, state.phase.value, state.round, state.attempt, state.leader, state.team, state.quest_results)
    assert list(v.role_set) == sorted(r.value for r in state.config.roles)
    # Non-interference: the view does not read the ground-truth role tuple (only the log).
    others = [q for q in state.players if q != p]
    shuffled = list(state.roles)
    perm = others[:]
    random.Random(p).shuffle(perm)
    for q, r in zip(others, perm, strict=True):
        shuffled[q - 1] = state.roles[r - 1]
    assert A.view(replace(state, roles=tuple(shuffled)), p) == A.view(state, p)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules", list(RULE_SETS))
@pytest.mark.parametrize("preset, n", PRESET_CASES)
def test_views_hold_only_what_the_player_may_know(preset, n, rules, seed):
    cfg = A.AvalonConfig.build(preset, n, rules=RULE_SETS[rules])
    kinds = ["naive" if p % 2 else "random" for p in range(1, n + 1)]
    final, steps = play(cfg, seed, kinds, records=True)
    assert any(e["type"] == "decision" and e["to"] == [] for e in final.events)
    secret_types = {e["type"] for e in final.events if isinstance(e["to"], list)}
    assert {"role", "knowledge", "decision"} <= secret_types
    for state in moments(steps):
        for p in state.players:
            check_view(state, p)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=seeds)
def test_views_in_random_games_with_any_role_set(config, seed):
    """Custom role sets (Percival, Morgana, Mordred, Oberon) and any variants, random play."""
    final, steps = play(config, seed, "random", records=True)
    picked = [steps[0].before, steps[len(steps) // 2].after, final]
    picked += [s.after for s in steps if s.requests[0].kind in ("quest_card", "assassinate")][:2]
    for state in picked:
        for p in state.players:
            check_view(state, p)


def test_sentinels_catch_a_leaking_view(monkeypatch):
    """The sentinel check fails on a view that leaks (so the test above can fail)."""
    view_module = importlib.import_module("roundtable.games.protocol")  # where the views filter the log

    final, _ = play(A.AvalonConfig.build("bench5"), 3, "naive", records=True)
    check_view(final, 1)
    monkeypatch.setattr(view_module, "can_see", lambda event, player: True)
    with pytest.raises(AssertionError, match="sees <SECRET-"):
        check_view(final, 1)
    # A view that drops the player's own quest cards misses secrets it may see.
    quester = next(e["player"] for e in final.events if e["type"] == "quest_card")
    monkeypatch.setattr(view_module, "can_see", lambda event, player: event.get("to") is None or (
        event["type"] in ("role", "knowledge") and player in event["to"]))
    with pytest.raises(AssertionError, match="misses <SECRET-"):
        check_view(final, quester)


def test_assassination_talk_is_for_the_evil_council_only():
    roles = ["merlin", "percival", "servant", "servant", "servant", "morgana", "assassin", "oberon"]
    cfg = A.AvalonConfig.build(roles=roles, rules=["discussion=leader_first_and_last"])
    for seed in range(200):
        final, steps = play(cfg, seed, "naive", records=True)
        talk = [e for e in final.events if e["type"] == "utterance" and e["phase"] == "assassination"]
        if talk:
            break
    else:
        pytest.fail("no naive game reached the assassination")
    council = sorted(final.players_with(A.Role.MORGANA, A.Role.ASSASSIN))
    assert all(e["to"] == council for e in talk)
    assert {e["speaker"] for e in talk} == set(council)
    for p in final.players:
        seen = [e for e in A.view(final, p).events if e["type"] == "utterance" and e["phase"] == "assassination"]
        assert len(seen) == (len(talk) if p in council else 0), "Oberon and good players do not hear evil talk"


@pytest.mark.parametrize("preset, n", [("bench5", 5), ("lan6", 6), ("standard", 8)])
def test_a_player_cannot_recompute_the_deal_from_its_view(preset, n):
    """The game seed reproduces the deal (``deal(config, seed)``), so no view may carry it."""
    cfg = A.AvalonConfig.build(preset, n)
    for seed in (10**12 + 17, 987_654_321_012):
        final, _ = play(cfg, seed, "naive", keep_steps=False)
        assert A.deal(cfg, seed).roles == final.roles
        for p in final.players:
            text = A.view(final, p).model_dump_json()
            assert str(seed) not in text, f"player {p} can read the game seed and recompute the deal"
            assert '"seed"' not in text


# ------------------------------------------------------------------ Werewolf


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("night", [n.value for n in W.WerewolfNight])
def test_werewolf_views_hold_only_what_the_player_may_know_under_either_night(night, seed):
    """Werewolf bot games (naive and random seats, with the game graph's hidden decision records) under both
    ``werewolf_night`` values: every view holds the sentinel of each event its player may see and of no other, and
    the werewolves' night votes and words reach the werewolves only (docs/games/werewolf.md#werewolf_night)."""
    policies = rule_policies("werewolf")
    config = W.WerewolfConfig.build(rules=[f"werewolf_night={night}"])
    state = W.new_game(config, seed)
    kinds = ["naive" if p % 2 else "random" for p in state.players]
    moments = [state]
    while not state.is_over:
        requests = W.pending(state)
        answers = {r.player: policies[kinds[r.player - 1]](W.view(state, r.player), r, seed) for r in requests}
        records = tuple(decision_record(W.RULES, r, answers[r.player], kinds[r.player - 1]) for r in requests)
        state = W.apply(state, answers)
        state = replace(state, events=state.events + records)
        if state.phase in (W.Phase.WEREWOLVES, W.Phase.GUARD, W.Phase.DAY_TALK) or state.is_over:
            moments.append(state)
    wolves = {p for p in state.players if state.role_of(p) is W.Role.WEREWOLF}
    night_words = [e for e in state.events if e["type"] == "utterance" and e["phase"] == "werewolves"]
    assert bool(night_words) == (night == "sequential"), "the werewolves speak at night only in turn"
    for e in night_words + [e for e in state.events if e["type"] == "kill"]:
        assert e["to"] is not None and set(e["to"]) <= wolves, f"addressed beyond the werewolves: {e}"
    for moment in moments:
        planted, audience = plant(moment)
        for p in moment.players:
            view = W.view(planted, p)
            text = view.model_dump_json()
            for tag, who in audience.items():
                assert (tag in text) == (who is None or p in who), f"player {p} and {tag}"
            for e in view.events:
                assert e["type"] != "decision"
                if e["type"] in ("kill", "night_target") or (e["type"] == "utterance" and e["to"] is not None):
                    assert p in wolves or (e["type"] == "night_target" and moment.role_of(p) is W.Role.WITCH), (
                        f"player {p} ({moment.role_of(p).value}) sees the werewolves' {e}")
