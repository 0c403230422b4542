"""The Werewolf game graph under a real LangGraph API server (``langgraph dev``), driven with the Python SDK:
it is drawn with a node per phase, a bot game plays to its end, it pauses before a phase when asked, and an
edited elimination vote is the vote the game applies."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.server

XU7 = {"preset": "xu7"}
NAIVE = [{"kind": "naive"}] * 7


@pytest.fixture(scope="module")
def client(repo_langgraph_server):
    return repo_langgraph_server.sync_client


def test_the_werewolf_graph_is_drawn_with_a_node_per_phase(client):
    (assistant,) = [a for a in client.assistants.search(graph_id="werewolf") if a["graph_id"] == "werewolf"][:1]
    assert set(client.assistants.get_schemas(assistant["assistant_id"])["input_schema"]["required"]) == {
        "config", "seed", "seats"}
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]}
    assert {"setup", "werewolves", "guard", "witch", "seer", "dawn", "day_talk", "day_vote", "last_words",
            "apply", "game_over", "naive", "random", "human"} <= nodes


def test_a_game_pauses_before_a_phase_and_an_edited_vote_is_applied(client):
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, "werewolf", input={"config": XU7, "seed": 3, "seats": NAIVE}, interrupt_before=["day_vote"])
    state = client.threads.get_state(tid)
    assert state["next"] == ["day_vote"] and state["values"]["game"]["phase"] == "day_vote"
    client.runs.wait(tid, "werewolf", input=None, interrupt_before=["apply"])
    state = client.threads.get_state(tid)
    assert state["next"] == ["apply"] and {r["kind"] for r in state["values"]["requests"]} == {"eliminate"}
    votes = state["values"]["decisions"]
    alive = [p for p in range(1, 8) if p not in state["values"]["game"]["dead"]]
    rid, vote = sorted(votes.items())[0]
    edited = {**vote, "players": [next(p for p in alive if p != vote["player"] and [p] != vote["players"])]}
    client.threads.update_state(tid, {"decisions": {rid: edited}}, as_node="naive")
    assert client.threads.get_state(tid)["next"] == ["apply"], "the edited state continues at apply"
    out = client.runs.wait(tid, "werewolf", input=None)
    assert out["result"]["winner"] in ("village", "werewolves", None)
    (cast,) = [e for e in out["events"] if e["type"] == "eliminate" and e["day"] == 1 and e["player"] == vote["player"]]
    assert cast["target"] == edited["players"][0]
