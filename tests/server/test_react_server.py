"""The react agent under a real LangGraph API server (``langgraph dev``), driven with the Python SDK: its steps are
drawn inside the Avalon game graph, a breakpoint on a ``react`` step stops a game there with the agent's own state
(its reasoning, its minutes), and on the react graph itself an edited reasoning is what the parser then reads.
The react seat plays a fake OpenAI-compatible endpoint served by this test (prose only)."""

from __future__ import annotations

import re

import pytest
from fake_chat import chat_model_fixture

from roundtable.games import avalon

pytestmark = pytest.mark.server

BENCH5 = {"preset": "bench5"}
NAIVE = [{"kind": "naive"}] * 5
THOUGHT = "I think players 1 and 2 should go, and I approve."


AIDED = {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False}
"""A react seat on the aids' prompts (the fake endpoint answers their wording), their auto switches off."""

def _reply(body: dict) -> str:
    """The parser writes the players (or the word) of the answer it is shown; the other steps answer in prose."""
    user = str(body["messages"][-1]["content"])
    given = re.search(r'Answer given by Player \d+: "(.*)"', user)
    if given and "Does it choose" in user:
        word = re.search(r"\b(approve|reject|success|fail)\b", given[1])
        return f"Answer: {word[1] if word else 'none'}"
    if given:
        return "Answer: " + ", ".join(dict.fromkeys(re.findall(r"\b\d\b", given[1])))
    if "Task: the quest is over" in user:
        return "SERVER-SUMMARY of the quest."
    if "It is your turn to talk" in user:
        return "I trust players 1 and 2. Nobody else should go."
    return THOUGHT


fake_model = chat_model_fixture(_reply)


def test_the_react_steps_are_drawn_inside_the_game_graph(client):
    assistant = next(a for a in client.assistants.search(graph_id="avalon") if a["graph_id"] == "avalon")
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"], xray=True)["nodes"]}
    assert {f"react:{step}" for step in ("observe", "summarize", "think", "parse", "speak", "decide")} <= nodes
    context = client.assistants.get_schemas(assistant["assistant_id"])["context_schema"]
    react = context["properties"]["react"]
    react = context.get("$defs", {}).get(react["$ref"].rsplit("/", 1)[-1], react) if "$ref" in react else react
    field = react["properties"]["think_prompt"]
    assert field["langgraph_type"] == "prompt" and "react:think" in field["langgraph_nodes"]


def test_a_breakpoint_on_a_react_step_stops_the_game_there_with_the_agents_state(client, fake_model):
    tid = client.threads.create()["thread_id"]
    seats = [{"kind": "react", "model": fake_model, "options": AIDED}] + NAIVE[1:]
    client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": 7, "seats": seats},
                     context={"breakpoints": ["react:parse"]})
    state = client.threads.get_state(tid, subgraphs=True)
    (task,) = [t for t in state["tasks"] if t["interrupts"]]
    assert task["name"] == "react"
    assert task["interrupts"][0]["value"]["breakpoint"] == "react:parse"
    agent = task["state"]
    assert agent["next"] == ["parse"]
    values = agent["values"]
    assert values["request"]["player"] == 1 and values["request"]["answer"] in ("pick", "yes_no")
    assert values["thought"] == THOUGHT, "the reasoning the parser is about to read"
    assert [u["module"] for u in values["usage"]][-1] == "think"
    assert any(m["text"].startswith("Host: Quest 1 begins") for m in values["pool"]["minutes"]), "its minutes"
    assert "roles" not in str(values["view"]), "the agent holds a player's view, not the game state"
    out = client.runs.wait(tid, "avalon", command={"resume": True}, context={"breakpoints": []})
    assert out["result"]["winner"] in ("good", "evil")
    decisions = [e for e in out["events"] if e["type"] == "decision" and e["agent"] == "react"]
    assert {"think", "parse", "summarize"} <= {m for d in decisions for m in d["usage"].get("modules", {})}


def test_an_edited_reasoning_is_what_the_parser_reads(client, fake_model):
    state = avalon.new_game(avalon.AvalonConfig.build(preset="bench5", rules=["discussion=none"]), 1)
    (request,) = avalon.pending(state)
    task = {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": "react", "model": fake_model, "options": AIDED}, "seed": 3}
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, "react", input=task, interrupt_before=["parse"])
    assert client.threads.get_state(tid)["values"]["thought"] == THOUGHT
    client.threads.update_state(tid, {"thought": "On reflection, players 4 and 5 should go."}, as_node="think")
    out = client.runs.wait(tid, "react", input=None)
    decision = out["decisions"][request.id]
    assert decision["players"] == [4, 5] and decision["fallback"] is None
    assert "(parser) Answer: 4, 5" in decision["raw"]
