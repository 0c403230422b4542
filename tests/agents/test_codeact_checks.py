"""The cot and codeact agents' checks before they answer (their ``think`` step over
`roundtable.aids.answer_checks`), with scripted models: each check fires when it should and not
otherwise, what it found is in the decision's checks, and the decision's thoughts hold the reasoning."""

from __future__ import annotations

import json
from typing import Any

from lga_fakes import (
    LEADER_AGAIN,
    LEADER_OPENING,
    Script,
    ScriptedModels,
    final_word_request,
    first,
    play_until,
    speak_request,
    vote_request,
)

from roundtable.agents.codeact.graph import build_codeact_graph
from roundtable.agents.codeact.options import CotOptions
from roundtable.aids.sampling import AGAIN_TEMPERATURE, DRY_SAMPLING
from roundtable.aids.switch import embedded_values
from roundtable.games import avalon

OPENING = LEADER_OPENING  # Player 5 on players 1 and 5, quest 1 of lan6 seed 1 (lga_fakes)
FRESH = "Players 1 and 5 have done nothing wrong yet; I can back them."
FAKE_AIDED = {"overrule": False, "drop_sentences": False, "dry": False}
"""On the scripted model (``fake``) each ``auto`` aid switch was off before the one switch; on ``local`` the aids
were on (the paper-mode prompts: tests/agents/test_paper_prompts_codeact.py)."""


def think(thought: str, **fields: Any) -> str:
    return json.dumps({"thought": thought, **fields})


def decide(script: Script, state: avalon.AvalonState, request: avalon.Request, kind: str = "cot",
           model: str = "fake", context: dict[str, Any] | None = None, **options: Any) -> avalon.Decision:
    graph = build_codeact_graph(kind, ScriptedModels(script)).compile()
    out = graph.invoke({"view": avalon.view(state, request.player).model_dump(mode="json"),
                        "request": request.model_dump(mode="json"), "pool": {},
                        "seat": {"kind": kind, "model": model, "options": embedded_values(CotOptions) | {"aids": "on"}
                                    | (FAKE_AIDED if model == "fake" else {}) | options},
                        "seed": 5},
                       context=context)
    return avalon.Decision.model_validate(out["decisions"][request.id])


def test_a_near_copy_of_an_earlier_speaker_is_asked_again_warmer_and_the_second_words_kept() -> None:
    state, request = speak_request(6, OPENING)
    script = Script(replies={"think": [think("Back the team.", words=OPENING), think("Say why.", words=FRESH)]})
    decision = decide(script, state, request)
    assert script.modules() == ["think", "think"]
    first_call, again = script.calls
    assert "Player 5 already said almost exactly that" in again.prompt and "already said" not in first_call.prompt
    assert first_call.temperature == 0.7 and again.temperature == AGAIN_TEMPERATURE
    assert decision.utterance == FRESH and decision.checks == ("near copy of Player 5: asked again",)
    assert decision.thoughts == ("Back the team.", "Say why.")


def test_words_reading_out_the_reasoning_of_the_same_reply_are_asked_again() -> None:
    state, request = speak_request(6)
    reasoning = "Player 2 and Player 3 are the evil ones I see, so I must steer the team away from them."
    script = Script(replies={"think": [think(reasoning, words=reasoning), think("Hint only.", words=FRESH)]})
    decision = decide(script, state, request)
    assert "private thoughts read out" in script.calls[1].prompt
    assert decision.checks[0] == "near copy of own thoughts: asked again"


def test_fresh_words_are_said_at_once_and_dry_goes_with_them_on_the_embedded_model() -> None:
    state, request = speak_request(6)
    script = Script(replies={"think": think("Back the team.", words=FRESH)})
    decision = decide(script, state, request, model="local")
    assert script.modules() == ["think"] and decision.checks == () and decision.utterance == FRESH
    assert script.calls[0].sampling == dict(DRY_SAMPLING)
    off = Script(replies={"think": think("Back the team.", words=OPENING)})
    decision = decide(off, state, request, model="local", dry=False, word_checks="none")
    assert off.modules() == ["think"] and decision.utterance == OPENING and off.calls[0].sampling == {}


def test_merlin_rejecting_a_team_with_no_evil_player_he_sees_is_asked_again() -> None:
    state, request = vote_request(6)
    script = Script(replies={"think": [think("Reject to be safe.", answer="reject"),
                                       think("No evil on it.", answer="approve")]})
    decision = decide(script, state, request)
    assert "no evil player you know is on this team" in script.calls[1].prompt
    assert decision.choice is True
    assert decision.checks == ("vote reject against knowledge (no_evil_seen): asked again",)
    assert decision.thoughts == ("Reject to be safe.", "No evil on it.")


def test_a_servants_vote_against_the_stance_his_words_stated_is_asked_again() -> None:
    state, request = vote_request(1)  # a Servant, who said "I support players 1 and 5."
    script = Script(replies={"think": [think("Unsure.", answer="reject"), think("As I said.", answer="approve")]})
    decision = decide(script, state, request)
    assert "you told everyone that you support this team" in script.calls[1].prompt
    assert decision.choice is True and decision.checks == ("vote reject against words (own_stance): asked again",)


def test_a_vote_the_players_knowledge_settles_nothing_about_and_a_switched_off_check_are_cast_at_once() -> None:
    state, request = vote_request(5)  # Percival (Merlin or Morgana: 3 or 6), who named the team without a stance
    script = Script(replies={"think": think("Unsure.", answer="reject")})
    assert decide(script, state, request).checks == () and script.modules() == ["think"]
    state, request = vote_request(6)
    script = Script(replies={"think": think("Reject to be safe.", answer="reject")})
    decision = decide(script, state, request, vote_check="off")
    assert script.modules() == ["think"] and decision.choice is False and decision.checks == ()


def test_a_codeact_leaders_words_naming_another_team_are_asked_again_with_the_programs_team_kept() -> None:
    state, requests = play_until(first("propose_team"))
    leader = requests[0]
    script = Script(replies={"write": "```python\nprint([1, 2])\n```",
                             "think": [think("Go.", words="My team: players 3 and 4."),
                                       think("Name it.", words="My team: players 1 and 2.")]})
    decision = decide(script, state, leader, kind="codeact")
    assert script.modules() == ["write", "think", "think"]
    again = script.calls[2].prompt
    assert "You have decided to propose players 1, 2." in again
    assert "your words name players 3, 4 but you chose players 1, 2" in again
    assert decision.players == (1, 2) and decision.utterance == "My team: players 1 and 2."
    assert decision.checks == ("program 1: team 1, 2", "words name players 3, 4, team is 1, 2: asked again")


def test_an_evil_player_giving_itself_away_keeps_its_second_slip_and_the_record_says_so() -> None:
    state, request = speak_request(3)  # Morgana
    script = Script(replies={"think": think("Hm.", words="As Morgana I will make them fail.")})
    decision = decide(script, state, request)
    assert script.modules() == ["think", "think"]
    assert "would tell everyone you are evil" in script.calls[1].prompt
    assert decision.checks == ("words expose the speaker (evil side): asked again",
                               "words expose the speaker (evil side): kept after asking again")


def test_a_react_leaders_thoughts_are_its_decisions_thoughts_and_a_program_is_not() -> None:
    state, requests = play_until(first("propose_team"))
    leader = requests[0]
    script = Script(replies={"react": "Thought: 1 and 2 were on no failed quest.\nAction: Finish[1, 2]",
                             "think": think("Say the team.", words="My team: players 1 and 2.")})
    decision = decide(script, state, leader, kind="codeact", leader="react")
    assert decision.thoughts == ("1 and 2 were on no failed quest.", "Say the team.")
    coded = Script(replies={"write": "```python\nprint([1, 2])\n```",
                            "think": think("Say the team.", words="My team: players 1 and 2.")})
    assert decide(coded, state, leader, kind="codeact").thoughts == ("Say the team.",)


def test_the_hosts_note_is_a_prompt_of_the_context_an_edit_reaches_the_re_ask() -> None:
    state, request = speak_request(6, OPENING)
    script = Script(replies={"think": [think("Back the team.", words=OPENING), think("Say why.", words=FRESH)]})
    decide(script, state, request, context={"review_note_prompt": "Host: EDITED NOTE ({{ copied }})."})
    assert "Host: EDITED NOTE (Player 5)." in script.calls[1].prompt


def test_a_leaders_final_word_copying_its_own_first_words_is_said_anew_on_the_embedded_model() -> None:
    state, leader = final_word_request()
    script = Script(replies={"think": think("Keep it.", players=[1, 5], words=LEADER_AGAIN)})
    decision = decide(script, state, leader, model="local")
    assert script.modules() == ["think"], "no second call"
    assert decision.players == (1, 5) and decision.utterance == "My team for quest 1 stays: players 1 and 5."
    assert decision.checks == ("near copy of Player 5: restated",)


def test_the_final_words_template_is_a_prompt_of_the_context_an_edit_reaches_the_table() -> None:
    state, leader = final_word_request()
    script = Script(replies={"think": think("Keep it.", players=[1, 5], words=LEADER_AGAIN)})
    decision = decide(script, state, leader, model="local",
                      context={"team_words_prompt": "Still players {{ players | join(' and ') }}."})
    assert decision.utterance == "Still players 1 and 5." and decision.checks == ("near copy of Player 5: restated",)
