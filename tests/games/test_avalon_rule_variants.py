"""Avalon's paper rules, one by one (docs/games/avalon.md#rule-variants).

- ``assassination=after_each_quest`` as Lan et al. (EMNLP 2024) played it: a mid-game miss tells the whole table
  that the named player is not Merlin and who the Assassin is, and play goes on; one shot per game; a hit wins for
  evil at once; a shot still unused at the third success is the official end-game shot.
- ``discussion=leader_first`` as Shi et al. (AvalonPlay) played it: the leader names the team, every other player
  speaks once, and the team goes to the vote with no last word from the leader.
- ``vote_visibility=tally_only`` (Shi et al.'s secret ballots): no player sees another's team vote; the record
  keeps them all.
"""

from __future__ import annotations

import pytest
from avalon_helpers import decide_all, decision, play

from roundtable.detectors.knowledge import knowledge_vote
from roundtable.games import avalon as A
from roundtable.games.avalon.bots.belief import consistent_assignments
from roundtable.games.avalon.records import record_views
from roundtable.games.avalon.view import belief_probe
from roundtable.prompts.narrator import narrate

LAN = A.AvalonConfig.build("lan6", rules=["discussion=none", "assassination=after_each_quest"])


def seats(state: A.AvalonState) -> tuple[int, int, list[int], list[int]]:
    """The Assassin, Merlin, the good players and the evil players of ``state``."""
    good = [p for p in state.players if state.side_of(p) is A.Side.GOOD]
    evil = [p for p in state.players if state.side_of(p) is A.Side.EVIL]
    return state.players_with(A.Role.ASSASSIN)[0], state.players_with(A.Role.MERLIN)[0], good, evil


def quest(state: A.AvalonState, success: bool) -> A.AvalonState:
    """Play one round to its quest result: the leader names good players (and the Assassin to fail it), all
    approve, the cards make the quest ``success``."""
    assassin, _, good, _ = seats(state)
    assert state.phase is A.Phase.PROPOSAL, state.phase
    (req,) = A.pending(state)
    size = req.count or 0
    team = tuple(sorted(good[:size] if success else [assassin] + good[: size - 1]))
    state = A.apply(state, {req.player: decision(req, team=team)})
    while state.phase is A.Phase.DISCUSSION:
        (req,) = A.pending(state)
        state = A.apply(state, {req.player: decision(req, utterance="fine")})
    state = A.apply(state, decide_all(state, lambda r: {"approve": True}))
    return A.apply(state, decide_all(state, lambda r: {"success": success or r.player != assassin}))


def shoot(state: A.AvalonState, target: int | None) -> A.AvalonState:
    """The Assassin names ``target`` (``None``: passes) once the evil talk, if any, is over."""
    while A.pending(state)[0].kind == "speak":
        (req,) = A.pending(state)
        state = A.apply(state, {req.player: decision(req, utterance="hm")})
    (req,) = A.pending(state)
    assert req.kind == "assassinate"
    return A.apply(state, {req.player: decision(req, target=target)})


def missed(seed: int = 1) -> tuple[A.AvalonState, int, int]:
    """``LAN`` after quest 1 succeeded and the Assassin missed mid-game; the Assassin and the player named."""
    state = quest(A.new_game(LAN, seed), success=True)
    assassin, merlin, good, _ = seats(state)
    assert state.phase is A.Phase.ASSASSINATION and A.pending(state)[0].may_pass
    target = next(p for p in good if p != merlin)
    return shoot(state, target), assassin, target


# ---------------------------------------------------------------- assassination=after_each_quest


def test_a_mid_game_miss_exposes_the_assassin_to_everyone_and_play_goes_on():
    state, assassin, target = missed()
    assert not state.is_over and state.assassination_used
    assert (state.phase, state.round, state.attempt) == (A.Phase.PROPOSAL, 2, 1)
    shot = next(e for e in state.events if e["type"] == "assassination")
    assert shot == {"type": "assassination", "to": None, "round": 1, "assassin": assassin, "target": target,
                    "hit": False, "exposed": True}
    assert not any(e["type"] == "game_over" for e in state.events)
    for p in state.players:
        view = A.view(state, p)
        assert shot in view.events, f"player {p} does not see the miss"
        assert view.exposed_assassin == assassin
        # The later views an agent is handed carry only new entries: the exposure stays in the view.
        assert view.since(len(view.events)).exposed_assassin == assassin
        if p != assassin:
            assert assassin in A.known_evil(view)
    line = narrate("avalon", shot, me=target, rules=LAN.rules.to_dict())
    assert line is not None and f"named Player {target}: not Merlin" in line
    assert f"Player {assassin} is now known to be the Assassin" in line


def test_the_belief_helpers_count_the_exposed_assassin_as_evil():
    state, assassin, _ = missed()
    _, merlin, good, _ = seats(state)
    servant = next(p for p in good if state.role_of(p) is A.Role.SERVANT)
    view = A.view(state, servant)
    assert all(assassin in evil for evil in consistent_assignments(view))
    team = (servant, assassin)
    assert knowledge_vote(A.Role.SERVANT, servant, view.knowledge, team) is None, "the reveal alone settles nothing"
    assert knowledge_vote(A.Role.SERVANT, servant, view.knowledge, team, exposed=view.exposed_assassin) is False
    assert knowledge_vote(A.Role.SERVANT, servant, view.knowledge, (servant, merlin),
                            exposed=view.exposed_assassin) is None
    before = A.view(quest(A.new_game(LAN, 1), success=True), servant)
    assert before.exposed_assassin is None and A.known_evil(before) == set()


def test_the_assassin_has_one_shot_a_game_and_three_later_successes_win_for_good_with_no_further_shot():
    state, _, _ = missed()
    state = quest(state, success=True)
    assert state.phase is A.Phase.PROPOSAL, "no second offer after the miss"
    state = quest(state, success=True)
    assert state.is_over and (state.winner, state.end_reason) == (A.Side.GOOD, "three_successful_quests")
    assert [e["type"] for e in state.events].count("assassination_phase") == 1
    assert [e["type"] for e in state.events].count("assassination") == 1
    assert state.events[-2]["type"] == "quest_result", "good won on the quest, with no shot at the end"


def test_after_a_mid_game_miss_three_failed_quests_still_win_for_evil():
    state, _, _ = missed()
    for _ in range(3):
        state = quest(state, success=False)
    assert (state.winner, state.end_reason) == (A.Side.EVIL, "three_failed_quests")


def test_a_mid_game_hit_wins_for_evil_at_once():
    state = quest(A.new_game(LAN, 1), success=False)
    _, merlin, _, _ = seats(state)
    assert state.phase is A.Phase.ASSASSINATION, "the shot is offered after a failed quest too"
    final = shoot(state, merlin)
    assert (final.winner, final.end_reason, final.round) == (A.Side.EVIL, "merlin_assassinated", 1)
    assert "exposed" not in final.events[-2]


def test_a_pass_keeps_the_shot_and_does_not_name_the_assassin():
    state = quest(A.new_game(LAN, 1), success=True)
    assassin, _, good, _ = seats(state)
    state = shoot(state, None)
    passed = state.events[-1 - next(i for i, e in enumerate(reversed(state.events)) if e["type"] == "assassination")]
    assert passed == {"type": "assassination", "to": None, "round": 1, "target": None, "hit": None}
    assert not state.assassination_used and (state.phase, state.round) == (A.Phase.PROPOSAL, 2)
    for p in good:
        assert A.view(state, p).exposed_assassin is None
    assert narrate("avalon", passed, me=good[0]) == "The Assassin passed."
    state = quest(state, success=True)
    assert state.phase is A.Phase.ASSASSINATION and A.pending(state)[0].may_pass, "offered again"


@pytest.mark.parametrize("discussion", ["none", "before_proposal"])
def test_a_shot_kept_to_the_third_success_is_the_end_game_shot_and_its_miss_wins_for_good(discussion):
    config = A.AvalonConfig.build("lan6", rules=[f"discussion={discussion}", "assassination=after_each_quest"])
    state = A.new_game(config, 1)
    assassin, merlin, good, evil = seats(state)

    def answer(s, r):
        if r.kind == "speak":
            return {"utterance": "ok", "team": None}
        if r.kind == "propose_team":
            return {"team": tuple(good[: r.count])}
        if r.kind == "vote_team":
            return {"approve": True}
        if r.kind == "quest_card":
            return {"success": True}
        return {"target": None}  # every mid-game offer passed

    for _ in range(200):
        if state.phase is A.Phase.ASSASSINATION and state.quest_results.count(True) == 3:
            break
        state = A.apply(state, decide_all(state, lambda r, s=state: answer(s, r)))
    offer = [e for e in state.events if e["type"] == "assassination_phase"]
    assert [e["optional"] for e in offer] == [True, True, False]
    council_talk = [r.player for r in A.pending(state)]
    assert council_talk == ([p for p in evil if p != assassin] if discussion != "none" else [assassin])
    final = shoot(state, next(p for p in good if p != merlin))
    assert (final.winner, final.end_reason) == (A.Side.GOOD, "three_successful_quests")
    assert "exposed" not in final.events[-2]
    assert shoot(state, merlin).winner is A.Side.EVIL


def test_the_belief_probe_keeps_a_mid_game_miss_and_leaves_out_the_shot_that_ended_the_game():
    state, _, _ = missed()
    state = quest(quest(state, success=True), success=True)
    for view in belief_probe(state).values():
        assert [e["type"] for e in view.events].count("assassination") == 1, "the public miss stays"
        assert "game_over" not in [e["type"] for e in view.events]
    at_end = quest(quest(quest(A.new_game(A.AvalonConfig.build("lan6", rules=["discussion=none"]), 1),
                               success=True), success=True), success=True)
    final = shoot(at_end, seats(at_end)[1])
    for view in belief_probe(final).values():
        assert "assassination" not in [e["type"] for e in view.events], "the shot that ended the game is left out"


def test_random_assassins_miss_mid_game_and_the_games_go_on():
    """Lan et al.'s setting with random evil players: misses happen, and none of them ends the game."""
    preset, rules = A.setting("lan")
    config = A.AvalonConfig.build(preset=preset, rules=rules)
    exposed = 0
    for seed in range(20):
        final, _ = play(config, seed, ["naive" if r in ("merlin", "percival", "servant") else "random"
                                       for r in (x.value for x in A.new_game(config, seed).roles)], keep_steps=False)
        shots = [e for e in final.events if e["type"] == "assassination" and e["target"] is not None]
        assert len(shots) <= 1
        for shot in shots:
            if shot.get("exposed"):
                exposed += 1
                assert final.events[final.events.index(shot) + 1]["type"] == "round_start"
    assert exposed > 0


# ---------------------------------------------------------------- discussion=leader_first


@pytest.mark.parametrize("fifth", ["auto_approve", "evil_wins"])
def test_leader_first_gives_the_leader_no_last_word(fifth):
    config = A.AvalonConfig.build("play7", rules=["discussion=leader_first", f"fifth_rejection={fifth}"])
    state = A.new_game(config, 2)
    for attempt in range(1, 6):
        leader = state.leader
        (req,) = A.pending(state)
        assert (req.kind, req.player, req.details["final"], req.wants_words) == ("propose_team", leader, True, True)
        state = A.apply(state, {leader: decision(req, team=tuple(range(1, (req.count or 0) + 1)),
                                                 utterance="my team")})
        assert state.events[-1]["final"] is True and state.phase is A.Phase.DISCUSSION
        spoke = []
        while state.phase is A.Phase.DISCUSSION:
            (req,) = A.pending(state)
            assert req.kind == "speak" and req.answer == "words" and req.subject == state.team
            spoke.append(req.player)
            state = A.apply(state, {req.player: decision(req, utterance="hm")})
        assert spoke == [(leader - 1 + k) % 7 + 1 for k in range(1, 7)], "every other player once, from the leader"
        proposals = [e for e in state.events if e["type"] == "proposal" and e["attempt"] == attempt]
        assert len(proposals) == 1, "no final naming after the talk"
        if state.phase is A.Phase.QUEST:  # the fifth team, sent without a vote
            assert attempt == 5 and fifth == "auto_approve" and state.events[-1]["type"] == "team_approved"
            return
        assert state.phase is A.Phase.VOTE, "the vote follows the others' words"
        state = A.apply(state, decide_all(state, lambda r: {"approve": False}))
    assert (state.winner, state.end_reason) == (A.Side.EVIL, "five_rejected_proposals")


def test_avalonplay_is_leader_first_with_secret_votes():
    preset, rules = A.setting("avalonplay")
    config = A.AvalonConfig.build(preset=preset, rules=rules)
    assert (config.rules.discussion, config.rules.vote_visibility) == (A.Discussion.LEADER_FIRST,
                                                                       A.VoteVisibility.TALLY_ONLY)
    final, _ = play(config, 4, "naive", keep_steps=False)
    proposals = [e for e in final.events if e["type"] == "proposal"]
    assert proposals and all(e["final"] for e in proposals)
    assert len({(e["round"], e["attempt"]) for e in proposals}) == len(proposals)


# ---------------------------------------------------------------- vote_visibility=tally_only


@pytest.mark.parametrize("setting", ["avalonplay", "lan"])
def test_tally_only_hides_every_other_players_vote_from_every_view_and_the_record_keeps_them(setting):
    preset, rules = A.setting(setting, rules=["vote_visibility=tally_only"])
    config = A.AvalonConfig.build(preset=preset, rules=rules)
    final, steps = play(config, 3, "naive")
    votes = [e for e in final.events if e["type"] == "vote_team"]
    assert votes and all(e["to"] == [e["player"]] for e in votes), "no vote is a public entry"
    assert all("approvers" not in e for e in final.events if e["type"] == "vote_result")
    assert record_views(final.events)["votes"] == [
        {k: e[k] for k in ("round", "attempt", "player", "approve")} for e in votes], "the record keeps every vote"
    for state in [s.after for s in steps if s.requests[0].kind == "vote_team"] + [final]:
        for p in state.players:
            view = A.view(state, p)
            assert all(e["player"] == p for e in view.events if e["type"] == "vote_team"), f"player {p}"
            text = view.model_dump_json()
            assert "approvers" not in text
            for e in state.events:
                if e["type"] == "vote_team" and e["player"] != p:
                    assert e not in view.events
            for e in view.events:  # the narration a player's memory is built from names no one else's vote
                line = narrate("avalon", e, me=p, rules=config.rules.to_dict()) or ""
                assert "approved by" not in line
