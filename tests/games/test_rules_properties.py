"""Property-based and directed tests of the Avalon rules library (docs/games/avalon.md).

Random legal play (the ``random`` bot, hypothesis-drawn seeds, every preset,
custom role sets and every variant combination) and ``naive`` games are checked
against an independent reading of the rules: `check_game` walks the event log
with its own bookkeeping and the setup table copied from the spec.
"""

from __future__ import annotations

from collections import Counter

import pytest
from avalon_helpers import (
    END_REASONS,
    EVIL,
    GOOD,
    TABLE,
    VARIANTS,
    Step,
    configs,
    decide_all,
    decision,
    expected_knowledge,
    fails_needed,
    knows_as_dict,
    play,
    seeds,
    step_bound,
    team_size,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roundtable.games import avalon as A
from roundtable.games.avalon import ConfigurationError, IllegalActionError

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ the oracle


def check_steps(config: A.AvalonConfig, steps: list[Step]) -> None:
    """Per-transition checks: what is asked of whom, append-only log, good players cannot fail."""
    n = config.players
    ids = [r.id for step in steps for r in step.requests]
    assert len(ids) == len(set(ids)), "request ids are unique within a game"
    for step in steps:
        s, requests = step.before, step.requests
        assert all((r.round, r.attempt, r.phase) == (s.round, s.attempt, s.phase.value) for r in requests)
        assert step.after.events[: len(s.events)] == s.events, "the log must be append-only"
        assert len(step.after.events) > len(s.events)
        kinds = {r.kind for r in requests}
        assert len(kinds) == 1, f"mixed requests {requests}"
        kind = kinds.pop()
        players = [r.player for r in requests]
        assert len(set(players)) == len(players)
        assert len({r.id for r in requests}) == len(requests)
        if kind == "propose_team":
            (r,) = requests
            assert r.player == s.leader
            assert r.count == team_size(n, s.round)
            assert set(r.candidates) == set(range(1, n + 1))
        elif kind == "vote_team":
            assert sorted(players) == list(range(1, n + 1))
            assert all(r.subject == s.team for r in requests)
        elif kind == "quest_card":
            assert sorted(players) == sorted(s.team)
            assert len(s.team) == team_size(n, s.round)
            for r in requests:
                if s.role_of(r.player).value in GOOD:
                    assert r.allowed == (True,), f"good player {r.player} is offered {r.allowed}"
                    # An illegal fail from a good player is refused, naming the rule.
                    bad = dict(step.decisions)
                    bad[r.player] = bad[r.player].model_copy(update={"choice": False})
                    with pytest.raises(IllegalActionError, match=rf"player {r.player} may only answer success"):
                        A.apply(s, bad)
                elif config.rules.evil_quest_card is A.EvilQuestCard.MUST_FAIL:
                    assert r.allowed == (False,), f"evil player {r.player} must play fail, offered {r.allowed}"
                    bad = dict(step.decisions)
                    bad[r.player] = bad[r.player].model_copy(update={"choice": True})
                    with pytest.raises(IllegalActionError, match=rf"player {r.player} may only answer fail"):
                        A.apply(s, bad)
                else:
                    assert set(r.allowed) == {True, False}
        elif kind == "assassinate":
            (r,) = requests
            assert s.role_of(r.player) is A.Role.ASSASSIN
            council = {p for p in s.players if s.role_of(p).value in EVIL - {"oberon"}}
            if config.rules.assassination_targets is A.AssassinationTargets.ANY_SEAT:
                assert set(r.candidates) == set(s.players), "AvalonBench's Assassin may name any seat"
            else:
                assert set(r.candidates) == set(s.players) - council
            assert r.may_pass == (s.quest_results.count(True) < 3)
            assert r.may_pass is False or config.rules.assassination is A.Assassination.AFTER_EACH_QUEST


def check_game(config: A.AvalonConfig, seed: int, final: A.AvalonState, steps: list[Step] = ()) -> None:
    """Walk the log of a finished game with independent bookkeeping; assert every rule."""
    n = config.players
    rules = config.rules.to_dict()
    public_votes = rules["vote_visibility"] == "public"
    two_fail = rules.get("two_fail_quests", "official")
    must_fail = rules.get("evil_quest_card") == "must_fail"
    ev = list(final.events)
    roles = [r.value for r in final.roles]
    council = sorted(p for p in range(1, n + 1) if roles[p - 1] in EVIL - {"oberon"})
    assassin = [p for p in range(1, n + 1) if roles[p - 1] == "assassin"]
    can_shoot = "merlin" in roles and bool(assassin)

    # Deal and reveal.
    assert Counter(roles) == Counter(r.value for r in config.roles)
    assert ev[0]["type"] == "game_start" and ev[0]["to"] is None and ev[0]["players"] == n
    role_events = [e for e in ev if e["type"] == "role"]
    assert [(e["player"], e["role"], e["side"], e["to"]) for e in role_events] == [
        (p, roles[p - 1], "good" if roles[p - 1] in GOOD else "evil", [p]) for p in range(1, n + 1)
    ]
    knowledge = [e for e in ev if e["type"] == "knowledge"]
    assert [e["player"] for e in knowledge] == list(range(1, n + 1))
    for e in knowledge:
        assert e["to"] == [e["player"]]
        assert knows_as_dict(e["knows"]) == expected_knowledge(roles, e["player"]), (roles, e)

    # The end.
    assert final.is_over
    assert [i for i, e in enumerate(ev) if e["type"] == "game_over"] == [len(ev) - 1]
    over = ev[-1]
    assert over["to"] is None and over["winner"] in ("good", "evil") and over["reason"] in END_REASONS
    assert final.winner is not None and final.winner.value == over["winner"] and final.end_reason == over["reason"]
    assert over["roles"] == {str(p): roles[p - 1] for p in range(1, n + 1)}
    assert A.pending(final) == []
    with pytest.raises(IllegalActionError, match="game is over"):
        A.apply(final, {})

    # The rounds, event by event.
    round_, attempt, leader = 0, 0, None
    team_final: list[int] | None = None
    approved: list[int] | None = None
    votes: dict[int, bool] = {}
    cards: dict[int, bool] = {}
    results: list[bool] = []
    proposals_in_attempt = 0
    shot_taken = False
    phase = "setup"
    speakers: list[int] = []
    for i, e in enumerate(ev):
        t = e["type"]
        nxt = ev[i + 1] if i + 1 < len(ev) else None
        if t == "round_start":
            assert e["to"] is None
            round_ += 1
            assert e["round"] == round_ <= 5
            assert (e["team_size"], e["fails_needed"]) == (team_size(n, round_), fails_needed(n, round_, two_fail))
            attempt, approved = 0, None
            assert nxt["type"] == "leader"
        elif t == "leader":
            attempt += 1
            assert (e["round"], e["attempt"]) == (round_, attempt) and attempt <= 5
            if leader is None:
                assert 1 <= e["leader"] <= n
            else:
                assert e["leader"] == leader % n + 1, f"leader {leader} was followed by {e['leader']}"
            leader = e["leader"]
            team_final, votes, proposals_in_attempt, speakers = None, {}, 0, []
            phase = "discussion" if rules["discussion"] == "before_proposal" else "proposal"
        elif t == "proposal":
            assert e["to"] is None and (e["round"], e["attempt"], e["leader"]) == (round_, attempt, leader)
            team = e["team"]
            assert len(team) == team_size(n, round_) and len(set(team)) == len(team)
            assert all(1 <= p <= n for p in team)
            proposals_in_attempt += 1
            if rules["discussion"] == "leader_first_and_last":
                assert e["final"] == (proposals_in_attempt == 2)
                if proposals_in_attempt == 1:
                    phase = "discussion"
            elif rules["discussion"] == "leader_first":
                # one proposal, final at once, before anybody else speaks; no second one (no last word)
                assert e["final"] is True and proposals_in_attempt == 1 and speakers == []
            else:
                assert e["final"] is True and proposals_in_attempt == 1
                if rules["discussion"] == "before_proposal":
                    # everybody spoke, the leader last, before the proposal
                    assert speakers == [(leader - 1 + k) % n + 1 for k in range(1, n)] + [leader]
            if rules["discussion"] == "leader_first_and_last" and e["final"]:
                assert speakers == [(leader - 1 + k) % n + 1 for k in range(1, n)]
            if e["final"]:
                team_final = team
                phase = "discussion" if rules["discussion"] == "leader_first" else "vote"
        elif t == "utterance":
            assert rules["discussion"] != "none", "no talk when discussion=none"
            assert (e["round"], e["attempt"]) == (round_, attempt)
            if phase == "assassination":
                assert e["to"] == council
                assert e["speaker"] in council
            else:
                assert e["to"] is None
                if e["phase"] == "discussion":
                    if rules["discussion"] == "leader_first":
                        assert team_final is not None, "leader_first: the others speak about the team named"
                    speakers.append(e["speaker"])
                else:
                    assert e["phase"] == "proposal" and e["speaker"] == leader
        elif t == "vote_team":
            assert team_final is not None and (e["round"], e["attempt"]) == (round_, attempt)
            if rules["discussion"] == "leader_first":  # everybody else spoke once, then the vote: no last word
                assert speakers == [(leader - 1 + k) % n + 1 for k in range(1, n)]
            assert attempt < 5 or rules["fifth_rejection"] == "evil_wins", "the fifth team goes without a vote"
            assert e["player"] not in votes
            assert e["to"] == (None if public_votes else [e["player"]])
            votes[e["player"]] = e["approve"]
        elif t == "vote_result":
            assert e["to"] is None and (e["round"], e["attempt"]) == (round_, attempt)
            assert sorted(votes) == list(range(1, n + 1))
            yes = sum(votes.values())
            assert (e["approvals"], e["rejections"]) == (yes, n - yes)
            assert e["approved"] == (2 * yes > n), "a strict majority approves; ties reject"
            assert e["team"] == team_final
            if public_votes:
                assert e["approvers"] == sorted(p for p, v in votes.items() if v)
            else:
                assert "approvers" not in e
            if e["approved"]:
                approved = team_final
                assert nxt["type"] == "quest_card"
            elif attempt == 5:
                assert (nxt["type"], nxt["winner"], nxt["reason"]) == ("game_over", "evil", "five_rejected_proposals")
            else:
                assert nxt["type"] == "leader" and nxt["round"] == round_
        elif t == "team_approved":
            assert attempt == 5 and rules["fifth_rejection"] in ("auto_approve", "leader_assigns")
            if rules["discussion"] == "leader_first":
                assert speakers == [(leader - 1 + k) % n + 1 for k in range(1, n)]
            assert e["by"] == rules["fifth_rejection"] and e["team"] == team_final and not votes
            assert (e["round"], e["attempt"]) == (round_, attempt)
            approved = team_final
            assert nxt["type"] == "quest_card"
        elif t == "quest_card":
            assert approved is not None and e["player"] in approved and e["round"] == round_
            assert e["to"] == [e["player"]]
            if roles[e["player"] - 1] in GOOD:
                assert e["success"] is True, "good players can only play success"
            elif must_fail:
                assert e["success"] is False, "under evil_quest_card=must_fail evil players play fail"
            cards[e["player"]] = e["success"]
        elif t == "quest_result":
            assert e["to"] is None and e["round"] == round_
            assert sorted(cards) == sorted(approved) and e["team"] == approved
            fails = sum(1 for ok in cards.values() if not ok)
            needed = fails_needed(n, round_, two_fail)
            assert (e["fails"], e["fails_needed"]) == (fails, needed)
            assert e["success"] == (fails < needed), "a quest fails iff fails >= fails needed"
            results.append(e["success"])
            cards = {}
            if results.count(False) == 3:
                assert (nxt["type"], nxt["winner"], nxt["reason"]) == ("game_over", "evil", "three_failed_quests")
            elif results.count(True) == 3:
                if can_shoot and not shot_taken:
                    assert (nxt["type"], nxt["optional"]) == ("assassination_phase", False)
                else:
                    assert (nxt["type"], nxt["winner"], nxt["reason"]) == (
                        "game_over", "good", "three_successful_quests")
            elif can_shoot and rules["assassination"] == "after_each_quest" and not shot_taken:
                assert (nxt["type"], nxt["optional"]) == ("assassination_phase", True)
            else:
                assert nxt["type"] == "round_start"
        elif t == "assassination_phase":
            assert e["to"] is None and can_shoot and not shot_taken
            phase = "assassination"
            speakers = []
        elif t == "assassination":
            assert phase == "assassination"
            talk = rules["discussion"] != "none" and results.count(True) == 3
            expected_talk = [p for p in council if p != assassin[0]] if talk else []
            assert [x["speaker"] for x in ev[:i] if x["type"] == "utterance"
                    and x["to"] == council and x["round"] == round_ and x["phase"] == "assassination"
                    and x["speaker"] != assassin[0]] == expected_talk
            if e["target"] is None:
                assert results.count(True) < 3 and rules["assassination"] == "after_each_quest"
                assert "assassin" not in e, "a pass does not tell the table who the Assassin is"
                assert nxt["type"] == "round_start"
            else:
                assert e["assassin"] == assassin[0]
                shot_taken = True
                assert e["target"] not in council or rules.get("assassination_targets") == "any_seat"
                assert e["hit"] == (roles[e["target"] - 1] == "merlin")
                if e["hit"]:
                    assert "exposed" not in e
                    assert (nxt["type"], nxt["winner"], nxt["reason"]) == ("game_over", "evil", "merlin_assassinated")
                elif results.count(True) == 3:
                    assert "exposed" not in e
                    assert (nxt["type"], nxt["winner"], nxt["reason"]) == (
                        "game_over", "good", "three_successful_quests")
                else:  # Lan et al.: a mid-game miss exposes the Assassin publicly and play goes on
                    assert rules["assassination"] == "after_each_quest" and e["exposed"] is True and e["to"] is None
                    assert nxt["type"] == "round_start"
        elif t in ("game_start", "role", "knowledge", "game_over", "decision"):
            pass
        else:
            raise AssertionError(f"unexpected event {e}")
    assert list(final.quest_results) == results
    if steps:
        check_steps(config, steps)
        assert len(steps) <= step_bound(n)


# ----------------------------------------------------------- property tests


@settings(max_examples=300, **SETTINGS)
@given(config=configs(), seed=seeds)
def test_random_play_obeys_the_rules(config, seed):
    final, steps = play(config, seed, "random")
    check_game(config, seed, final, steps)


@settings(max_examples=40, **SETTINGS)
@given(config=configs(), seed=seeds)
def test_naive_play_obeys_the_rules(config, seed):
    final, steps = play(config, seed, "naive")
    check_game(config, seed, final, steps)


@settings(max_examples=40, **SETTINGS)
@given(data=st.data(), config=configs(), seed=seeds)
def test_mixed_bots_obey_the_rules(data, config, seed):
    seats = data.draw(st.lists(st.sampled_from(["naive", "random"]), min_size=config.players,
                               max_size=config.players))
    final, steps = play(config, seed, seats)
    check_game(config, seed, final, steps)


@settings(max_examples=60, **SETTINGS)
@given(config=configs(), seed=seeds)
def test_deal_and_reveal(config, seed):
    """Roles are a permutation of the role set; each player learns exactly what its role sees."""
    state = A.new_game(config, seed)
    assert state == A.new_game(config, seed), "the deal is a function of the seed"
    dealt = A.deal(config, seed)
    assert dealt.roles == state.roles and dealt.leader == state.leader
    roles = [r.value for r in state.roles]
    assert Counter(roles) == Counter(r.value for r in config.roles)
    first = next(e for e in state.events if e["type"] == "leader")
    assert (first["round"], first["attempt"], first["leader"]) == (1, 1, state.leader)
    for p in state.players:
        v = A.view(state, p)
        assert (v.role, v.side) == (roles[p - 1], "good" if roles[p - 1] in GOOD else "evil")
        assert knows_as_dict(v.knowledge) == expected_knowledge(roles, p)


def test_random_play_reaches_every_ending_and_variant_path():
    """The property tests are not vacuous: the random bot reaches every end and every fifth-proposal path."""
    reasons: Counter = Counter()
    paths: Counter = Counter()
    for seed in range(60):
        for fifth in VARIANTS["fifth_rejection"]:
            cfg = A.AvalonConfig.build("standard", 5 + seed % 6, rules=[
                f"fifth_rejection={fifth}", "discussion=none",
                f"assassination={VARIANTS['assassination'][seed % 2]}"])
            final, _ = play(cfg, seed, "random", keep_steps=False)
            reasons[final.end_reason] += 1
            paths[fifth] += sum(1 for e in final.events if e["type"] == "team_approved" or (
                e["type"] == "vote_result" and e["attempt"] == 5))
    assert set(reasons) == END_REASONS, reasons
    assert all(paths[f] > 0 for f in VARIANTS["fifth_rejection"]), paths


# ----------------------------------------------------------- first leader


@pytest.mark.parametrize("n", range(5, 11))
def test_every_seat_can_be_first_leader(n):
    cfg = A.AvalonConfig.build("standard", n)
    leaders = Counter(A.deal(cfg, seed).leader for seed in range(40 * n))
    assert set(leaders) == set(range(1, n + 1)), leaders
    merlins = Counter(A.deal(cfg, seed).roles.index(A.Role.MERLIN) + 1 for seed in range(40 * n))
    assert set(merlins) == set(range(1, n + 1)), "every seat can be dealt Merlin"


# ----------------------------------------------------------- scripted games


def advance(state: A.AvalonState, answer, until) -> A.AvalonState:
    """Apply ``answer(state, request) -> fields`` until ``until(state)`` or the end."""
    for _ in range(500):
        if state.is_over or until(state):
            return state
        state = A.apply(state, decide_all(state, lambda r, state=state: answer(state, r)))
    raise AssertionError("scripted game did not reach its goal")


def goods_and_evils(state):
    good = [p for p in state.players if state.side_of(p) is A.Side.GOOD]
    evil = [p for p in state.players if state.side_of(p) is A.Side.EVIL]
    return good, evil


def planned_quests(plan: dict[int, list[int]], good: list[int]):
    """Answers that send ``plan[round]`` (the players who fail) plus good players on each quest, all approved."""

    def answer(s, r):
        if r.kind == "propose_team":
            bad = plan[s.round][: r.count]
            return {"team": tuple(sorted(bad + good[: r.count - len(bad)]))}
        if r.kind == "vote_team":
            return {"approve": True}
        if r.kind == "quest_card":
            return {"success": r.player not in plan[s.round]}
        raise AssertionError(r)

    return answer


@pytest.mark.parametrize("n, fails", [
    (n, k) for n in range(5, 11) for k in range(min(TABLE[n][1], TABLE[n][2][3]) + 1)])
def test_quest_four_fail_threshold(n, fails):
    """Quest 4 needs two fails with 7+ players (one otherwise); the other quests need one."""
    cfg = A.AvalonConfig.build("standard", n, rules=["discussion=none"])
    state = A.new_game(cfg, 11)
    good, evil = goods_and_evils(state)
    # Quests 1-3: success, fail (one fail card), success; then quest 4 with ``fails`` fail cards.
    plan = {1: [], 2: evil[:1], 3: [], 4: evil[:fails]}
    state = advance(state, planned_quests(plan, good), lambda s: len(s.quest_results) == 4)
    assert list(state.quest_results[:3]) == [True, False, True], "one fail card fails quest 2"
    result = next(e for e in state.events if e["type"] == "quest_result" and e["round"] == 4)
    needed = 2 if n >= 7 else 1
    assert (result["fails"], result["fails_needed"]) == (fails, needed)
    assert result["success"] is (fails < needed)
    assert state.quest_results[3] is (fails < needed)


@pytest.mark.parametrize("two_fail", ["official", "four_and_five"])
@pytest.mark.parametrize("n, fails", [(n, k) for n in (5, 7, 10) for k in range(3)])
def test_quest_five_fail_threshold(two_fail, n, fails):
    """Quest 5 needs two fails with 7+ players under two_fail_quests=four_and_five only (Shi et al.)."""
    cfg = A.AvalonConfig.build("standard", n, rules=["discussion=none", f"two_fail_quests={two_fail}"])
    state = A.new_game(cfg, 5)
    good, evil = goods_and_evils(state)
    plan = {1: [], 2: evil[:1], 3: [], 4: evil[:2], 5: evil[:fails]}
    state = advance(state, planned_quests(plan, good), lambda s: s.is_over or len(s.quest_results) == 5)
    assert len(state.quest_results) == 5, "quests 2 and 4 failed, 1 and 3 succeeded"
    start = next(e for e in state.events if e["type"] == "round_start" and e["round"] == 5)
    result = next(e for e in state.events if e["type"] == "quest_result" and e["round"] == 5)
    needed = 2 if n >= 7 and two_fail == "four_and_five" else 1
    assert start["fails_needed"] == result["fails_needed"] == needed
    assert result["success"] is (fails < needed)


@settings(max_examples=40, **SETTINGS)
@given(config=configs(), seed=seeds)
def test_must_fail_evil_cards_in_random_play(config, seed):
    """Under evil_quest_card=must_fail every evil card is a fail, so a quest fails iff enough evil are on it."""
    from dataclasses import replace
    config = replace(config, rules=replace(config.rules, evil_quest_card=A.EvilQuestCard.MUST_FAIL))
    final, steps = play(config, seed, "random")
    check_game(config, seed, final, steps)
    evil = {p for p in final.players if final.role_of(p).value in EVIL}
    for e in final.events:
        if e["type"] == "quest_result":
            assert e["fails"] == len(evil & set(e["team"]))


def test_later_variants_are_recorded_only_when_set():
    """Games under the default rules record what they recorded before the AvalonPlay variants existed."""
    assert set(A.Rules().to_dict()) == {"fifth_rejection", "discussion", "assassination", "vote_visibility"}
    rules = A.Rules().with_overrides(["two_fail_quests=four_and_five", "evil_quest_card=must_fail"])
    assert rules.to_dict()["two_fail_quests"] == "four_and_five"
    assert A.Rules.from_dict(rules.to_dict()) == rules
    assert A.Rules().with_overrides(["assassination_targets=any_seat"]).to_dict()["assassination_targets"] == "any_seat"


def _at_assassination(cfg: A.AvalonConfig) -> tuple[A.AvalonState, list[int], list[int]]:
    """Seed 1 of ``cfg`` played to the assassination by three all-good, all-approved quests; and who is
    good and evil."""
    state = A.new_game(cfg, 1)
    good, evil = goods_and_evils(state)

    def answer(s, r):
        if r.kind == "propose_team":
            return {"team": tuple(good[: r.count])}
        if r.kind == "vote_team":
            return {"approve": True}
        return {"success": True}

    return advance(state, answer, lambda s: s.phase is A.Phase.ASSASSINATION), good, evil


def test_avalonbench_assassin_may_name_any_seat_and_an_evil_one_misses():
    """The ``assassination_targets=any_seat`` switch (docs/games/avalon.md#assassination_targets): AvalonBench's code
    lets the Assassin name any seat, itself included."""
    cfg = A.AvalonConfig.build("bench5", rules=["discussion=none", "assassination_targets=any_seat"])
    state, good, evil = _at_assassination(cfg)
    (req,) = A.pending(state)
    assassin = state.players_with(A.Role.ASSASSIN)[0]
    assert req.candidates == state.players
    for target in (assassin, next(p for p in evil if p != assassin)):
        final = A.apply(state, {assassin: _decision(req, target=target)})
        assert (final.winner, final.end_reason) == (A.Side.GOOD, "three_successful_quests")
        assert final.events[-2] == {"type": "assassination", "to": None, "round": state.round,
                                    "assassin": assassin, "target": target, "hit": False}
    merlin = state.players_with(A.Role.MERLIN)[0]
    assert A.apply(state, {assassin: _decision(req, target=merlin)}).winner is A.Side.EVIL


def _all_reject(state, r):
    if r.kind == "propose_team":
        return {"team": tuple(r.candidates[: r.count])}
    if r.kind == "speak":
        return {"utterance": "hm", "team": tuple(r.candidates[: r.count]) if r.count else None}
    if r.kind == "vote_team":
        return {"approve": False}
    raise AssertionError(r)


@pytest.mark.parametrize("discussion", VARIANTS["discussion"])
@pytest.mark.parametrize("n", [5, 8])
def test_fifth_rejection_evil_wins(n, discussion):
    cfg = A.AvalonConfig.build("standard", n, rules=["fifth_rejection=evil_wins", f"discussion={discussion}"])
    start = A.new_game(cfg, 5)
    final = advance(start, _all_reject, lambda s: False)
    assert (final.winner, final.end_reason) == (A.Side.EVIL, "five_rejected_proposals")
    ev = final.events
    results = [e for e in ev if e["type"] == "vote_result"]
    assert [(e["round"], e["attempt"], e["approved"]) for e in results] == [(1, a, False) for a in range(1, 6)]
    assert [e["type"] for e in ev[-2:]] == ["vote_result", "game_over"]
    assert ev[-1]["winner"] == "evil" and ev[-1]["reason"] == "five_rejected_proposals"
    leaders = [e["leader"] for e in ev if e["type"] == "leader"]
    assert leaders == [(start.leader - 1 + k) % n + 1 for k in range(5)]
    assert not any(e["type"] in ("quest_card", "quest_result") for e in ev)


def test_rejection_wins_names_the_only_rejection_that_ends_the_game():
    # the games above: only the fifth rejection under evil_wins ends the game; the other variants never vote on it
    assert [A.rejection_wins(a) for a in range(1, 6)] == [False, False, False, False, True]
    assert not any(A.rejection_wins(5, fifth) for fifth in ("auto_approve", "leader_assigns"))
    with pytest.raises(ValueError):
        A.rejection_wins(5, "sometimes")


@pytest.mark.parametrize("fifth", ["auto_approve", "leader_assigns"])
@pytest.mark.parametrize("discussion", VARIANTS["discussion"])
def test_fifth_proposal_goes_without_vote(fifth, discussion):
    cfg = A.AvalonConfig.build("standard", 6, rules=[f"fifth_rejection={fifth}", f"discussion={discussion}"])
    start = A.new_game(cfg, 2)
    state = advance(start, _all_reject, lambda s: s.phase is A.Phase.QUEST)
    assert (state.round, state.attempt) == (1, 5)
    fifth_leader = (start.leader - 1 + 4) % 6 + 1
    assert state.leader == fifth_leader
    last_proposal = [e for e in state.events if e["type"] == "proposal"][-1]
    assert (last_proposal["attempt"], last_proposal["leader"], last_proposal["final"]) == (5, fifth_leader, True)
    attempt5 = [e for e in state.events if e.get("round") == 1 and e.get("attempt") == 5]
    assert not [e for e in attempt5 if e["type"] in ("vote_team", "vote_result")], "no vote on the fifth team"
    assert state.events[-1] == {"type": "team_approved", "to": None, "round": 1, "attempt": 5,
                                "team": last_proposal["team"], "by": fifth}
    quest = A.pending(state)
    assert sorted(r.player for r in quest) == sorted(last_proposal["team"])
    assert {r.kind for r in quest} == {"quest_card"}
    # The next round starts over at attempt 1 with the next leader, and votes again.
    state = A.apply(state, decide_all(state, lambda r: {"success": True}))
    assert (state.round, state.attempt, state.leader) == (2, 1, fifth_leader % 6 + 1)
    state = advance(state, _all_reject, lambda s: s.phase is A.Phase.VOTE)
    assert state.attempt == 1


@pytest.mark.parametrize("n", range(5, 11))
def test_strict_majority_approves_and_ties_reject(n):
    cfg = A.AvalonConfig.build("standard", n, rules=["discussion=none"])
    state = A.new_game(cfg, 9)
    state = A.apply(state, decide_all(state, lambda r: {"team": tuple(range(1, r.count + 1))}))
    assert state.phase is A.Phase.VOTE
    for yes in range(n + 1):
        after = A.apply(state, decide_all(state, lambda r, yes=yes: {"approve": r.player <= yes}))
        result = after.events[-1] if after.phase is A.Phase.QUEST else next(
            e for e in after.events[len(state.events):] if e["type"] == "vote_result")
        assert result["approvals"] == yes and result["rejections"] == n - yes
        majority = 2 * yes > n
        assert result["approved"] is majority, f"{yes}/{n} approvals"
        assert after.phase is (A.Phase.QUEST if majority else A.Phase.PROPOSAL)
        if not majority:
            assert (after.attempt, after.leader) == (2, state.leader % n + 1)


@pytest.mark.parametrize("visibility", ["public", "tally_only"])
def test_vote_visibility(visibility):
    n = 6
    cfg = A.AvalonConfig.build("lan6", rules=["discussion=none", f"vote_visibility={visibility}"])
    state = A.new_game(cfg, 4)
    state = A.apply(state, decide_all(state, lambda r: {"team": tuple(range(1, r.count + 1))}))
    voters = {1, 2, 5}
    state = A.apply(state, decide_all(state, lambda r: {"approve": r.player in voters}))
    votes = [e for e in state.events if e["type"] == "vote_team"]
    assert [(e["player"], e["approve"]) for e in votes] == [(p, p in voters) for p in range(1, n + 1)]
    result = next(e for e in state.events if e["type"] == "vote_result")
    assert result["approvals"] == 3 and result["approved"] is False
    for p in range(1, n + 1):
        seen = [e for e in A.view(state, p).events if e["type"] == "vote_team"]
        vr = [e for e in A.view(state, p).events if e["type"] == "vote_result"]
        assert len(vr) == 1 and vr[0]["approvals"] == 3
        if visibility == "public":
            assert [e["player"] for e in seen] == list(range(1, n + 1))
            assert vr[0]["approvers"] == sorted(voters)
        else:
            assert [(e["player"], e["approve"]) for e in seen] == [(p, p in voters)]
            assert "approvers" not in vr[0]
            assert "approvers" not in A.view(state, p).model_dump_json()


def test_what_each_role_learns_in_the_full_cast():
    roles = ["merlin", "percival", "servant", "servant", "servant", "servant",
             "morgana", "assassin", "mordred", "oberon"]
    state = A.new_game(A.AvalonConfig.build(roles=roles), 3)
    seat = {}
    for p in state.players:
        seat.setdefault(state.role_of(p).value, []).append(p)
    sees = {p: knows_as_dict(A.view(state, p).knowledge) for p in state.players}
    (merlin,), (percival,) = seat["merlin"], seat["percival"]
    (morgana,), (assassin,), (mordred,), (oberon,) = seat["morgana"], seat["assassin"], seat["mordred"], seat["oberon"]
    assert sees[merlin] == {morgana: "evil", assassin: "evil", oberon: "evil"}, "Merlin sees evil but Mordred"
    assert sees[percival] == {merlin: "merlin_or_morgana", morgana: "merlin_or_morgana"}
    for p in seat["servant"] + [oberon]:
        assert sees[p] == {}, "Servants and Oberon learn nothing"
    trio = {morgana, assassin, mordred}
    for p in trio:
        assert sees[p] == {q: "evil" for q in trio - {p}}, "evil see each other, not Oberon"


def test_percival_without_morgana_sees_merlin_alone():
    roles = ["merlin", "percival", "servant", "servant", "assassin", "minion", "minion"]
    state = A.new_game(A.AvalonConfig.build(roles=roles), 8)
    merlin = state.players_with(A.Role.MERLIN)[0]
    percival = state.players_with(A.Role.PERCIVAL)[0]
    assert knows_as_dict(A.view(state, percival).knowledge) == {merlin: "merlin"}


# ----------------------------------------------------------- configuration errors


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(roles=["merlin", "servant", "servant", "servant", "assassin"]),
         r"5 players need 3 good and 2 evil roles, but the role set has 4 good and 1 evil"),
        (dict(roles=["merlin", "servant", "minion", "minion", "assassin"]),
         r"need 3 good and 2 evil roles, but the role set has 2 good and 3 evil"),
        (dict(roles=["merlin", "servant", "servant", "minion", "minion"]), r"Merlin must contain an Assassin"),
        (dict(roles=["merlin", "merlin", "servant", "assassin", "minion"]), r"only once: merlin"),
        (dict(roles=["merlin", "servant", "servant", "assassin", "assassin"]), r"only once: assassin"),
        (dict(roles=["merlin", "servant", "percival", "percival", "assassin", "morgana"]), r"only once: percival"),
        (dict(roles=["servant", "percival", "servant", "minion", "minion"]), r"Percival needs Merlin"),
        (dict(roles=["merlin", "servant", "servant", "assassin", "wizard"]), r"unknown Avalon role 'wizard'"),
        (dict(roles=["merlin", "servant", "servant", "assassin"]), r"5 to 10 players, not 4"),
        (dict(roles=["merlin", "servant", "servant", "assassin", "minion"], players=6),
         r"5 roles were given for 6 players"),
        (dict(preset="avalon99"), r"unknown preset 'avalon99'; valid presets: lan6, bench5, play7, standard"),
        (dict(preset="lan6", players=7), r"preset 'lan6' is for 6 players, not 7"),
        (dict(preset="standard", players=11), r"5 to 10 players, not 11"),
        (dict(preset="standard", players=4), r"5 to 10 players, not 4"),
        (dict(rules=["tempo=fast"]), r"unknown rule variant 'tempo'; valid variants: fifth_rejection"),
        (dict(rules=["discussion=shouting"]),
         r"rule discussion cannot be 'shouting'; valid values: leader_first_and_last, before_proposal, none, "
         r"leader_first"),
        (dict(rules=["fifth_rejection=good_wins"]), r"rule fifth_rejection cannot be 'good_wins'"),
        (dict(rules=["assassination=never"]), r"valid values: end_only, after_each_quest"),
        (dict(rules=["vote_visibility=secret"]), r"valid values: public, tally_only"),
        (dict(rules=["discussion"]), r"not of the form KEY=VALUE"),
    ],
)
def test_configuration_errors_name_the_problem(kwargs, message):
    with pytest.raises(ConfigurationError, match=message):
        A.AvalonConfig.build(**kwargs)


def test_rules_from_dict_rejects_unknown_keys():
    with pytest.raises(ConfigurationError, match="unknown rule variant 'colour'"):
        A.Rules.from_dict({"colour": "red"})
    assert A.Rules.from_dict({"discussion": "none"}).discussion is A.Discussion.NONE


@settings(max_examples=200, **SETTINGS)
@given(roles=st.lists(st.sampled_from([r.value for r in A.Role]), min_size=5, max_size=10))
def test_role_set_validation_matches_the_table(roles):
    """A role set is accepted iff its side counts match the table, unique roles are unique,
    Merlin comes with an Assassin (and, as extensions, the Assassin with Merlin, Percival with Merlin)."""
    n = len(roles)
    good = sum(1 for r in roles if r in GOOD)
    counts = Counter(roles)
    valid = (
        (good, n - good) == TABLE[n][:2]
        and all(c == 1 for r, c in counts.items() if r not in ("servant", "minion"))
        and ("merlin" in counts) == ("assassin" in counts)
        and ("percival" not in counts or "merlin" in counts)
    )
    if valid:
        cfg = A.AvalonConfig.build(roles=roles)
        assert Counter(r.value for r in cfg.roles) == counts
        assert A.AvalonConfig.from_dict(cfg.to_dict()) == cfg
    else:
        with pytest.raises(ConfigurationError) as err:
            A.AvalonConfig.build(roles=roles)
        if (good, n - good) != TABLE[n][:2]:
            assert f"{good} good and {n - good} evil" in str(err.value)


def test_role_names_parse_case_insensitively():
    cfg = A.AvalonConfig.build(roles=["Merlin", "Loyal Servant of Arthur", "loyal_servant", "Minion of Mordred",
                                      "ASSASSIN"])
    assert sorted(r.value for r in cfg.roles) == ["assassin", "merlin", "minion", "servant", "servant"]


@pytest.mark.parametrize("preset, n", [("lan6", 6), ("bench5", 5), ("play7", 7)])
def test_fixed_presets(preset, n):
    expected = {
        "lan6": ["merlin", "percival", "servant", "servant", "morgana", "assassin"],
        "bench5": ["merlin", "servant", "servant", "minion", "assassin"],
        "play7": ["merlin", "percival", "servant", "servant", "morgana", "assassin", "minion"],
    }[preset]
    cfg = A.AvalonConfig.build(preset)
    assert sorted(r.value for r in cfg.roles) == sorted(expected) and cfg.players == n
    assert A.AvalonConfig.build(preset, n) == cfg


@pytest.mark.parametrize("n", range(5, 11))
def test_standard_preset(n):
    good, evil = TABLE[n][:2]
    cfg = A.AvalonConfig.build("standard", n)
    assert Counter(r.value for r in cfg.roles) == Counter(
        {"merlin": 1, "servant": good - 1, "assassin": 1, **({"minion": evil - 1} if evil > 1 else {})})


# ----------------------------------------------------------- illegal actions


@pytest.fixture
def opening():
    """bench5, seed 0, at the leader's first proposal (leader_first_and_last talk)."""
    return A.new_game(A.AvalonConfig.build("bench5"), 0)


def _decision(request, **fields):
    return decision(request, **fields)


def test_illegal_proposals(opening):
    (req,) = A.pending(opening)
    leader = req.player
    other = leader % 5 + 1
    assert req.kind == "propose_team" and req.count == 2
    cases = [
        (A.Decision(request_id=req.id, player=other, kind="propose_team", players=(1, 2)),
         rf"of player {other} does not answer request '{req.id}' of player {leader}"),
        (A.Decision(request_id=f"r1.a1.propose_team.first.p{other}", player=other, kind="propose_team", players=(1, 2)),
         rf"the game waits for {req.id}, not for r1.a1.propose_team.first.p{other}"),
        (_decision(req, team=(1, 2, 3)), r"name 2 players, not 3"),
        (_decision(req, team=(1,)), r"name 2 players, not 1"),
        (_decision(req, team=(3, 3)), r"\[3, 3\] names a player twice"),
        (_decision(req, team=(1, 6)), r"players \[6\] cannot be named here \(valid players: \[1, 2, 3, 4, 5\]\)"),
        (_decision(req, team=(0, 1)), r"players \[0\] cannot be named here"),
        (_decision(req), r"player \d must name 2 now \(propose_team\)"),
        (A.Decision(request_id=req.id, player=leader, kind="vote_team", choice=True),
         r"a vote_team decision does not fit the proposal phase"),
    ]
    for bad, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            A.apply(opening, {bad.player: bad})
    assert A.pending(opening) == [req], "an illegal action leaves the state untouched"
    with pytest.raises(IllegalActionError, match=rf"request {req.id} asks for propose_team, not vote_team"):
        A.check_decision(req, A.Decision(request_id=req.id, player=leader, kind="vote_team", choice=True))


def test_illegal_actions_in_the_wrong_phase(opening):
    with pytest.raises(IllegalActionError, match=r"no team vote is open \(phase: proposal\)"):
        A.vote(opening, {})
    with pytest.raises(IllegalActionError, match=r"no quest is under way \(phase: proposal\)"):
        A.play_quest(opening, {})
    with pytest.raises(IllegalActionError, match=r"the reveal happens once, after the deal \(phase: proposal\)"):
        A.reveal(opening)
    votes = {p: A.Decision(request_id=f"r1.a1.vote_team.p{p}", player=p, kind="vote_team", choice=True)
             for p in range(1, 6)}
    with pytest.raises(IllegalActionError, match=r"the proposal phase takes one decision, not 5"):
        A.apply(opening, votes)
    with pytest.raises(IllegalActionError, match=r"a vote_team decision does not fit the proposal phase"):
        A.apply(opening, {1: votes[1]})
    with pytest.raises(IllegalActionError, match=r"waits for .*, not for r1\.a1\.speak"):
        A.speak(opening, A.Decision(request_id="r1.a1.speak.p1", player=1, kind="speak", utterance="hi"))


def test_illegal_votes_and_cards(opening):
    state = advance(opening, lambda s, r: {"team": (1, 2)} if r.kind == "propose_team" else {"utterance": "ok"},
                    lambda s: s.phase is A.Phase.VOTE)
    votes = decide_all(state, lambda r: {"approve": True})
    with pytest.raises(IllegalActionError,
                       match=r"decisions are missing for players \[3\] / not asked of players \[\]"):
        A.apply(state, {p: d for p, d in votes.items() if p != 3})
    with pytest.raises(IllegalActionError, match=r"not asked of players \[6\]"):
        A.apply(state, votes | {6: votes[1].model_copy(update={"player": 6})})
    with pytest.raises(IllegalActionError, match=r"vote_team must be answered approve or reject"):
        A.apply(state, votes | {2: votes[2].model_copy(update={"choice": None})})
    with pytest.raises(IllegalActionError, match=r"does not answer request"):
        A.apply(state, votes | {2: votes[3]})
    state = A.apply(state, votes)
    assert state.phase is A.Phase.QUEST and state.team == (1, 2)
    cards = decide_all(state, lambda r: {"success": True})
    for p in (1, 2):
        if state.side_of(p) is A.Side.GOOD:
            with pytest.raises(IllegalActionError, match=rf"player {p} may only answer success here"):
                A.apply(state, cards | {p: cards[p].model_copy(update={"choice": False})})
        else:
            A.apply(state, cards | {p: cards[p].model_copy(update={"choice": False})})
        with pytest.raises(IllegalActionError, match=rf"player {p} may only answer|quest_card must be answered"):
            A.apply(state, cards | {p: cards[p].model_copy(update={"choice": None})})
    with pytest.raises(IllegalActionError, match=r"not asked of players \[3\]"):
        A.apply(state, cards | {3: A.Decision(request_id="r1.quest_card.p3", player=3, kind="quest_card",
                                               choice=True)})


def test_illegal_assassinations_and_play_after_the_end():
    cfg = A.AvalonConfig.build("bench5", rules=["discussion=none"])
    state, good, evil = _at_assassination(cfg)
    (req,) = A.pending(state)
    assassin = state.players_with(A.Role.ASSASSIN)[0]
    assert req.kind == "assassinate" and req.player == assassin and not req.may_pass
    with pytest.raises(IllegalActionError, match=r"must name 1 now \(assassinate\)"):
        A.apply(state, {assassin: _decision(req)})
    with pytest.raises(IllegalActionError, match=rf"players \[{evil[0]}\] cannot be named here"):
        A.apply(state, {assassin: _decision(req, target=evil[0])})
    merlin = state.players_with(A.Role.MERLIN)[0]
    final = A.apply(state, {assassin: _decision(req, target=merlin)})
    assert (final.winner, final.end_reason) == (A.Side.EVIL, "merlin_assassinated")
    with pytest.raises(IllegalActionError, match=r"the game is over"):
        A.apply(final, {assassin: _decision(req, target=merlin)})
    with pytest.raises(IllegalActionError, match=r"nothing \(the game is over\)"):
        A.assassinate(final, _decision(req, target=merlin))
    missed = A.apply(state, {assassin: _decision(req, target=good[0] if good[0] != merlin else good[1])})
    assert (missed.winner, missed.end_reason) == (A.Side.GOOD, "three_successful_quests")


def test_view_of_a_stranger_is_refused(opening):
    with pytest.raises(ValueError, match=r"player 6 is not at this table"):
        A.view(opening, 6)


@pytest.mark.parametrize("name", list(A.SETTINGS))
def test_named_settings_build_valid_configurations(name):
    preset, rules = A.setting(name)
    config = A.AvalonConfig.build(preset=preset, rules=rules)
    final, steps = play(config, 3, "naive")
    check_game(config, 3, final, steps)


def test_avalonplay_is_the_papers_setting_and_user_rules_override_it():
    preset, rules = A.setting("avalonplay")
    config = A.AvalonConfig.build(preset=preset, rules=rules)
    assert sorted(r.value for r in config.roles) == sorted(
        ["merlin", "percival", "servant", "servant", "morgana", "minion", "assassin"])
    assert config.rules.to_dict() == {"fifth_rejection": "auto_approve", "discussion": "leader_first",
                                      "assassination": "end_only", "vote_visibility": "tally_only",
                                      "two_fail_quests": "four_and_five", "evil_quest_card": "must_fail"}
    preset, rules = A.setting("avalonplay", rules=["discussion=none"])
    assert A.AvalonConfig.build(preset=preset, rules=rules).rules.discussion is A.Discussion.NONE
    with pytest.raises(ConfigurationError, match="valid settings: official, lan, avalonbench, avalonplay"):
        A.setting("nope")
