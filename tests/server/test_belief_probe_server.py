"""The belief probe under a real LangGraph API server (``langgraph dev``), driven with the Python SDK: the
``belief_probe`` node and each kind's ``believe`` step are drawn, a breakpoint on ``react:believe`` stops the
finished game inside the probe with the agent's own state (the probe request, a view without the roles), the
game resumes to its recorded beliefs, and a run's context switches the probe off. The react seat plays a fake
OpenAI-compatible endpoint served by this test."""

from __future__ import annotations

import re

import pytest
from fake_chat import chat_model_fixture

from roundtable.games import avalon

pytestmark = pytest.mark.server

BENCH5 = {"preset": "bench5", "rules": {"discussion": "none"}}


AIDED = {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False}
"""A react seat on the aids' prompts (the fake endpoint answers their wording), their auto switches off."""

def _reply(body: dict) -> str:
    """The probe's parser gives player q the probability q/10; every other call approves players 1 and 2."""
    user = str(body["messages"][-1]["content"])
    asked = re.search(r"for each of players ([\d, ]+)", user)
    if asked:
        return "\n".join(f"Player {q}: {int(q) / 10}" for q in re.findall(r"\d+", asked[1]))
    if "no role has been revealed" in user:
        return "Players 1 and 2 were on the good quests; the rest failed them."
    given = re.search(r'Answer given by Player \d+: "(.*)"', user)
    if given and "Does it choose" in user:
        return "Answer: approve"
    return "Answer: 1, 2" if given else "I think players 1 and 2 should go, and I approve."


fake_model = chat_model_fixture(_reply)


def _seed_with_good_first_seat() -> int:
    config = avalon.AvalonConfig.build(preset="bench5", rules=["discussion=none"])
    return next(s for s in range(1, 50) if avalon.new_game(config, s).roles[0].side.value == "good")


def test_the_probe_node_and_each_kinds_believe_step_are_drawn(client):
    assistant = next(a for a in client.assistants.search(graph_id="avalon") if a["graph_id"] == "avalon")
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"], xray=True)["nodes"]}
    assert "belief_probe" in nodes
    assert {f"{kind}:believe" for kind in ("lga", "react", "cga", "cot", "codeact")} <= nodes
    context = client.assistants.get_schemas(assistant["assistant_id"])["context_schema"]
    assert context["properties"]["belief_probe"]["default"] is True


def test_a_breakpoint_in_the_probe_stops_the_finished_game_there_and_it_resumes_to_the_beliefs(client, fake_model):
    seed = _seed_with_good_first_seat()
    seats = [{"kind": "react", "model": fake_model, "options": AIDED}] + [{"kind": "naive"}] * 4
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": seed, "seats": seats},
                     context={"breakpoints": ["react:believe"]})
    state = client.threads.get_state(tid, subgraphs=True)
    (task,) = [t for t in state["tasks"] if t["interrupts"]]
    assert task["name"] == "react" and task["interrupts"][0]["value"]["breakpoint"] == "react:believe"
    values = task["state"]["values"]
    assert values["request"]["kind"] == "belief" and values["request"]["candidates"] == [2, 3, 4, 5]
    assert not any(e["type"] == "game_over" for e in values["view"]["events"]), "no role is revealed to the probe"
    assert "result" not in state["values"], "the game over node has not run yet"
    out = client.runs.wait(tid, "avalon", command={"resume": True}, context={"breakpoints": []})
    assert out["beliefs"]["1"] == {"2": 0.2, "3": 0.3, "4": 0.4, "5": 0.5}
    (entry,) = [e for e in out["events"] if e["type"] == "decision" and e["kind"] == "belief"]
    assert entry["player"] == 1 and entry["usage"]["calls"] == 2


def test_a_runs_context_switches_the_probe_off(client, fake_model):
    seats = [{"kind": "react", "model": fake_model, "options": AIDED}] + [{"kind": "naive"}] * 4
    tid = client.threads.create()["thread_id"]
    out = client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": _seed_with_good_first_seat(),
                                                 "seats": seats}, context={"belief_probe": False})
    assert out["result"]["winner"] in ("good", "evil")
    assert not out.get("beliefs") and not [e for e in out["events"] if e.get("kind") == "belief"]
