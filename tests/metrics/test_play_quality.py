"""Play-quality measures on hand-built records with known answers."""

from __future__ import annotations

from typing import Any

import pytest

from roundtable.detectors.words import (
    bare_move,
    copy_share,
    exposes,
    named_team,
    says_nothing,
)
from roundtable.games.avalon import Role
from roundtable.metrics.play_quality import agent_checks, play_quality, quality_lines, settled_vote

# lan6 seating: 1 Merlin, 2 Percival, 3 and 4 Servants, 5 Morgana, 6 Assassin.
LAN6 = ["merlin", "percival", "servant", "servant", "morgana", "assassin"]
ROLES = [Role(r) for r in LAN6]


def said(speaker: int, text: str, round_: int = 1, attempt: int = 1, to: list[int] | None = None) -> dict[str, Any]:
    return {"type": "utterance", "speaker": speaker, "phase": "discussion", "round": round_, "attempt": attempt,
            "text": text, "to": to}


def proposal(leader: int, team: list[int], final: bool = True, round_: int = 1, attempt: int = 1) -> dict[str, Any]:
    return {"type": "proposal", "round": round_, "attempt": attempt, "leader": leader, "team": team,
            "final": final, "to": None}


def vote(player: int, approve: bool, round_: int = 1, attempt: int = 1) -> dict[str, Any]:
    return {"type": "vote_team", "round": round_, "attempt": attempt, "player": player, "approve": approve, "to": None}


def record(*events: dict[str, Any], usage: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"roles": {str(p): r for p, r in enumerate(LAN6, start=1)}, "events": list(events),
            "usage": {"game": usage or {}}}


# ------------------------------------------------------------------ parroting

ORIGINAL = "I support the team. I believe Player 1 is Merlin, as Percival sees you as a possible Merlin."


def test_a_verbatim_copy_is_parroting() -> None:
    quality = play_quality(record(said(5, ORIGINAL), said(4, ORIGINAL)))
    assert (quality.parroting.hits, quality.parroting.cases) == (1, 2)
    assert "copies" in quality.examples["parroting"][0]


def test_a_copy_with_a_word_changed_is_still_parroting() -> None:
    assert copy_share(ORIGINAL.replace("support", "back"), ORIGINAL) > 0.5


def test_a_paraphrase_on_the_same_subject_is_not_parroting() -> None:
    paraphrase = "Player 1 looks like Merlin to me, so I am happy to back this team for the quest."
    assert copy_share(paraphrase, ORIGINAL) <= 0.5
    assert play_quality(record(said(5, ORIGINAL), said(4, paraphrase))).parroting.hits == 0


def test_a_copy_with_its_words_glued_together_is_still_parroting() -> None:
    """A 1.5B model under the DRY sampler escapes the penalty on a copied word by dropping its space."""
    glued = "I support theteam. I believe Player 1 isMerlin, as Percival seesyou as a possible Merlin."
    assert copy_share(glued, ORIGINAL) <= 0.5  # few word 4-grams left in common
    quality = play_quality(record(said(5, ORIGINAL), said(4, glued)))
    assert (quality.parroting.hits, quality.parroting.cases) == (1, 2)


def test_a_paraphrase_with_a_glued_word_is_not_parroting() -> None:
    paraphrase = "Player 1 looks like Merlin to me, so I amhappy to back this team for the quest."
    assert play_quality(record(said(5, ORIGINAL), said(4, paraphrase))).parroting.hits == 0


def test_a_short_reply_counts_as_a_copy_only_when_identical() -> None:
    quality = play_quality(record(said(1, "Well said."), said(2, "Well said!"), said(3, "Not so fast.")))
    assert (quality.parroting.hits, quality.parroting.cases) == (1, 3)


def test_a_bare_move_said_again_is_no_copy_but_a_move_with_its_reason_is() -> None:
    quality = play_quality(record(said(5, "I propose players 1 and 5."), said(4, "I propose players 1 and 3."),
                                  said(1, "My final team is players 1 and 3."),
                                  said(2, "My final team is players 1 and 3."),
                                  said(3, "I will vote against this team."), said(6, "I will vote against this team."),
                                  said(1, "I approve."), said(2, "I approve!"),
                                  said(4, "I support it because Player 6 is the leader."),
                                  said(5, "I support it because Player 6 is the leader.")))
    assert (quality.parroting.hits, quality.parroting.cases) == (1, 10)
    assert quality.examples["parroting"] == [
        "P5: 'I support it because Player 6 is the leader.' copies 'I support it because Player 6 is the leader.'"]


@pytest.mark.parametrize(("text", "bare"), [
    ("I will vote against this team.", True), ("I propose players 2, 3.", True), ("I support it.", True),
    ("My final team is players 1, 4 and 6.", True), ("I will vote to eliminate Player 4.", True),
    ("I choose players 1 and 6 as my team.", True), ("I reject.", True),
    ("I support it because Player 6 is the leader.", False), ("I support it as Merlin is on it.", False),
    ("I think Player 2 and Player 3 are evil.", False), ("I trust Player 4.", True),
    ("I suspect Players 4 and 5.", True), ("I trust Player 4 because he checked Player 5.", False),
    ("I trust that Player 4 is the Seer.", False),
    ("I will vote against this team. Player 1 is evil.", False),
    ("I choose Player 1 and Player 6 as the final team for quest 1 of this game.", False),
    ("I think Player 2's team players 1, 3, 4 should be approved.", True),  # player references not counted
    ("I think Player 2's team players 1, 3, 4 should be approved as it is clean.", False),
])
def test_a_bare_move_is_one_short_sentence_stating_ones_own_move_with_no_reason(text: str, bare: bool) -> None:
    assert bare_move(text) is bare


def test_repeating_ones_own_earlier_words_is_parroting() -> None:
    words = "I will choose players 2 and 3 because they have been quiet and honest so far."
    quality = play_quality(record(said(2, words), said(3, "Fine by me, I trust both of them."), said(2, words)))
    assert quality.parroting.hits == 1


# -------------------------------------------------------------- self-exposure


@pytest.mark.parametrize("text", [
    "I am Morgana, and I will make them fail.",
    "Player 5 should lead the team now, as I am the Morgan, and I can prove that I am Merlin.",  # as misspelt
    "As the Assassin I want Player 1 on the quest.",
    "Put me on the team and I will fail the quest.",
    "Recommend me for quests and make them fail.",
    "My evil teammate Player 6 should go.",
    "Player 1 and Player 3 should go, as they are the leader and the evil teammate respectively.",
    "I'm on the evil side, but trust me anyway.",
    "I will try to fool Percival by pretending to be Merlin.",
    "Send me, and I'll join and fail the quest.",
    "We need to fail this quest.",
    "Fail the quest, all of us.",
    # a cga Morgana's first words in pq-cga-lan6-s2
    "I think Player 6 is the leader. I will play as a Loyal Servant of Arthur and try to make the team fail.",
    "Put me on it and let this team fail.",
    # evil seats of pq-react-bench5-s3 and -s4
    "I support Player 3's team, as I know they are evil.",
    "I support Player 5's team, as they have one fail card, which will fail the quest.",
    "I support it because Player 1 and Player 2 will definitely fail.",
    # the Host's team lines read back (a lga Morgana in pq-lga-lan6-v6-s1)
    "No player of your side knows of this team. Your side wants it rejected.",
    # a cga Assassin in lan-table2's lga-good-s0001
    "I suggest players 1, 4, and 5. I'm thinking about taking the shot at once if the first quest fails.",
    "We should keep the shot for the end.",
    "I will save my shot for later.",
    # evil cga and react seats of lan-table2, pq-cga-lan6-v8-s2 and pq-react-bench5-v8-s4
    "I think Player 1 is the Merlin and I should support them. I will vote for them to fail quest 3 and the next.",
    "I should consider recommending myself to fail the team as well.",
    "I want to support the team to fail quest 2, as Merlin knows the good players.",
    "I think Player 4 might be the Merlin, and I should suggest players 4 and 2 so that they fail quests.",
    "Send me and I'll fail the third quest.",
])
def test_an_evil_player_naming_its_side_or_intent_exposes_itself(text: str) -> None:
    assert exposes(text, Role.MORGANA, []) == "evil side"


@pytest.mark.parametrize("text", [
    "I am a loyal servant; players 3 and 5 look honest to me.",
    "I am Merlin, trust my picks.",  # a bluff: Morgana posing as Merlin is play, not exposure
    "Player 4 might be evil; he rejected a clean team.",
    "That quest failed, so someone on it is evil.",
    "I support it because Player 6 is likely playing as Morgana.",
    "I support Player 1's team. They are likely evil and Percival, so they will fail the quest.",
    "I think this team will fail the quest.",
    "Player 4 may be the evil teammate of Player 2.",
    "I believe they are likely to fail the quest.",
    "Player 2 will make the team fail, keep him off.",
    "I think they want to make this quest fail.",
    "I support Player 4's team because their team has no evil players.",
    "I do not support this team, because Player 2 is evil.",
    "I support it because no one on it will fail.",
    "I support it because if the Assassin targets Player 3, it will fail the quest.",
    "I choose players 1 and 3. Player 5 will fail the quest.",
    "I think the Assassin will take the shot at Player 2.",
    "I hope they waste the shot on me.",
    "I fear he is taking the shot soon.",
    "I will not vote for them to fail quest 3.",
    "Player 3 proposed players 4 and 2 so that they fail quests.",
    "I think Player 5 will fail the third quest.",
])
def test_an_evil_player_bluffing_or_accusing_does_not_expose_itself(text: str) -> None:
    assert exposes(text, Role.MORGANA, []) is None


def test_merlin_stating_outright_that_a_player_he_sees_is_evil_exposes_him() -> None:
    assert exposes("Player 5 is evil. Keep him off.", Role.MERLIN, [5, 6]) == "merlin names evil"
    assert exposes("I know Player 6 is the Assassin.", Role.MERLIN, [5, 6]) == "merlin names evil"
    assert exposes("I am Merlin.", Role.MERLIN, [5, 6]) == "merlin"
    # codeact's Merlin, the AvalonPlay game played again on 2f105a8: "are all evil" went uncaught
    assert exposes("I will vote against this team. Player 1, 3, and 7 are all evil.", Role.MERLIN,
                   [1, 3, 7]) == "merlin names evil"
    assert exposes("Players 5 and 6 are both clearly evil.", Role.MERLIN, [5, 6]) == "merlin names evil"
    assert exposes("Players 5 and 6 might all be evil.", Role.MERLIN, [5, 6]) is None, "a guess"


def test_merlin_hinting_or_naming_a_player_he_does_not_see_does_not_expose_him() -> None:
    assert exposes("I suspect Player 5 is evil.", Role.MERLIN, [5, 6]) is None
    assert exposes("Player 3 is evil.", Role.MERLIN, [5, 6]) is None  # not one he sees
    assert exposes("Players 2 and 3 look trustworthy.", Role.MERLIN, [5, 6]) is None


def test_good_players_other_than_merlin_never_count_as_exposed() -> None:
    assert exposes("I am Merlin and Player 5 is evil.", Role.PERCIVAL, []) is None


def test_the_evil_council_is_private_so_it_is_not_exposure() -> None:
    quality = play_quality(record(said(5, "I am Morgana and we must fail the quest.", to=[5, 6]),
                                  said(6, "I am the Assassin.")))
    assert (quality.self_exposure.hits, quality.self_exposure.cases) == (1, 1)
    assert "assassin" in quality.examples["self_exposure"][0]


# -------------------------------------------------------- knowledge-settled votes


def test_settled_decisions_follow_each_players_knowledge() -> None:
    assert settled_vote(ROLES, 1, [1, 2]) is True  # Merlin, no evil he sees
    assert settled_vote(ROLES, 1, [1, 5]) is False  # Merlin, Morgana on it
    assert settled_vote(ROLES, 5, [1, 6]) is True  # Morgana, her teammate on it
    assert settled_vote(ROLES, 6, [6, 2]) is True  # the Assassin, himself on it
    assert settled_vote(ROLES, 6, [1, 2]) is False  # no evil player on it
    assert settled_vote(ROLES, 2, [1, 2]) is None  # Percival knows no side
    assert settled_vote(ROLES, 3, [1, 5]) is None  # a Servant knows nothing


def test_settled_decisions_are_counted_each_way() -> None:
    quality = play_quality(record(
        proposal(1, [1, 2], final=False),
        proposal(1, [1, 5]),
        vote(1, False),  # Merlin rejects a team with Morgana: right
        vote(5, False),  # Morgana rejects a team with herself: wrong
        vote(6, True),  # the Assassin approves a team with Morgana: right
        vote(3, True),  # a Servant: not settled
    ))
    assert (quality.settled_decisions.hits, quality.settled_decisions.cases) == (2, 3)
    assert "P5 (morgana) rejected [1, 5]" in quality.examples["settled_decisions"][0]


def test_a_fifth_team_whose_rejection_wins_for_evil_settles_every_vote_by_side() -> None:
    assert settled_vote(ROLES, 5, [1, 5], last_chance=True) is False  # Morgana: a rejection wins, her side on it or not
    assert settled_vote(ROLES, 3, [1, 5], last_chance=True) is True  # a Servant: a rejection loses
    assert settled_vote(ROLES, 1, [1, 5], last_chance=True) is True  # Merlin, though he sees Morgana on it
    events = (proposal(1, [1, 5], attempt=5), vote(5, False, attempt=5), vote(3, False, attempt=5),
              vote(1, True, attempt=5))
    official = play_quality(record(*events) | {"config": {"rules": {"fifth_rejection": "evil_wins"}}})
    assert (official.settled_decisions.hits, official.settled_decisions.cases) == (2, 3)
    # where the fifth team goes without its rejection ending the game, only knowledge settles votes
    other = play_quality(record(*events) | {"config": {"rules": {"fifth_rejection": "auto_approve"}}})
    # Morgana rejected a team with herself on it, Merlin approved one with her on it
    assert (other.settled_decisions.hits, other.settled_decisions.cases) == (0, 2)


def test_an_assassin_exposed_by_a_missed_mid_game_shot_settles_every_good_players_vote_on_his_team() -> None:
    assert settled_vote(ROLES, 3, [3, 6], exposed=6) is False  # a Servant, the exposed Assassin on it
    assert settled_vote(ROLES, 2, [2, 6], exposed=6) is False  # Percival too
    assert settled_vote(ROLES, 3, [3, 4], exposed=6) is None  # a team without him: nothing settled
    assert settled_vote(ROLES, 5, [5, 6], exposed=6) is True  # Morgana: her side on it, as before
    missed = {"type": "assassination", "to": None, "round": 1, "assassin": 6, "target": 2, "hit": False,
              "exposed": True}
    quality = play_quality(record(
        proposal(1, [3, 6]),
        vote(3, True),  # before the shot: the Servant knows nothing of Player 6
        missed,
        proposal(2, [3, 6], round_=2),
        vote(3, True, round_=2),  # after it: approving the exposed Assassin is against what it knows
        vote(4, False, round_=2),  # right
        vote(2, True, round_=2),  # Percival: wrong
    ))
    assert (quality.settled_decisions.hits, quality.settled_decisions.cases) == (1, 3)
    assert quality.examples["settled_decisions"][0] == "P3 (servant) approved [3, 6]"
    # a pass names no Assassin and exposes nobody
    passed = {"type": "assassination", "to": None, "round": 1, "target": None, "hit": None}
    quiet = play_quality(record(passed, proposal(2, [3, 6], round_=2), vote(3, True, round_=2)))
    assert quiet.settled_decisions.cases == 0


def test_a_vote_is_judged_on_the_final_team_of_its_proposal() -> None:
    quality = play_quality(record(proposal(1, [5, 6], final=False), proposal(1, [1, 2]), vote(1, True)))
    assert (quality.settled_decisions.hits, quality.settled_decisions.cases) == (1, 1)


# ---------------------------------------------------------- words and actions


def test_named_team_reads_the_last_list_of_the_right_size() -> None:
    assert named_team("I propose players 1, 3 and 4.", 3) == (1, 3, 4)
    assert named_team("Player 2 and Player 5 go.", 2) == (2, 5)
    assert named_team("I propose players 1 and 4. Player 2 and Player 3 look like Morgana and Merlin.", 2) == (1, 4)
    assert named_team("Player 2 and Player 3 look odd, so my team is players 1 and 4.", 2) == (1, 4)
    assert named_team("Players 2 and 3 look odd; players 1 and 4 look fine.", 2) == (2, 3)  # no team word: first
    assert named_team("I trust Player 4.", 2) is None
    assert named_team("Players 1, 2, 3 and 4 are all fine.", 2) is None


def test_words_and_actions_match_when_the_team_is_the_one_named() -> None:
    quality = play_quality(record(
        said(2, "I'll take players 1 and 2."), proposal(2, [2, 1]),
        said(3, "Players 3 and 4 please.", attempt=2), proposal(3, [3, 5], attempt=2),
        said(4, "I trust nobody yet.", attempt=3), proposal(4, [4, 6], attempt=3),
    ))
    assert (quality.words_and_actions.hits, quality.words_and_actions.cases) == (1, 2)
    assert "proposed [3, 5]" in quality.examples["words_and_actions"][0]


def test_only_the_leaders_own_words_of_that_proposal_count() -> None:
    quality = play_quality(record(
        said(2, "Players 1 and 2.", attempt=1), said(3, "Players 3 and 4."), proposal(3, [3, 5]),
    ))
    assert (quality.words_and_actions.hits, quality.words_and_actions.cases) == (0, 1)


def test_a_team_vote_against_the_voters_stated_stance_on_that_team_disagrees() -> None:
    quality = play_quality(record(
        proposal(2, [2, 3], final=False),
        said(3, "I support it because Player 2 has been honest."), said(4, "I will vote against this team."),
        said(5, "I trust Player 2."), said(1, "I would support it if Player 3 were off."),
        proposal(2, [2, 3]),
        vote(3, False),  # said support, rejected: against
        vote(4, False),  # said reject, rejected: agrees
        vote(5, True), vote(1, True),  # no stance stated: no case
    ))
    assert (quality.words_and_actions.hits, quality.words_and_actions.cases) == (1, 2)
    assert quality.examples["words_and_actions"] == [
        "P3 said 'I support it because Player 2 has been honest.', voted reject on [2, 3]"]


def test_a_stance_on_a_team_the_leader_then_changed_is_no_case() -> None:
    quality = play_quality(record(
        proposal(2, [2, 3], final=False), said(3, "I support this team."), proposal(2, [2, 4]), vote(3, False),
        said(4, "I support it.", attempt=2), proposal(4, [4, 1], attempt=2), vote(4, False, attempt=2),
    ))
    assert quality.words_and_actions.cases == 0  # attempt 2: words said before any team was on the table


# --------------------------------------------------------------- cost, pooling


def test_costs_come_from_the_game_usage_and_games_pool() -> None:
    usage = {"calls": 10, "prompt_tokens": 1000, "cached_tokens": 600, "completion_tokens": 80, "fallbacks": 1}
    one = play_quality(record(said(1, ORIGINAL), said(2, ORIGINAL), usage=usage))
    both = one.add(one)
    assert (one.calls, one.uncached_tokens, one.completion_tokens, one.fallbacks) == (10, 400, 80, 1)
    assert (both.parroting.hits, both.parroting.cases, both.calls) == (2, 4, 20)
    assert both.parroting.rate == 0.5
    assert play_quality(record()).parroting.rate is None


def test_agent_checks_count_re_asks_and_those_that_fixed_the_problem() -> None:
    decisions = [
        {"checks": ["near copy of Player 2: asked again"]},  # fixed
        {"checks": ["near copy of Player 2: asked again", "near copy of Player 3: kept after asking again"]},
        {"checks": ["vote reject against knowledge (no_evil_seen): asked again"]},
        {"checks": ["vote approve against record (fifth_team): asked again",
                    "vote approve against record (fifth_team): kept after asking again"]},
        {"checks": ["words expose the speaker (evil side): asked again",
                    "near copy of Player 1: kept after asking again"]},  # the exposure was fixed, a copy came back
        {"checks": []},
        {},
    ]
    shares = agent_checks({"decisions": decisions})
    assert {k: (s.hits, s.cases) for k, s in shares.items()} == {
        "near copy": (1, 2), "vote against knowledge": (1, 1), "vote against record": (0, 1), "self-exposure": (1, 1)}
    assert agent_checks({"decisions": []}) == {}


# ------------------------------------------------- what the measures add for issue 35


def decided(player: int, kind: str, thoughts: list[str] | None = None, fallback: str | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "decision", "to": [], "player": player, "request": f"r1.{kind}.p{player}",
                             "kind": kind, "agent": "lga"}
    if thoughts is not None:
        event["thoughts"] = thoughts
    if fallback is not None:
        event["fallback"] = fallback
    return event


THOUGHT = "Player 5 and Player 6 rejected a clean team, so I should keep both of them off every quest from now on."


def test_a_thought_said_aloud_is_counted_among_speakers_with_thoughts() -> None:
    quality = play_quality(record(
        decided(1, "speak", [THOUGHT]), said(1, "Player 5 and Player 6 rejected a clean team, so I should keep both "
                                                "of them off every quest."),
        decided(2, "speak", ["Nobody has failed a quest yet."]), said(2, "I trust players 1 and 3 for now."),
        said(3, "I have no thoughts recorded, so I am no case."),
    ))
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 2)
    assert "repeats its thought" in quality.examples["thoughts_aloud"][0]


def test_a_thought_read_out_with_its_words_glued_together_is_a_thought_said_aloud() -> None:
    glued = "Player 5 andPlayer 6 rejected aclean team, so I shouldkeep both of themoff every quest."
    quality = play_quality(record(decided(1, "speak", [THOUGHT]), said(1, glued),
                                  decided(2, "speak", [THOUGHT]), said(2, "Player 5 rejected a clean team.")))
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 2)


def test_a_thought_from_an_earlier_decision_counts_and_records_without_thoughts_give_no_case() -> None:
    later = play_quality(record(decided(1, "vote_team", [THOUGHT]), decided(1, "speak", []), said(1, THOUGHT)))
    assert (later.thoughts_aloud.hits, later.thoughts_aloud.cases) == (1, 1)
    assert play_quality(record(said(1, THOUGHT), said(2, "Fine."))).thoughts_aloud.rate is None


def test_an_evil_player_naming_its_own_number_exposes_itself() -> None:
    quality = play_quality(record(said(5, "Player 5 is evil, and so is Player 6."), said(3, "Player 5 is evil.")))
    assert (quality.self_exposure.hits, quality.self_exposure.cases) == (1, 2)
    assert "own number" in quality.examples["self_exposure"][0]


def test_merlin_named_by_a_servant_is_merlin_exposed() -> None:
    quality = play_quality(record(
        said(3, "I support it because Player 1 is Merlin."),  # the Servant names the real Merlin: a hit
        said(4, "Player 2 is Merlin."),  # wrong about who Merlin is: nothing given away
        said(2, "Player 1 might be Merlin."),  # a guess
        said(1, "I am Merlin."),  # Merlin himself: self-exposure, no case of this one's hits
        said(5, "Player 1 is Merlin."),  # the evil side: not counted
    ))
    assert (quality.merlin_exposed.hits, quality.merlin_exposed.cases) == (1, 4)
    assert quality.examples["merlin_exposed"][0].startswith("P3 (servant)")
    assert quality.self_exposure.hits == 1


def test_merlin_named_as_the_leader_is_merlin_exposed_when_the_leader_is_merlin() -> None:
    def leader(player: int, attempt: int) -> dict[str, Any]:
        return {"type": "leader", "round": 1, "attempt": attempt, "leader": player, "to": None}

    quality = play_quality(record(
        leader(1, 1), said(3, "Merlin is the clear leader, so I support it."),  # Player 1 is Merlin: a hit
        leader(2, 2), said(4, "Merlin is the clear leader, so I support it.", attempt=2),  # Percival: wrong
        said(1, "I know Merlin is the leader.", attempt=2),  # Merlin, not the leader: nothing said of himself
    ))
    assert (quality.merlin_exposed.hits, quality.merlin_exposed.cases) == (1, 3)
    assert quality.examples["merlin_exposed"][0].startswith("P3 (servant)")
    assert quality.self_exposure.hits == 0
    merlin_leads = play_quality(record(leader(1, 1), said(1, "Merlin is the leader of this team.")))
    assert merlin_leads.self_exposure.hits == 1, "Merlin calling the leader, himself, Merlin"


def test_a_game_ended_by_five_rejections_in_quest_2() -> None:
    events = [{"type": "round_start", "round": 1}, proposal(1, [1, 2]), {"type": "round_start", "round": 2},
              *(proposal(a + 1, [1, 2, 3], round_=2, attempt=a) for a in range(1, 6)),
              {"type": "game_over", "winner": "evil", "reason": "five_rejected_proposals"}]
    ended = play_quality(record(*events) | {"end_reason": "five_rejected_proposals"})
    assert (ended.five_rejections.hits, ended.five_rejections.cases) == (1, 1)
    assert ended.five_rejection_quests == [2]
    assert quality_lines(record(*events) | {"end_reason": "five_rejected_proposals"})[-2] == \
        "Ended by five rejected teams: yes, in quest 2"
    other = play_quality(record(*events[:-1], {"type": "game_over", "winner": "good", "reason": "merlin_survived"})
                         | {"end_reason": "merlin_survived"})
    assert (other.five_rejections.hits, other.five_rejections.cases, other.five_rejection_quests) == (0, 1, [])
    assert play_quality(record(*events[:-1])).five_rejections.cases == 0  # unfinished: no case
    both = ended.add(other)
    assert (both.five_rejections.hits, both.five_rejections.cases, both.five_rejection_quests) == (1, 2, [2])


def test_fallbacks_are_decisions_with_a_fallback_among_decisions_without_the_probe() -> None:
    quality = play_quality(record(decided(1, "vote_team", fallback="vote unclear: counted as approve"),
                                  decided(2, "vote_team"), decided(3, "speak"),
                                  decided(4, "belief", fallback="belief unclear: left out")))
    assert (quality.fallback_decisions.hits, quality.fallback_decisions.cases) == (1, 3)
    from_usage = play_quality(record(usage={"decisions": 20, "fallbacks": 2}))
    assert (from_usage.fallback_decisions.hits, from_usage.fallback_decisions.cases) == (2, 20)


def test_plain_words_said_because_the_agent_dropped_every_sentence_are_its_rule_not_a_fallback() -> None:
    from roundtable.games.fallbacks import PLAIN_WORDS, SAID_NOTHING
    from roundtable.metrics.facts import player_facts

    dropped = ["near copy of Player 2: asked again", "near copy of Player 2: sentences dropped"]
    emptied = decided(1, "speak", fallback=PLAIN_WORDS) | {"checks": dropped}  # the agent's rule: no fallback
    posing = decided(2, "speak", fallback=f"1 passage(s) posing as the host or another player removed; {PLAIN_WORDS}")
    posing_dropped = posing | {"player": 3, "checks": dropped}  # a passage posing as the Host is still a fallback
    unchecked = decided(4, "speak", fallback=PLAIN_WORDS)  # no words the model wrote were usable
    quality = play_quality(record(emptied, posing, posing_dropped, unchecked))
    assert (quality.fallback_decisions.hits, quality.fallback_decisions.cases) == (3, 4)
    assert [e.split(":")[0] for e in quality.examples["fallback_decisions"]] == ["P2 speak", "P3 speak", "P4 speak"]
    rows = player_facts(record(emptied, unchecked))
    assert [(r.player, r.decisions, r.valid_decisions) for r in rows if r.decisions] == [(1, 1, 1), (4, 1, 0)]
    silent = decided(5, "speak", fallback=SAID_NOTHING) | {"checks": dropped}  # silence kept by the rule: no fallback
    assert play_quality(record(silent)).fallback_decisions.hits == 0


def test_a_silent_turn_is_empty_talk_and_no_case_of_parroting() -> None:
    quality = play_quality(record(said(1, "I trust Player 2."), said(2, ""), said(3, "")))
    assert (quality.empty_talk.hits, quality.empty_talk.cases) == (2, 3)
    assert (quality.parroting.hits, quality.parroting.cases) == (0, 1)
    assert quality.examples["empty_talk"] == ["P2: (says nothing)", "P3: (says nothing)"]


def test_avalon_settled_votes_are_broken_down_by_rule() -> None:
    quality = play_quality(record(proposal(1, [1, 5]), vote(1, False), vote(5, False)))
    assert {k: (s.hits, s.cases) for k, s in quality.settled_rules.items()} == {"team vote": (1, 2)}


def test_decisions_the_agents_rule_overruled_are_counted_by_kind_of_check() -> None:
    from roundtable.metrics.play_quality import overruled, quality_lines

    record = {"game": "avalon", "roles": {}, "events": [], "decisions": [
        {"checks": ["vote reject against rules (fifth_team): overruled"]},
        {"checks": ["vote approve against knowledge (side_off_team): overruled", "near copy of Player 2: asked again"]},
        {"checks": ["vote reject against rules (fifth_team): asked again"]},
        {"checks": ["words expose the speaker (night action): asked again",
                    "words expose the speaker (night action): sentences dropped"]},
        {"checks": ["words name player 1 to kill, the vote names nobody: asked again"]},
        {"checks": ["eliminate player 7 against words (own_statement): overruled"]},
    ]}
    assert overruled(record) == {"vote against rules": 1, "vote against knowledge": 1, "self-exposure": 1,
                                 "vote against own words": 1}
    assert {k: (s.hits, s.cases) for k, s in agent_checks(record).items()} == {
        "near copy": (1, 1), "vote against rules": (1, 1), "self-exposure": (0, 1), "words and kill vote": (1, 1)}
    assert any("overrule" in line and "vote against rules 1" in line for line in quality_lines(record))


# ------------------------------------------------------------------ empty talk

@pytest.mark.parametrize("text", ["I will think about it and then decide what to say.", "I have no information yet.",
                                  "I will wait for everyone to speak before I make a decision.",
                                  "I have nothing to add."])
def test_words_that_name_no_player_role_or_stance_say_nothing(text: str) -> None:
    assert says_nothing(text)


@pytest.mark.parametrize("text", ["I support it.", "I think P3 is lying.", "I am a Villager.",
                                  "I choose players 1 and 6.", "Player 4 has been quiet.", "I reject this team.",
                                  "I suspect nobody yet.", "I pass tonight.", ""])
def test_a_player_a_role_or_a_stance_is_content(text: str) -> None:
    assert not says_nothing(text)


def test_empty_talk_counts_public_words_only() -> None:
    quality = play_quality(record(said(1, "I have no information yet."), said(2, "I trust Player 1."),
                                  said(5, "Let us wait and see.", to=[5, 6])))
    assert (quality.empty_talk.hits, quality.empty_talk.cases) == (1, 2)
    assert quality.examples["empty_talk"] == ["P1: 'I have no information yet.'"]
    assert any(line.startswith("Play quality, talk:") and "empty talk 1/2 = 50%" in line
               for line in quality_lines(record(said(1, "I have no information yet."), said(2, "I trust Player 1."))))


def test_words_beginning_with_a_thought_run_on_are_thoughts_said_aloud() -> None:
    """lan-table2's lga-good-s0001: a cga Assassin's reasoning ran out of tokens and went on in its words, which the
    table heard before the words were cleaned of such run-ons."""
    events = [{"type": "decision", "player": 2, "request": "r1.a1.speak.p2", "kind": "speak",
               "thoughts": ["I suggest playing a"]},
              {"type": "utterance", "speaker": 2, "round": 1, "attempt": 1, "phase": "discussion", "to": None,
               "text": "success card to fail the third quest. This will ensure the shot."},
              {"type": "utterance", "speaker": 2, "round": 1, "attempt": 1, "phase": "discussion", "to": None,
               "text": "ok"}]
    quality = play_quality({"game": "avalon", "roles": {"1": "merlin", "2": "assassin"}, "events": events,
                            "status": "finished"})
    assert (quality.thoughts_aloud.hits, quality.thoughts_aloud.cases) == (1, 2)


# ------------------------------------------------------------------ plain counts and the aids, beside the detectors


def test_the_plain_copy_count_stands_beside_parroting_on_the_same_cases_without_its_rules() -> None:
    """A bare move said again is no copy to the detector; the plain 4-gram count, with no rule, counts it."""
    quality = play_quality(record(said(3, "I will vote against this team."), said(6, "I will vote against this team."),
                                  said(4, "I support it because Player 6 is the leader."),
                                  said(5, "I support it because Player 6 is the leader.")))
    assert (quality.parroting.hits, quality.parroting.cases) == (1, 4)
    assert (quality.plain_copies.hits, quality.plain_copies.cases) == (2, 4)


def test_the_plain_named_count_counts_a_guess_the_detector_leaves_out() -> None:
    merlin = LAN6.index("merlin") + 1
    servant = LAN6.index("servant") + 1
    guess = f"Player {merlin} is likely Merlin."
    stated = f"Player {merlin} is Merlin."
    quality = play_quality(record(said(servant, guess), said(servant, stated)))
    assert (quality.merlin_exposed.hits, quality.merlin_exposed.cases) == (1, 2)
    assert (quality.plain_named.hits, quality.plain_named.cases) == (2, 2)


def test_every_play_quality_figure_says_whether_the_aids_were_on() -> None:
    from roundtable.metrics.quality.result import aids_of

    local = {"kind": "lga", "model": "local", "options": {}}
    hosted = {"kind": "lga", "model": "gpt-4o", "options": {}}
    assert aids_of([{"seats": [local, {"kind": "naive", "model": None}]}]) == "on"
    assert aids_of([{"seats": [hosted, local | {"options": {"aids": "off"}}]}]) == "off"
    assert aids_of([{"seats": [hosted, local]}]) == "on for 1 of 2 model seats"
    assert aids_of([{"seats": [{"kind": "naive"}]}]) == "no model seat"
    lines = quality_lines(record(said(1, "I approve.")) | {"seats": [hosted] * 6})
    assert lines[-1].startswith("Small-model aids of the model seats: off")
