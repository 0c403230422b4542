"""The react agent's checks before it answers (its ``speak`` and ``parse`` steps over the shared checks), with
scripted models: each check fires when it should and not otherwise, what it found is in the decision's checks, and
the decision's thoughts hold the summary and the reasoning."""

from __future__ import annotations

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

from roundtable.agents.react.graph import build_react_graph
from roundtable.agents.react.options import ReactOptions
from roundtable.aids.sampling import AGAIN_TEMPERATURE, DRY_SAMPLING
from roundtable.aids.switch import embedded_values
from roundtable.games import avalon

OPENING = LEADER_OPENING  # Player 5 on players 1 and 5, quest 1 of lan6 seed 1 (lga_fakes)
FRESH = "Players 1 and 5 have done nothing wrong yet, so I can back them."
FAKE_AIDED = {"overrule": False, "drop_sentences": False, "dry": False}
"""On the scripted model (``fake``) each ``auto`` aid switch was off before the one switch; on ``local`` the aids
were on (the paper-mode prompts: tests/agents/test_paper_prompts_react.py)."""



def model_steps(nodes: list[str]) -> list[str]:
    """The steps a turn took but the aids' (which runs after each answer while a check is on: test_the_aids_step_*)."""
    return [node for node in nodes if node != "aids"]


def decide(script: Script, state: avalon.AvalonState, request: avalon.Request, model: str = "fake",
           pool: dict[str, Any] | None = None, **options: Any) -> tuple[avalon.Decision, list[str]]:
    """One decision: ``(Decision, the nodes that ran)``."""
    graph = build_react_graph(ScriptedModels(script, json=False)).compile()
    task = {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": dict(pool or {}),
            "seat": {"kind": "react", "model": model, "options": embedded_values(ReactOptions) | {"aids": "on"}
                     | (FAKE_AIDED if model == "fake" else {}) | options}, "seed": 5}
    nodes: list[str] = []
    values: dict[str, Any] = {}
    for mode, chunk in graph.stream(task, stream_mode=["updates", "values"]):
        if mode == "updates":
            nodes += list(chunk)
        else:
            values = chunk
    return avalon.Decision.model_validate(values["decisions"][request.id]), nodes


def test_a_sentence_copying_an_earlier_speaker_is_asked_again_warmer_and_the_second_kept() -> None:
    state, request = speak_request(6, OPENING)
    script = Script(replies={"speak": [OPENING, FRESH]})
    decision, nodes = decide(script, state, request)
    assert model_steps(nodes) == ["observe", "speak", "speak", "decide"]
    first_call, again = script.calls
    assert "Player 5 already said almost exactly that" in again.prompt and "already said" not in first_call.prompt
    assert first_call.temperature == 0.1 and again.temperature == AGAIN_TEMPERATURE
    assert decision.utterance == FRESH and decision.checks == ("near copy of Player 5: asked again",)


def test_a_fresh_sentence_is_said_at_once_dry_sampled_on_the_embedded_model() -> None:
    state, request = speak_request(6)
    script = Script(replies={"speak": FRESH})
    decision, nodes = decide(script, state, request, model="local")
    assert model_steps(nodes) == ["observe", "speak", "decide"] and decision.checks == ()
    assert script.calls[0].sampling == dict(DRY_SAMPLING)


def test_with_its_checks_and_dry_off_the_copy_is_said() -> None:
    state, request = speak_request(6)
    script = Script(replies={"speak": OPENING})
    decision, nodes = decide(script, state, request, model="local", word_checks="none", dry=False)
    assert model_steps(nodes) == ["observe", "speak", "decide"] and decision.utterance == OPENING
    assert script.calls[0].sampling == {}


def test_a_leaders_sentence_reading_out_its_reasoning_is_asked_again_and_both_are_its_thoughts() -> None:
    state, requests = play_until(first("propose_team"))
    leader = requests[0]
    reasoning = "Player 1 and Player 5 were on no failed quest, so I propose players 1 and 5 for this quest."
    script = Script(replies={"think": reasoning, "parse": "Answer: 1, 5",
                             "speak": [reasoning, "Players 1 and 5 it is."]})
    decision, nodes = decide(script, state, leader)
    assert model_steps(nodes) == ["observe", "think", "parse", "speak", "speak", "decide"]
    assert "private thoughts read out" in script.calls[-1].prompt
    assert "You have decided to propose players 1, 5." in script.calls[-1].prompt
    assert decision.players == (1, 5) and decision.utterance == "Players 1 and 5 it is."
    assert decision.checks == ("near copy of own thoughts: asked again",)
    assert decision.thoughts == (reasoning,)


def test_merlin_rejecting_a_team_with_no_evil_player_he_sees_thinks_again_and_the_second_vote_is_kept() -> None:
    state, request = vote_request(6)
    script = Script(replies={"think": ["I reject to be safe.", "No evil player is on it: I approve."],
                             "parse": ["Answer: reject", "Answer: approve"]})
    decision, nodes = decide(script, state, request)
    assert model_steps(nodes) == ["observe", "think", "parse", "think", "parse", "decide"]
    again = script.calls[2].prompt
    assert "Your last answer: I reject to be safe." in again
    assert "no evil player you know is on this team" in again
    assert decision.choice is True
    assert decision.checks == ("vote reject against knowledge (no_evil_seen): asked again",)
    assert decision.thoughts == ("I reject to be safe.", "No evil player is on it: I approve.")


def test_a_servants_vote_against_the_stance_his_words_stated_thinks_again() -> None:
    state, request = vote_request(1)  # a Servant, who said "I support players 1 and 5."
    script = Script(replies={"think": ["I reject.", "As I said, I approve."],
                             "parse": ["Answer: reject", "Answer: approve"]})
    decision, nodes = decide(script, state, request)
    assert model_steps(nodes) == ["observe", "think", "parse", "think", "parse", "decide"]
    assert "you told everyone that you support this team" in script.calls[2].prompt
    assert decision.choice is True and decision.checks == ("vote reject against words (own_stance): asked again",)


def test_a_vote_its_knowledge_does_not_settle_or_with_the_check_off_is_cast_at_once() -> None:
    state, request = vote_request(5)  # Percival (Merlin or Morgana: 3 or 6), who named the team without a stance
    script = Script(replies={"think": "I reject.", "parse": "Answer: reject"})
    decision, nodes = decide(script, state, request)
    assert model_steps(nodes) == ["observe", "think", "parse", "decide"] and decision.checks == ()
    state, request = vote_request(6)
    script = Script(replies={"think": "I reject.", "parse": "Answer: reject"})
    decision, nodes = decide(script, state, request, vote_check="off")
    assert model_steps(nodes) == ["observe", "think", "parse", "decide"] and decision.choice is False


def test_the_summary_its_prompts_show_is_among_its_thoughts() -> None:
    state, request = vote_request(1)
    script = Script(replies={"think": "I approve.", "parse": "Answer: approve"})
    pool = {"summary": "Nothing has happened yet.", "summary_round": 0}
    decision, _ = decide(script, state, request, pool=pool)
    assert decision.thoughts == ("Nothing has happened yet.", "I approve.")


def test_the_sentence_is_asked_of_the_speaker_by_number_in_the_first_person() -> None:
    # On the embedded model react's sentence often went on with the minutes as the Host ("Host: Player 2 proposes
    # ...") and was dropped for a fallback; naming the speaker in the ask is what stopped it
    # (docs/measurements.md#react-games).
    state, request = speak_request(6)
    script = Script(replies={"speak": FRESH})
    decide(script, state, request)
    assert 'as Player 6 in the first person ("I ..."): not the Host\'s lines' in script.calls[0].prompt


def test_the_reasoning_is_dry_sampled_on_the_embedded_model_and_ends_with_the_answers_form() -> None:
    # On the embedded model react's reasoning looped ("I am also aware that ...") past its cap and left the parser
    # no vote; told nothing of the answer's form, it wrote a general plan and named no team.
    state, request = vote_request(6)
    script = Script(replies={"think": "Players 1 and 5 are clean.\nAnswer: approve", "parse": "Answer: approve"})
    decide(script, state, request, model="local")
    think = script.calls[0]
    assert think.module == "think" and think.sampling == dict(DRY_SAMPLING)
    assert think.prompt.rstrip().endswith("Answer: approve or reject")
    script = Script(replies={"think": "approve", "parse": "Answer: approve"})
    decide(script, state, request, model="local", dry=False)
    assert script.calls[0].sampling == {}


def test_a_host_line_after_the_sentence_is_cut_with_the_rest_and_is_no_fallback() -> None:
    # pq-react-bench5-s1: "I support the team. ... \n\nHost: Player 2, speak about the next proposal: ..."
    state, request = speak_request(6)
    after = f"{FRESH}\n\nHost: Player 1, speak about the next proposal: players 1, 4, 5."
    decision, _ = decide(Script(replies={"speak": after}), state, request)
    assert decision.utterance == FRESH and decision.fallback is None and decision.raw == after
    before = f"Host: Player 1, speak about the next proposal.\n{FRESH}"  # the Host's line first: a fallback
    decision, _ = decide(Script(replies={"speak": before}), state, request)
    assert decision.utterance == FRESH
    assert decision.fallback == "1 passage(s) posing as the host or another player removed"


def test_a_leaders_final_word_copying_its_own_first_words_is_said_anew_on_the_embedded_model() -> None:
    state, leader = final_word_request()
    script = Script(replies={"think": "They did nothing wrong.", "parse": "Answer: 1, 5", "speak": LEADER_AGAIN})
    decision, nodes = decide(script, state, leader, model="local")
    assert model_steps(nodes) == ["observe", "think", "parse", "speak", "decide"], "no second call"
    assert decision.players == (1, 5) and decision.utterance == "My team for quest 1 stays: players 1 and 5."
    assert decision.checks == ("near copy of Player 5: restated",)


def test_the_aids_step_checks_each_answer_and_sentence_while_a_check_is_on():
    state, request = vote_request(6)
    script = Script(replies={"think": ["I reject to be safe.", "I approve."],
                             "parse": ["Answer: reject", "Answer: approve"]})
    _, nodes = decide(script, state, request)
    assert nodes == ["observe", "think", "parse", "aids", "think", "parse", "aids", "decide"]
    state, request = speak_request(6, OPENING)
    _, nodes = decide(Script(replies={"speak": FRESH}), state, request)
    assert nodes == ["observe", "speak", "aids", "decide"]
    _, nodes = decide(Script(replies={"speak": OPENING}), state, request, model="gpt-4o",
                      **{"aids": "off", "word_checks": "none", "vote_check": "off"})
    assert nodes == ["observe", "speak", "decide"], "with no check on, the graph goes past the aids step"
