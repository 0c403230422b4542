"""The cga agent graph under a real LangGraph API server (``langgraph dev``), driven with the Python SDK: it is drawn
with one node per module, stops before the chain-of-thought answer with the questions, answers and reflection in
its state, and an edited reflection is what the answer's prompt then carries; with the aids on it stops at the aids
step after the answer, and words edited there are checked and said."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fake_chat import ChatServer

from roundtable.games import avalon

pytestmark = pytest.mark.server


def _reply(body: dict) -> str:
    user = str(body["messages"][-1]["content"])
    if "Task: Choose questions" in user:
        return "Chosen: 2\nOwn: Who leads next?"
    if "Task: Reflect" in user:
        return "As the Merlin, I observed that SERVER-REFLECTION."
    if "Task: Answer the question" in user:
        return "I do not know yet."
    return "Thought: fine.\nChoice: 1, 2\nWords: I propose players 1 and 2."


@pytest.fixture(scope="module")
def fake_model() -> Iterator[ChatServer]:
    server = ChatServer(_reply)
    yield server
    server.close()


AIDED = {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False, "refresh": "action",
         "merge_answers": False}
"""The aids' prompts, which the fake endpoint answers (docs/agents/aids.md), their auto switches as a fake model had
them before the one switch."""


def leader_input(model: str) -> dict:
    state = avalon.new_game(avalon.AvalonConfig.build(preset="bench5", rules=["discussion=none"]), 1)
    (request,) = avalon.pending(state)
    return {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": "cga", "model": model, "options": {"questions": 1, "own_questions": 1, **AIDED}},
            "seed": 3}


def test_the_cga_graph_is_drawn_stops_before_think_and_an_edited_reflection_is_used(client, fake_model):
    assistant = next(a for a in client.assistants.search(graph_id="cga"))
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]}
    assert {"observe", "freshness", "informativeness", "questions", "retrieve", "answer", "reflect", "suggest",
            "think", "decide"} <= nodes
    tid = client.threads.create()["thread_id"]
    task = leader_input(fake_model.spec)
    client.runs.wait(tid, "cga", input=task, interrupt_before=["think"])
    state = client.threads.get_state(tid)
    assert state["next"] == ["think"]
    values = state["values"]
    assert values["questions"][-1] == "Who leads next?" and len(values["answers"]) == len(values["questions"])
    assert len(values["retrieved"]) == len(values["questions"]) and values["recent"]
    assert values["reflection"].endswith("SERVER-REFLECTION.")
    client.threads.update_state(tid, {"reflection": "As Merlin, I observed that EDITED-REFLECTION."}, as_node="reflect")
    out = client.runs.wait(tid, "cga", input=None)
    decision = out["decisions"][task["request"]["id"]]
    assert decision["players"] == [1, 2] and decision["fallback"] is None
    think = str(fake_model.requests[-1]["messages"][-1]["content"])
    assert "EDITED-REFLECTION" in think and "SERVER-REFLECTION" not in think


def test_the_aids_step_is_drawn_stops_after_think_and_an_edited_answer_is_checked_and_given(client, fake_model):
    """With the aids on, Studio stops between ``think``'s answer and its check (docs/agents/aids.md#the-aids-step):
    the answer waits ``unchecked``; words edited there are what the check reads and the decision says."""
    assistant = next(a for a in client.assistants.search(graph_id="cga"))
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]}
    assert "aids" in nodes
    state = avalon.new_game(avalon.AvalonConfig.build(preset="bench5"), 1)
    (request,) = avalon.pending(state)
    assert request.kind == "propose_team" and request.wants_words
    task = {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": "cga", "model": fake_model.spec, "options": {"questions": 1, "own_questions": 1, **AIDED}},
            "seed": 3}
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, "cga", input=task, interrupt_before=["aids"])
    paused = client.threads.get_state(tid)
    assert paused["next"] == ["aids"]
    assert paused["values"]["unchecked"] == "think" and paused["values"]["chose"] is True
    assert paused["values"]["utterance"] == "I propose players 1 and 2."
    client.threads.update_state(tid, {"utterance": "EDITED: players 1 and 2 go on the quest."}, as_node="think")
    out = client.runs.wait(tid, "cga", input=None)
    decision = out["decisions"][request.id]
    assert decision["players"] == [1, 2] and decision["utterance"] == "EDITED: players 1 and 2 go on the quest."
    assert client.threads.get_state(tid)["values"]["checked_after"] == "think"
