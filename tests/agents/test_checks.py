"""The checks every speaking kind shares (`roundtable.aids.review`, `.settled`, `.avalon`, `.werewolf`,
`.sampling`, `.check_options`): what each finds, what it asks again and how it says so."""

from __future__ import annotations

import re

import pytest
from lga_fakes import first, play_until
from werewolf_fakes import werewolf_request

from roundtable.agents.common.thought import prose_thought
from roundtable.agents.lga.context import LgaContext
from roundtable.aids.avalon import avalon_settled
from roundtable.aids.interface import Answer, check, checked_of
from roundtable.aids.options import WORD_CHECKS, CheckOptions
from roundtable.aids.review import (
    OWN_THOUGHTS,
    ask_again,
    copied_source,
    exposure_of,
    heard_lines,
    review_words,
    vote_against_knowledge,
    words_update,
)
from roundtable.aids.sampling import AGAIN_TEMPERATURE, DRY_SAMPLING, speech_sampling, speech_temperature
from roundtable.aids.settled import Settled, settled_update
from roundtable.aids.werewolf import (
    knowledge_note,
    record_checks,
    ruled_out_votes,
    teammate_target,
    werewolf_settled,
)
from roundtable.games import avalon, werewolf
from roundtable.games.werewolf.bots import naive
from roundtable.metrics.play_quality import agent_checks, overruled
from roundtable.metrics.quality.result import Share
from roundtable.prompts.rendering import TemplateContext
from roundtable.tables.avalon import AvalonTable

ALL = WORD_CHECKS
REFLECTION = "As the Seer, I observed that Player 1 is the Seer and Player 3 is the Witch, so Player 2 is a werewolf."


class Plain(TemplateContext):
    """A context carrying no template of its own: every template from its file."""


def avalon_speaker(player: int) -> tuple[avalon.AvalonView, avalon.Request]:
    state, requests = play_until(lambda s, rs: any(r.kind == "speak" and r.player == player for r in rs))
    request = next(r for r in requests if r.player == player)
    return avalon.view(state, player), request


# ------------------------------------------------------------------ words


def test_heard_lines_keep_the_utterances_of_memory_lines_with_their_speaker() -> None:
    lines = ["Host: Quest 1 begins.", "Player 3: I trust 4.", "Player 2 (you): Me too.",
             "Player 5 (last words): Vote 6 out.", "Player 4 was eliminated."]
    assert heard_lines(lines) == [("Player 3", "I trust 4."), ("Player 2", "Me too."), ("Player 5", "Vote 6 out.")]


def test_a_near_copy_names_the_speaker_heard_first_then_the_speakers_own_thoughts() -> None:
    heard = [("Player 3", "I think Player 5 is the werewolf and we should vote him out today.")]
    assert copied_source("I think Player 5 is the werewolf and we should vote him out.", heard, []) == "Player 3"
    assert copied_source("I think Player 5 isthe werewolf andwe should votehim out.", heard, []) == "Player 3", \
        "a copy with its words glued together, as DRY sampling makes a 1.5B model write it"
    assert copied_source("I observed that Player 1 is the Seer and Player 3 is the Witch, so Player 2 is a "
                         "werewolf.", heard, [REFLECTION]) == OWN_THOUGHTS
    assert copied_source("Player 4 has been quiet; I would like to hear from him first.", heard, [REFLECTION]) is None
    thought = "I think Player 3 is the Seer because Player 3 suspects Player 1 and has not said a role."
    assert copied_source("I think Player 3 is the Seer.", [], [thought]) is None, "the thought's conclusion, said"
    proposed = [("Player 5", "I propose players 1 and 5 for this quest, as neither has failed one.")]
    assert copied_source("I propose players 1 and 3.", proposed, []) is None  # one's own move, in the formula
    assert copied_source("I propose players 1 and 5.", proposed, []) is None, "a bare move (words.bare_move)"
    assert copied_source("I propose players 1 and 5 for this quest, as neither failed one.", proposed,
                         []) == "Player 5"


def test_words_backing_a_team_the_speakers_knowledge_will_vote_against_are_asked_again_then_said_as_the_vote() -> None:
    view, request = avalon_speaker(3)  # Morgana, on players 1 and 5: no one of her side on it
    said = "I support this team. Player 1 has been quiet."
    update = words_update(Plain(), view, request, said, None, heard=[], thoughts=[], checks=ALL, response_words=40,
                          reviewed=False)
    assert update["checks"] == ["stance against knowledge: words support the team (side_off_team): asked again"]
    assert ("you said you support this team, but you will vote to reject it: no player of your side is on it"
            in update["recheck"])
    assert "without giving yourself away" in update["recheck"]
    dropped = words_update(Plain(), view, request, said, None, heard=[], thoughts=[], checks=ALL, response_words=40,
                           reviewed=True, drop=True)
    assert dropped["utterance"] == "I will vote against this team. Player 1 has been quiet."
    assert agent_checks({"decisions": [{"checks": update["checks"]}]}) == {"words and team vote": Share(1, 1)}
    at_once = words_update(Plain(), view, request, said, None, heard=[], thoughts=[], checks=ALL, response_words=40,
                           reviewed=False, drop=True)  # the embedded model: no second call for a stance alone
    assert at_once["utterance"] == "I will vote against this team. Player 1 has been quiet."
    assert at_once["checks"] == ["stance against knowledge: words support the team (side_off_team): overruled"]
    assert at_once["recheck"] is None and "reviewed" not in at_once


def test_a_leaders_final_word_copying_its_own_first_words_is_said_as_its_team_on_the_embedded_model() -> None:
    state, requests = play_until(lambda s, rs: any(r.kind == "propose_team" and r.details.get("final") for r in rs))
    request = next(r for r in requests if r.details.get("final"))
    leader, view, first_team = request.player, avalon.view(state, request.player), sorted(request.subject)
    said = f"I choose Player {first_team[0]} and Player {first_team[1]} as the team for this quest."
    heard = [(f"Player {leader}", said)]
    update = words_update(Plain(), view, request, said, first_team, heard=heard, thoughts=[], checks=ALL,
                          response_words=40, reviewed=False, drop=True)
    assert update["checks"] == [f"near copy of Player {leader}: restated"] and update["recheck"] is None
    team = ", ".join(map(str, first_team[:-1])) + f" and {first_team[-1]}"
    assert update["utterance"] == f"My team for quest {request.round} stays: players {team}."
    asked = words_update(Plain(), view, request, said, first_team, heard=heard, thoughts=[], checks=ALL,
                         response_words=40, reviewed=False)
    assert asked["checks"] == [f"near copy of Player {leader}: asked again"], "a hosted model is asked again"
    other = [(f"Player {leader % 5 + 1}", said)]
    copied = words_update(Plain(), view, request, said, first_team, heard=other, thoughts=[], checks=ALL,
                          response_words=40, reviewed=False, drop=True)
    assert copied["checks"] == [f"near copy of Player {leader % 5 + 1}: asked again"], "another's words: asked"
    assert overruled({"decisions": [{"checks": update["checks"]}]}) == {"near copy": 1}


def test_a_stance_the_speakers_knowledge_agrees_with_or_does_not_settle_is_no_problem() -> None:
    merlin, request = avalon_speaker(6)  # no evil player he sees on players 1 and 5: he will approve
    assert review_words(merlin, request, "I support this team.", None, heard=[], thoughts=[], checks=ALL,
                        response_words=40) is None
    found = review_words(merlin, request, "I will vote against this team.", None, heard=[], thoughts=[],
                         checks=ALL, response_words=40)
    assert found is not None and found.reasons == (
        "stance against knowledge: words reject the team (no_evil_seen)",)
    servant, request = avalon_speaker(1)  # knows nothing: any stance is his to take
    for said in ("I support this team.", "I will vote against this team."):
        assert review_words(servant, request, said, None, heard=[], thoughts=[], checks=ALL,
                            response_words=40) is None
    assert review_words(merlin, request, "I will vote against this team.", None, heard=[], thoughts=[],
                        checks=("copy", "tactic", "exposure"), response_words=40) is None, "part of the team check"


def test_a_reflection_said_aloud_is_asked_again_with_a_note_that_keeps_thoughts_private() -> None:
    state, request = werewolf_request("speak", 2)
    view = werewolf.view(state, 2)
    update = words_update(Plain(), view, request, REFLECTION.replace("As the Seer, ", ""), None, heard=[],
                          thoughts=[REFLECTION], checks=ALL, response_words=40, reviewed=False)
    assert update["checks"] == ["near copy of own thoughts: asked again",
                                "words expose the speaker (names seer): asked again"]  # it names the Seer, too
    assert update["copied"] is True and update["reviewed"] is True
    assert "private thoughts read out" in update["recheck"] and "already said" not in update["recheck"]


def test_a_tactic_said_in_public_is_asked_again_and_one_said_to_teammates_is_not() -> None:
    view, request = avalon_speaker(3)
    said = "Player 2 looks honest to me. I will draw suspicion by hinting that I am Merlin."
    update = words_update(Plain(), view, request, said, None, heard=[], thoughts=[], checks=ALL, response_words=40,
                          reviewed=False)
    assert update["checks"] == ["tactic said aloud: asked again"]
    assert "those words tell everyone your plan" in update["recheck"]
    dropped = words_update(Plain(), view, request, said, None, heard=[], thoughts=[], checks=ALL, response_words=40,
                           reviewed=True, drop=True)
    assert dropped["utterance"] == "Player 2 looks honest to me."
    assert dropped["checks"] == ["tactic said aloud: sentences dropped"]
    assert review_words(view, request, said, None, heard=[], thoughts=[], checks=("copy", "team", "exposure"),
                        response_words=40) is None
    state, kill = werewolf_request("kill", 6)  # words to the teammates: a plan is what they are for
    assert review_words(werewolf.view(state, 6), kill, "I will not reveal my identity tomorrow.", [3], heard=[],
                        thoughts=[], checks=ALL, response_words=40) is None


def test_a_good_player_naming_merlin_aloud_is_asked_again_and_an_evil_one_or_a_claim_is_not() -> None:
    state, requests = play_until(lambda s, rs: any(r.kind == "speak" for r in rs))
    speaker = next(r for r in requests if r.kind == "speak")
    roles = {p: state.role_of(p) for p in state.players}
    merlin = next(p for p, r in roles.items() if r is avalon.Role.MERLIN)
    servant = next(p for p, r in roles.items() if r is avalon.Role.SERVANT)
    evil = next(p for p, r in roles.items() if r.side.value == "evil")
    said = f"I support this team. I know Player {merlin} is known for Merlin."
    assert exposure_of(avalon.view(state, servant), said) == "names merlin"
    assert exposure_of(avalon.view(state, servant), "I am Merlin, trust me.") is None  # a claim of its own
    assert exposure_of(avalon.view(state, evil), said) is None  # the Assassin's side may guess aloud
    update = words_update(Plain(), avalon.view(state, servant), speaker, said, None, heard=[], thoughts=[],
                          checks=ALL, response_words=40, reviewed=False)
    assert update["checks"] == ["words expose the speaker (names merlin): asked again"]
    assert "never say aloud who you think Merlin is" in update["recheck"]


def test_only_the_checks_switched_on_run() -> None:
    view, request = avalon_speaker(3)  # Morgana
    said = "As Morgana I will make them fail."
    found = review_words(view, request, said, None, heard=[("Player 1", said)], thoughts=[], checks=ALL,
                         response_words=20)
    assert found is not None and found.reasons == ("near copy of Player 1", "words expose the speaker (evil side)")
    only = review_words(view, request, said, None, heard=[("Player 1", said)], thoughts=[], checks=("exposure",),
                        response_words=20)
    assert only is not None and only.reasons == ("words expose the speaker (evil side)",)
    assert review_words(view, request, said, None, heard=[("Player 1", said)], thoughts=[], checks=(),
                        response_words=20) is None


def test_words_naming_another_team_are_found_only_with_several_players_chosen() -> None:
    state, requests = play_until(first("propose_team"))
    request = requests[0]
    view = avalon.view(state, request.player)
    found = review_words(view, request, "My team: players 3 and 4.", [1, 2], heard=[], thoughts=[], checks=ALL,
                         response_words=20)
    assert found is not None and found.reasons == ("words name players 3, 4, team is 1, 2",)
    assert review_words(view, request, "Players 2 and 1, please.", [1, 2], heard=[], thoughts=[], checks=ALL,
                        response_words=20) is None


def test_night_words_naming_another_victim_than_the_kill_vote_or_a_pass_are_asked_again() -> None:
    state, request = werewolf_request("kill", 6)
    assert request.wants_words and request.audience  # werewolf_night=sequential: words to the teammates
    view = werewolf.view(state, 6)
    said = "I will pass on Player 7 as the Seer. I will choose Player 1 as the next victim."
    update = words_update(Plain(), view, request, said, [], heard=[], thoughts=[], checks=ALL, response_words=40,
                          reviewed=False)
    assert update["checks"] == ["words name player 1 to kill, the vote names nobody: asked again"]
    assert "your words name Player 1 to kill but your vote names nobody" in update["recheck"]
    found = review_words(view, request, said, [2], heard=[], thoughts=[], checks=ALL, response_words=40)
    assert found is not None and found.reasons == ("words name player 1 to kill, the vote names player 2",)
    assert review_words(view, request, said, [1], heard=[], thoughts=[], checks=ALL, response_words=40) is None
    assert review_words(view, request, said, [], heard=[], thoughts=[], checks=("copy", "exposure"),
                        response_words=40) is None
    speak_state, speak = werewolf_request("speak", 4)  # a day statement is not a kill vote
    assert review_words(werewolf.view(speak_state, 4), speak, "Let's kill Player 1.", None, heard=[], thoughts=[],
                        checks=ALL, response_words=40) is None


def test_a_werewolf_naming_its_side_in_public_exposes_itself_and_a_villager_does_not() -> None:
    state, request = werewolf_request("speak", 6)
    assert exposure_of(werewolf.view(state, 6), "We werewolves will kill Player 1 tonight.") == "werewolf side"
    assert exposure_of(werewolf.view(state, 6), "Player 4 has been quiet, which worries me.") is None
    state, request = werewolf_request("speak", 4)
    assert exposure_of(werewolf.view(state, 4), "I am not a werewolf.") is None
    found = review_words(werewolf.view(state, 4), request, "Player 6 is a werewolf, vote him out.", None, heard=[],
                         thoughts=[], checks=ALL, response_words=40)
    assert found is None


def test_a_village_player_naming_the_seer_aloud_exposes_it_but_the_seer_or_a_werewolf_does_not() -> None:
    state, request = werewolf_request("speak", 4)  # xu7 seed 1: Player 1 is the Seer, 6 and 7 werewolves
    said = "I trust Player 1, our Seer."
    assert exposure_of(werewolf.view(state, 4), said) == "names seer"
    assert exposure_of(werewolf.view(state, 4), "Player 1 might be the Seer.") is None  # a guess
    assert exposure_of(werewolf.view(state, 1), "I am the Seer and Player 1 is the Seer.") is None
    assert exposure_of(werewolf.view(state, 6), said) is None
    assert exposure_of(werewolf.view(state, 4), said, [("Player 1", "I reveal my role as the Seer.")]) is None, \
        "claimed at the table: nothing left to give away"
    assert exposure_of(werewolf.view(state, 4), said, [("Player 6", "I am the Seer.")]) == "names seer"
    update = words_update(Plain(), werewolf.view(state, 4), request, said, None, heard=[], thoughts=[], checks=ALL,
                          response_words=40, reviewed=False)
    assert update["checks"] == ["words expose the speaker (names seer): asked again"]
    assert "never say aloud who you think the Seer is" in update["recheck"]


def test_a_day_statement_voting_out_the_speaker_is_asked_again() -> None:
    state, request = werewolf_request("speak", 4)
    said = "I will vote to eliminate player 4. I trust the seer."  # said by Player 4 in pq-cga-xu7-v2-s1
    update = words_update(Plain(), werewolf.view(state, 4), request, said, None, heard=[], thoughts=[], checks=ALL,
                          response_words=40, reviewed=False)
    assert update["checks"] == ["words vote out the speaker: asked again"]
    assert "you said you would vote out Player 4, yourself" in update["recheck"]
    assert review_words(werewolf.view(state, 4), request, "I will vote to eliminate Player 5.", None, heard=[],
                        thoughts=[], checks=ALL, response_words=40) is None


def test_a_day_statement_voting_out_a_player_the_speakers_knowledge_rules_out_is_asked_again() -> None:
    state, request = werewolf_request("speak", 6)  # xu7 seed 1: Player 1 is the Seer, 6 and 7 werewolves
    said = "Player 7 is too quiet. I will vote to eliminate Player 7."
    update = words_update(Plain(), werewolf.view(state, 6), request, said, None, heard=[], thoughts=[], checks=ALL,
                          response_words=40, reviewed=False)
    assert update["checks"] == ["words vote out player 7 (teammate): asked again"]
    assert "Player 7, your fellow werewolf, and you will not vote for a werewolf" in update["recheck"]
    seer = werewolf.view(state, 1)
    assert vote_against_knowledge(seer, request, said, {7: False, 3: True}) == (7, "checked_good")
    assert vote_against_knowledge(seer, request, said, {7: True}) is None, "a werewolf it found: vote him out"
    assert vote_against_knowledge(seer, request, said) is None, "no check: nothing ruled out"
    assert vote_against_knowledge(werewolf.view(state, 4), request, said, {7: False}) is None, "not the Seer"
    assert ruled_out_votes(werewolf.view(state, 7), {}) == {6: "teammate", 7: "self"}
    day_vote = werewolf_request("eliminate", 6)[1]
    assert vote_against_knowledge(werewolf.view(state, 6), day_vote, said) is None, "a statement only"


def test_a_day_statement_voting_out_a_dead_player_is_asked_again() -> None:
    """pq-cga-xu7-v8-s1, day 2: a werewolf said "I vote to eliminate Player 3 tonight." of the player voted out
    on day 1, then passed: a dead player is on no ballot."""
    state, request = werewolf_request("speak", 4, day=2)
    view = werewolf.view(state, 4)
    dead = next(p for p in view.dead if p != 4)
    said = f"I vote to eliminate Player {dead} tonight."
    update = words_update(Plain(), view, request, said, None, heard=[], thoughts=[], checks=ALL, response_words=40,
                          reviewed=False)
    assert update["checks"] == [f"words vote out player {dead} (dead): asked again"]
    assert f"Player {dead}, who is dead already and on no ballot" in update["recheck"]
    alive = next(p for p in view.alive if p != 4)
    assert vote_against_knowledge(view, request, f"I vote to eliminate Player {alive}.") is None


def test_the_werewolf_note_says_talk_like_a_villager() -> None:
    state, request = werewolf_request("speak", 6)
    update = words_update(Plain(), werewolf.view(state, 6), request, "I am a werewolf, sorry.", None, heard=[],
                          thoughts=[], checks=ALL, response_words=40, reviewed=False)
    assert update["checks"] == ["words expose the speaker (werewolf side): asked again"]
    assert "Talk like a villager." in update["recheck"] and update["copied"] is False


def test_second_words_that_still_fail_lose_their_failing_sentences_where_the_seat_drops_them() -> None:
    state, request = werewolf_request("speak", 2)  # the Witch, by day
    view = werewolf.view(state, 2)
    said = "Player 5 has been very quiet today. I will poison Player 5 tonight."

    def update(words: str, drop: bool = True, reviewed: bool = True) -> dict:
        return words_update(Plain(), view, request, words, None, heard=[], thoughts=[], checks=ALL,
                            response_words=40, reviewed=reviewed, drop=drop)

    assert update(said) == {"recheck": None, "utterance": "Player 5 has been very quiet today.",
                            "checks": ["words expose the speaker (night action): sentences dropped"]}
    assert update("I will poison Player 5 tonight.")["utterance"] == ""  # nothing left: the game's plain words
    assert update(said, drop=False) == {"recheck": None,
                                        "checks": ["words expose the speaker (night action): kept after asking again"]}
    assert update(said, reviewed=False)["checks"] == ["words expose the speaker (night action): asked again"]
    assert update("Player 5 has been very quiet today.") == {"recheck": None, "checks": []}


def test_a_dropped_sentence_leaves_its_stance_on_the_team_said_and_the_settled_vote_where_it_went_against() -> None:
    servant, request = avalon_speaker(1)  # lan6 seed 1: a Servant, on players 1 and 5; his stance is his own

    def update(view: avalon.AvalonView, words: str, asked: avalon.Request = request) -> dict:
        return words_update(Plain(), view, asked, words, None, heard=[], thoughts=[], checks=ALL,
                            response_words=40, reviewed=True, drop=True)

    assert update(servant, "I support it because Player 6 is Merlin. Player 4 has been quiet.") == {
        "recheck": None, "utterance": "I will vote for this team. I trust Player 6. Player 4 has been quiet.",
        "checks": ["words expose the speaker (names merlin): sentences dropped"]}
    assert update(servant, "Player 5 is evil. I know Player 6 is Merlin.")["utterance"] == (
        "Player 5 is evil. I trust Player 6."), "no stance stated: the trust alone"
    morgana, asked = avalon_speaker(3)  # no one of her side on players 1 and 5: she will reject it
    dropped = update(morgana, "I support it because I am evil and Player 6 is Merlin.", asked)
    assert dropped["utterance"] == "I will vote against this team."
    heard = [("Player 4", "I think Player 1's team players 1, 5 should be approved, as it is clean.")]
    copied = words_update(Plain(), servant, request, heard[0][1], None, heard=heard, thoughts=[], checks=ALL,
                          response_words=40, reviewed=True, drop=True)
    assert copied["utterance"] == "I will vote for this team.", "cga's wording, kept (pq-cga-lan6-v8-s1)"
    assert copied["checks"] == ["near copy of Player 4: sentences dropped"]


def test_a_servant_calling_merlin_the_leader_names_the_leader_and_is_left_trusting_him() -> None:
    servant, request = avalon_speaker(1)  # lan6 seed 1: a Servant, on Player 5's team
    assert servant.leader == 5
    assert exposure_of(servant, "Merlin is the clear leader, so I support it.") == "names merlin"
    assert exposure_of(servant, "Merlin is likely the leader.") is None
    dropped = words_update(Plain(), servant, request, "Merlin is the clear leader. Player 4 has been quiet.", None,
                           heard=[], thoughts=[], checks=ALL, response_words=40, reviewed=True, drop=True)
    assert dropped["utterance"] == "I trust Player 5. Player 4 has been quiet."


def test_a_dropped_sentence_naming_whom_the_speaker_takes_for_the_seer_leaves_it_trusting_them() -> None:
    state, request = werewolf_request("speak", 3)  # the Guard, by day (pq-cga-xu7-v6-s1's turn left silent)
    guard = werewolf.view(state, 3)

    def update(words: str, heard: list[tuple[str, str]] | None = None) -> dict:
        return words_update(Plain(), guard, request, words, None, heard=heard or [], thoughts=[], checks=ALL,
                            response_words=40, reviewed=True, drop=True)

    assert update("I think Player 2 is the Seer.") == {
        "recheck": None, "utterance": "I trust Player 2.",
        "checks": ["words expose the speaker (names seer): sentences dropped"]}
    assert update("The Seer is Player 2, and Player 5 is the Seer too. Player 4 is quiet.")["utterance"] == (
        "I trust Player 2 and Player 5. Player 4 is quiet.")
    assert update("I trust Player 2. I think Player 2 is the Seer.")["utterance"] == "I trust Player 2.", "once"
    claimed = [("Player 2", "I reveal my role as the Seer.")]
    assert update("I think Player 2 is the Seer.", claimed) == {"recheck": None, "checks": []}, "a claim: no fault"
    assert update("I trust Player 2. I will poison Player 5 tonight.")["utterance"] == "I trust Player 2.", \
        "another fault leaves no trust of its own"
    heard = [("Player 1", "I think Player 3 is a werewolf. I trust Player 2.")]
    assert update("I think Player 2 is the Seer.", heard)["utterance"] == "I trust Player 2.", \
        "trust said in few words is no near copy (words.bare_move)"


def test_a_second_answer_is_kept_and_recorded_as_kept_and_a_clean_first_answer_changes_nothing() -> None:
    assert ask_again(["near copy of Player 3"], lambda: "note", reviewed=True) == {
        "recheck": None, "checks": ["near copy of Player 3: kept after asking again"]}
    assert ask_again([], lambda: "note", reviewed=True) == {"recheck": None, "checks": []}
    assert ask_again([], lambda: pytest.fail("no note without a problem"), reviewed=False) == {}


# ------------------------------------------------------------- settled


def test_avalon_votes_are_settled_as_lga_checked_them() -> None:
    state, requests = play_until(lambda s, rs: any(r.kind == "vote_team" for r in rs))
    merlin = next(r for r in requests if r.player == 6)
    table = AvalonTable(view=avalon.view(state, 6), request=merlin, context=LgaContext())
    settled = avalon_settled(table)
    assert settled == Settled("knowledge", "no_evil_seen", approve=True)
    update = settled_update(table.context, table.view, merlin, settled, {"choice": False}, "knowledge", False)
    assert update["action"] is None and update["checks"] == ["vote reject against knowledge (no_evil_seen): asked "
                                                             "again"]
    assert "no evil player you know is on this team" in update["recheck"]
    assert settled_update(table.context, table.view, merlin, settled, {"choice": False}, "off", False) == {}
    assert settled_update(table.context, table.view, merlin, settled, {"choice": True}, "knowledge", False) == {}


def test_a_good_players_vote_on_a_team_with_the_exposed_assassin_is_settled_by_the_exposure() -> None:
    # lan6 under assassination=after_each_quest, seed 1: the Assassin (Player 2) missed a mid-game shot after quest 1
    from avalon_exposed import assassin, position

    def settled(state, request, player, team):
        asked = request.model_copy(update={"player": player, "subject": team})
        return avalon_settled(AvalonTable(view=avalon.view(state, player), request=asked, context=LgaContext()))

    state, requests = position("vote_team")
    shot = assassin(state)
    servant = next(p for p in state.players if state.role_of(p) is avalon.Role.SERVANT)
    team = (servant, shot, 6)
    found = settled(state, requests[0], servant, team)
    assert found == Settled("knowledge", "evil_seen", approve=False, players=(shot,))
    update = settled_update(LgaContext(), avalon.view(state, servant), requests[0], found, {"choice": True},
                            "knowledge", False)
    assert update["checks"] == ["vote approve against knowledge (evil_seen): asked again"]
    assert f"you know Player {shot} is evil" in update["recheck"]
    # his teammate's knowledge is as before; a team without him is left to the record
    morgana = state.players_with(avalon.Role.MORGANA)[0]
    assert settled(state, requests[0], morgana, team) == Settled("knowledge", "side_on_team", approve=True,
                                                                 players=(shot,))
    # a team without him is left to the servant's own words on it ("I support players 1, 5 and 6."), then the record
    assert settled(state, requests[0], servant, (servant, 5, 6)) == Settled("words", "own_stance", approve=True)
    # with no shot taken the reveal alone settles nothing: the record's rule (no member on a failed quest) decides
    unexposed, unexposed_requests = position("vote_team", miss=False)
    assert settled(unexposed, unexposed_requests[0], servant, team) == Settled("record", "no_evidence", approve=True)


def test_a_werewolf_voting_out_its_teammate_is_against_its_knowledge() -> None:
    state, request = werewolf_request("eliminate", 6)
    view = werewolf.view(state, 6)
    settled = werewolf_settled(view, request, {})
    assert settled is not None and settled.avoid == (7,) and settled.reason == "teammate"  # not itself: off the ballot
    update = settled_update(Plain(), view, request, settled, {"players": [7]}, "knowledge", False)
    assert update["checks"] == ["eliminate player 7 against knowledge (teammate): asked again"]
    assert "Player 7 is of your side, the werewolves" in update["recheck"] and update["action"] is None
    assert settled_update(Plain(), view, request, settled, {"players": [4]}, "knowledge", False) == {}
    kept = settled_update(Plain(), view, request, settled, {"players": [7]}, "knowledge", True)
    assert kept["checks"] == ["eliminate player 7 against knowledge (teammate): kept after asking again"]


def test_the_second_werewolf_of_a_sequential_night_joins_its_teammates_kill() -> None:
    state, request = werewolf_request("kill", 7)  # the naive Player 6 voted first, for Player 3
    view = werewolf.view(state, 7)
    assert request.details["votes"] == [{"player": 6, "target": 3}] and teammate_target(view, request) == 3
    settled = werewolf_settled(view, request, {})
    assert settled == Settled("rules", "teammate_target", avoid=(6, 7), prefer=(3,), players=(3,))
    assert settled.against({"passed": True}) and settled.against({"players": [4]})
    assert settled.against({"players": [6]}) and not settled.against({"players": [3]})
    update = settled_update(Plain(), view, request, settled, {"passed": True}, "knowledge", False)
    assert update["checks"] == ["kill nobody against rules (teammate_target): asked again"]
    assert "no one is killed without a consensus. Vote to kill Player 3 too" in update["recheck"]
    overruled = settled_update(Plain(), view, request, settled, {"players": [4]}, "knowledge", False, overrule=True)
    assert overruled["action"] == {"players": [3]}
    assert "Your side voted to kill Player 3 tonight" in knowledge_note(Plain(), view, request, {})
    # the first werewolf heard no vote: any village player will do, the rule bot's pick first for an overrule
    first_state, first_request = werewolf_request("kill", 6)
    first_view = werewolf.view(first_state, 6)
    first = werewolf_settled(first_view, first_request, {})
    assert first is not None and first.reason == "kill_village" and first.avoid == (6, 7)
    assert set(first.prefer) == {1, 2, 3, 4, 5} and first.prefer[0] == naive.kill_target(first_view, first_request)
    assert first.against({"passed": True}) and first.against({"players": [7]}) and not first.against({"players": [2]})
    assert first.action(first_request, {"passed": True}) == {"players": [first.prefer[0]]}
    note = knowledge_note(Plain(), first_view, first_request, {})
    assert "Name a player of the village: a pass kills no one." in note
    # a teammate's pass or vote for a werewolf leaves nothing to join
    for target in (None, 6):
        heard = request.model_copy(update={"details": {"werewolves": [6, 7],
                                                       "votes": [{"player": 6, "target": target}]}})
        assert teammate_target(view, heard) is None
        assert "Your side voted" not in knowledge_note(Plain(), view, heard, {})


def test_words_are_checked_against_the_kill_vote_that_stands_after_an_overrule() -> None:
    state, request = werewolf_request("kill", 7)  # Player 6 voted for Player 3 before
    view = werewolf.view(state, 7)
    settled = werewolf_settled(view, request, {})
    options = CheckOptions(overrule=True)
    agreed = check(Answer(Plain(), view, request, options, action={"passed": True}, words="Let us kill Player 3.",
                          settled=settled, response_words=40, chose=True))
    assert agreed == {"action": {"players": [3]}, "checks": ["kill nobody against rules (teammate_target): overruled"]}
    other = check(Answer(Plain(), view, request, options, action={"passed": True}, words="Let us kill Player 1.",
                         settled=settled, response_words=40, chose=True))
    assert other["checks"] == ["kill nobody against rules (teammate_target): overruled",
                               "words name player 1 to kill, the vote names player 3: asked again"]


def test_the_seer_votes_for_a_werewolf_it_found_and_never_for_a_player_it_cleared() -> None:
    state, request = werewolf_request("eliminate", 1)
    view = werewolf.view(state, 1)
    checked = checked_of(record_checks({}, view.events, 1))
    assert checked == {5: False}  # the naive Seer checked Player 5 on night 1
    settled = werewolf_settled(view, request, checked)
    assert settled == Settled("knowledge", "checked_good", avoid=(5,), players=(5,))
    assert settled.against({"players": [5]}) and not settled.against({"players": [6]})
    found = werewolf_settled(view, request, {5: False, 6: True})
    assert found is not None and found.reason == "checked_werewolf"
    assert found.against({"players": [7]}) and found.against({"passed": True}) and not found.against({"players": [6]})
    assert "found a werewolf" in found.note(Plain(), request, {"players": [7]}, 1)


def test_overrule_replaces_a_werewolf_pick_against_what_is_settled_with_no_note() -> None:
    state, request = werewolf_request("eliminate", 6)
    view = werewolf.view(state, 6)
    teammate = werewolf_settled(view, request, {})
    assert teammate is not None
    update = settled_update(Plain(), view, request, teammate, {"players": [7]}, "knowledge", False, overrule=True)
    assert update == {"action": {"passed": True},
                      "checks": ["eliminate player 7 against knowledge (teammate): overruled"]}
    seer_state, seer_request = werewolf_request("eliminate", 1)
    found = werewolf_settled(werewolf.view(seer_state, 1), seer_request, {5: False, 6: True})
    assert found is not None and found.action(seer_request, {"players": [7]}) == {"players": [6]}
    assert settled_update(Plain(), view, request, teammate, {"players": [4]}, "knowledge", False, overrule=True) == {}


def test_the_witch_poisons_nobody_on_the_first_night() -> None:
    state, later = werewolf_request("poison", 2)  # xu7 seed 1: the Witch is first asked to poison on night 2
    view = werewolf.view(state, 2)
    assert later.round == 2 and werewolf_settled(view, later, {}) is None
    request = later.model_copy(update={"round": 1, "id": "d1.poison.p2"})  # the same ask on night 1
    settled = werewolf_settled(view, request, {})
    assert settled is not None and settled.reason == "first_night" and set(settled.avoid) == set(request.candidates)
    assert settled.against({"players": [4]}) and not settled.against({"passed": True})
    assert settled.action(request, {"players": [4]}) == {"passed": True}
    assert "first night" in settled.note(Plain(), request, {"players": [4]}, 2)


def test_nothing_is_settled_for_a_villager_or_in_talk() -> None:
    state, request = werewolf_request("eliminate", 4)
    assert werewolf_settled(werewolf.view(state, 4), request, {}) is None
    state, request = werewolf_request("speak", 6)
    assert werewolf_settled(werewolf.view(state, 6), request, {}) is None


def test_the_werewolf_knowledge_note_states_teammates_checks_and_the_dead() -> None:
    state, request = werewolf_request("eliminate", 6, day=2)
    view = werewolf.view(state, 6)
    note = knowledge_note(Plain(), view, request, {})
    assert "Player 7 is your fellow werewolf. Never name your teammate or yourself." in note
    assert f"Dead players ({', '.join(map(str, view.dead))})" in note
    state, request = werewolf_request("eliminate", 1)
    seer = knowledge_note(Plain(), werewolf.view(state, 1), request, {5: False})
    assert "You know from your own checks: Player 5 is not a werewolf." in seer and "never one you found good" in seer
    state, request = werewolf_request("speak", 4)
    assert knowledge_note(Plain(), werewolf.view(state, 4), request, {}) == ""


# ------------------------------------------------------------ options


def test_check_options_read_a_list_from_the_command_line_and_none_switches_all_off() -> None:
    assert CheckOptions(word_checks="copy|exposure").word_checks == ("copy", "exposure")
    assert CheckOptions(word_checks="none").word_checks == ()
    options = CheckOptions()
    assert options.word_checks == ALL and options.vote_check == "knowledge" and options.knowledge_note
    assert not options.uses_dry(), "an unresolved auto is off"
    assert CheckOptions(aids="on").uses_dry() and not CheckOptions(aids="off").uses_dry()


def test_dry_breaks_its_sequences_right_before_every_player_number() -> None:
    """Between a player's number and the breaker before it only a space is left, so a reply naming a player
    (however often that name was said before) is never penalized for the space before the number, which a 1.5B
    model escaped by writing "Player Player 5" (docs/measurements.md#dry-and-player-names)."""
    breakers = dict(DRY_SAMPLING)["dry_sequence_breakers"]
    allowed = dict(DRY_SAMPLING)["dry_allowed_length"]
    for said in ("I think Player 5's team is fine.", "I propose players 1 and 5.", "player 3 is evil",
                 "Player 2 votes to eliminate player 4."):
        # as a BPE tokenizer that splits digits (Qwen's) does: a word with its leading space, a digit alone
        tokens = re.findall(r" ?[A-Za-z']+|\d|[^\w\s]| ", said)
        for at, token in enumerate(tokens):
            if token.isdigit() and tokens[at - 1] == " ":
                # llama.cpp penalizes the space when the tokens before it since the last breaker (a token holding
                # one) repeat earlier ones over at least the allowed length
                last = max([i for i, t in enumerate(tokens[:at]) if any(b in t for b in breakers)], default=-1)
                assert len(tokens[last + 1:at - 1]) < allowed, (said, tokens[last + 1:at - 1])


def test_dry_goes_with_words_only_and_a_re_ask_after_a_copy_is_warmer() -> None:
    assert speech_sampling(CheckOptions(aids="on"), speaking=True) == DRY_SAMPLING
    assert speech_sampling(CheckOptions(aids="on"), speaking=False) == ()
    assert speech_sampling(CheckOptions(aids="on", dry=False), speaking=True) == ()
    assert speech_sampling(CheckOptions(aids="off"), speaking=True) == ()
    assert speech_temperature(0.1, again=True) == AGAIN_TEMPERATURE and speech_temperature(0.9, again=True) == 0.9
    assert speech_temperature(0.1, again=False) == 0.1


@pytest.mark.parametrize(("reply", "with_words", "thought"), [
    ("Thought: 2 lied.\nIt shows.\nChoice: 1, 3\nWords: I pick 1 and 3.", True, "2 lied. It shows."),
    ("Thought: 2 lied.\nI pick 1 and 3.", True, "2 lied."),  # no Words label: the other lines are the words
    ("I pick 1 and 3.", True, ""),  # no label at all: the reply is read as the words
    ("Thought: 2 lied.\nIt shows.\nChoice: approve", False, "2 lied. It shows."),
])
def test_the_reasoning_of_a_prose_reply_is_never_what_is_read_as_its_words(reply: str, with_words: bool,
                                                                            thought: str) -> None:
    assert prose_thought(reply, with_words) == thought
