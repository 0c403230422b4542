"""The lga agent's check of its own words (near copy, words and team, self-exposure), with scripted models."""

from __future__ import annotations

import json

from lga_fakes import (
    LEADER_AGAIN,
    LEADER_OPENING,
    Script,
    ScriptedModels,
    decide,
    final_word_request,
    first,
    play_until,
)

from roundtable.agents.lga.calls import AGAIN_TEMPERATURE, DRY_SAMPLING
from roundtable.agents.lga.graph import build_lga_graph
from roundtable.games import avalon

# lan6, seed 1: 1 Servant, 2 Assassin, 3 Morgana, 4 Servant, 5 Percival, 6 Merlin; Player 5 leads quest 1 and
# opens the talk with `OPENING` (in place of the naive bot's "I propose players 1 and 5.", a bare move that is no copy).
OPENING = LEADER_OPENING


def speak_of(player: int) -> tuple[avalon.AvalonState, avalon.Request]:
    state, requests = play_until(lambda s, rs: any(r.kind == "speak" and r.player == player for r in rs),
                                 opening=OPENING)
    return state, next(r for r in requests if r.player == player)


def run(script: Script, state: avalon.AvalonState, request: avalon.Request, **options) -> avalon.Decision:
    graph = build_lga_graph(ScriptedModels(script)).compile()
    decision, _ = decide(graph, state, request, options={"no_analysis": True, "no_plan": True} | options)
    return decision


def test_a_near_copy_of_an_earlier_speaker_is_asked_for_again_with_a_note() -> None:
    state, request = speak_of(6)
    script = Script(replies={"respond": [OPENING, "Players 1 and 5 have done nothing wrong yet; I can back them."]})
    decision = run(script, state, request)
    assert script.modules() == ["respond", "respond"]
    assert "Player 5 already said almost exactly that" in script.calls[1].prompt
    assert "already said" not in script.calls[0].prompt
    assert decision.utterance.startswith("Players 1 and 5 have done nothing wrong")
    assert decision.checks == ("near copy of Player 5: asked again",)
    assert decision.usage["calls"] == 2


def test_a_copy_followed_by_a_made_up_host_line_is_judged_on_what_the_table_would_hear() -> None:
    state, request = speak_of(6)
    copy_and_more = (OPENING + "\n\nHost: Player 6, speak about Player 5's team: players 1, 5. Say whether you support "
                     "it and why, and tell everyone at this table what you really think of each player here.")
    script = Script(replies={"respond": [copy_and_more, "Players 1 and 5 have done nothing wrong yet."]})
    decision = run(script, state, request)
    assert script.modules() == ["respond", "respond"]
    assert decision.checks == ("near copy of Player 5: asked again",)


def test_own_words_are_not_a_copy_of_someone_else() -> None:
    state, request = speak_of(6)
    script = Script(replies={"respond": "Players 1 and 5 have done nothing wrong yet; I can back them."})
    decision = run(script, state, request)
    assert script.modules() == ["respond"]
    assert decision.checks == () and decision.fallback is None


def test_a_second_copy_is_kept_and_recorded_as_kept() -> None:
    state, request = speak_of(6)
    script = Script(replies={"respond": OPENING})
    decision = run(script, state, request)
    assert script.modules() == ["respond", "respond"]  # one re-ask, never more
    assert decision.utterance == OPENING
    assert decision.checks == ("near copy of Player 5: asked again", "near copy of Player 5: kept after asking again")


def test_words_asked_again_after_a_copy_are_sampled_hotter_with_the_same_dry_penalty() -> None:
    state, request = speak_of(6)
    script = Script(replies={"respond": [OPENING, "Players 1 and 5 have done nothing wrong yet."]})
    run(script, state, request, dry=True)
    first, again = script.calls
    assert first.sampling == dict(DRY_SAMPLING) and first.temperature == 0.3
    assert again.sampling == dict(DRY_SAMPLING) and again.temperature == AGAIN_TEMPERATURE


def test_words_asked_again_for_another_reason_keep_the_usual_sampling() -> None:
    state, requests = play_until(first("propose_team"))
    mismatch = json.dumps({"reason": "I leave out 3 to 6.", "players": [1, 2], "words": "My team: players 3 and 4."})
    script = Script(replies={"act": mismatch, "respond": "My team: players 1 and 2."})
    run(script, state, requests[0], dry=True)
    assert [c.sampling for c in script.calls] == [dict(DRY_SAMPLING)] * 2
    assert {c.temperature for c in script.calls} == {0.3}


def test_a_leader_whose_words_name_another_team_is_asked_again_for_words_in_line_with_the_team() -> None:
    state, requests = play_until(first("propose_team"))
    leader = requests[0]
    mismatch = json.dumps({"reason": "I leave out 3 to 6.", "players": [1, 2], "words": "My team: players 3 and 4."})
    script = Script(replies={"act": mismatch, "respond": "My team: players 1 and 2."})
    decision = run(script, state, leader)
    assert script.modules() == ["act", "respond"]  # the team is kept; only the words are asked for again
    assert "your words name players 3, 4 but you chose players 1, 2" in script.calls[1].prompt
    assert "You decided: propose players 1, 2." in script.calls[1].prompt
    assert decision.players == (1, 2) and decision.utterance == "My team: players 1 and 2."
    assert decision.checks == ("words name players 3, 4, team is 1, 2: asked again",)


def test_words_naming_the_chosen_team_in_another_order_pass() -> None:
    state, requests = play_until(first("propose_team"))
    script = Script(replies={"act": json.dumps({"reason": "I leave out 3 to 6.", "players": [1, 2],
                                                "words": "Players 2 and 1, please."})})
    decision = run(script, state, requests[0])
    assert script.modules() == ["act"] and decision.checks == ()


def test_an_evil_player_giving_itself_away_in_public_is_asked_again() -> None:
    state, request = speak_of(3)  # Morgana
    script = Script(replies={"respond": ["As Morgana I will make them fail.", "Player 1 seems honest to me."]})
    decision = run(script, state, request)
    assert "would tell everyone you are evil" in script.calls[1].prompt
    assert decision.utterance == "Player 1 seems honest to me."
    assert decision.checks == ("words expose the speaker (evil side): asked again",)


def test_the_evil_council_may_speak_freely() -> None:
    state, requests = play_until(lambda s, rs: any(r.kind == "speak" and r.audience for r in rs))
    request = next(r for r in requests if r.audience)
    script = Script(replies={"respond": "We are evil and we must fail the quest; Player 6 is Merlin."})
    decision = run(script, state, request)
    assert script.modules().count("respond") == 1 and decision.checks == ()


def test_a_leader_whose_second_words_still_name_another_team_keeps_its_team_and_the_record_says_so() -> None:
    state, requests = play_until(first("propose_team"))
    mismatch = json.dumps({"reason": "I leave out 3 to 6.", "players": [1, 2], "words": "My team: players 3 and 4."})
    script = Script(replies={"act": mismatch, "respond": "My team: players 3 and 4."})
    decision = run(script, state, requests[0])
    assert script.modules() == ["act", "respond"]
    assert decision.players == (1, 2)
    assert decision.checks == ("words name players 3, 4, team is 1, 2: asked again",
                               "words name players 3, 4, team is 1, 2: kept after asking again")


def test_words_that_read_out_the_players_own_analysis_are_asked_again_and_the_notes_are_its_thoughts() -> None:
    state, request = speak_of(6)
    analysis = "Player 2 and Player 3 seem evil to me; Player 1 and Player 5 look loyal so far."
    script = Script(replies={"analyze": analysis,
                             "respond": [analysis, "Players 1 and 5 have done nothing wrong yet; I can back them."]})
    decision = run(script, state, request, no_analysis=False)
    assert script.modules() == ["analyze", "respond", "respond"]
    assert "private thoughts read out" in script.calls[2].prompt
    assert decision.checks == ("near copy of own thoughts: asked again",)
    assert decision.utterance.startswith("Players 1 and 5")
    assert decision.thoughts == (analysis,)


def test_a_seat_with_the_words_checks_off_says_the_copy() -> None:
    state, request = speak_of(6)
    script = Script(replies={"respond": OPENING})
    decision = run(script, state, request, word_checks="none")
    assert script.modules() == ["respond"] and decision.utterance == OPENING and decision.checks == ()


def test_a_leaders_final_word_copying_its_own_first_words_is_asked_again_or_said_anew_on_the_embedded_model() -> None:
    state, request = final_word_request()
    same = json.dumps({"reason": "They did nothing wrong.", "players": [1, 5], "words": LEADER_AGAIN})
    script = Script(replies={"act": same, "respond": "Players 1 and 5 stay my team."})
    decision = run(script, state, request)
    assert script.modules() == ["act", "respond"] and decision.checks == ("near copy of Player 5: asked again",)
    script = Script(replies={"act": same})
    decision = run(script, state, request, drop_sentences=True)
    assert script.modules() == ["act"], "no second call"
    assert decision.utterance == "My team for quest 1 stays: players 1 and 5." and decision.players == (1, 5)
    assert decision.checks == ("near copy of Player 5: restated",) and decision.fallback is None
