"""A human seat under a real LangGraph API server (``langgraph dev``), answered with the Python SDK as
Studio or any client answers it: the run pauses with the player's question as an interrupt, an illegal
answer is asked again with the reason, and ``Command(resume=...)`` payloads play the game to its end."""

from __future__ import annotations

import pytest

from roundtable.agents.human import example_answer
from roundtable.games.protocol import Request

pytestmark = pytest.mark.server

SEATS = [{"kind": "naive"}, {"kind": "human"}, {"kind": "naive"}, {"kind": "naive"}, {"kind": "naive"}]


def questions(client, thread_id: str) -> list[dict]:
    state = client.threads.get_state(thread_id)
    return [i for task in state["tasks"] for i in task.get("interrupts") or []]


def test_a_human_seat_is_answered_through_the_sdk(client):
    thread = client.threads.create()["thread_id"]
    client.runs.wait(thread, "avalon", input={"config": {"preset": "bench5"}, "seed": 9, "seats": SEATS})
    (first,) = questions(client, thread)
    payload = first["value"]
    assert payload["type"] == "human" and payload["player"] == 2 and payload["narration"]
    request = Request.model_validate(payload["request"])
    wrong = {"choice": "maybe"} if request.answer == "yes_no" else {"players": [42]} if request.answer == "pick" else {}
    client.runs.wait(thread, "avalon", command={"resume": wrong})
    (again,) = questions(client, thread)
    assert again["value"]["request"]["id"] == request.id and again["value"]["error"]
    asked = 1
    while pending := questions(client, thread):
        (question,) = pending
        asked += 1
        client.runs.wait(thread, "avalon", command={
            "resume": example_answer(Request.model_validate(question["value"]["request"]))})
    values = client.threads.get_state(thread)["values"]
    assert values["result"]["winner"] in ("good", "evil") and asked > 3
    assert any(e["type"] == "decision" and e["agent"] == "human" for e in values["events"])
