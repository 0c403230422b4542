"""The Secret Hitler plugin's game graph under a real LangGraph API server (``langgraph dev`` on roundtable's
``langgraph.json``, which serves every installed game), driven with the Python SDK: it is drawn whole, with a node
per phase and every kind that plays it, a bot game plays to its end, it pauses before the election when asked, and
an edited vote is the vote the game applies (issue 60, part 3; docs/games/secret-hitler.md#studio).

The game is a plugin package's: the tests skip where it is not installed (the README's commands install it)."""

from __future__ import annotations

import pytest

pytest.importorskip("roundtable_secret_hitler")

pytestmark = pytest.mark.server

GAME = "secret_hitler"
FIVE = {"players": 5}
NAIVE = [{"kind": "naive"}] * 5


@pytest.fixture(scope="module")
def client(repo_langgraph_server):
    return repo_langgraph_server.sync_client


def test_the_graph_is_drawn_whole_with_a_node_per_phase_and_every_kind_that_plays_it(client):
    from roundtable.agents.registry import AGENT_KINDS
    from roundtable.games import GAMES

    (assistant,) = [a for a in client.assistants.search(graph_id=GAME) if a["graph_id"] == GAME][:1]
    assert set(client.assistants.get_schemas(assistant["assistant_id"])["input_schema"]["required"]) == {
        "config", "seed", "seats"}
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]}
    kinds = {name for name, kind in AGENT_KINDS.items() if GAME in kind.games}
    assert {"lga", "cga", "react", "cot", "codeact", "naive", "random", "human"} <= kinds
    assert {"setup", "apply", "game_over", *GAMES[GAME].phases, *kinds} <= nodes


def test_a_bot_game_pauses_before_the_election_and_an_edited_vote_is_applied(client):
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, GAME, input={"config": FIVE, "seed": 3, "seats": NAIVE}, interrupt_before=["election"])
    state = client.threads.get_state(tid)
    assert state["next"] == ["election"] and state["values"]["game"]["phase"] == "election"
    client.runs.wait(tid, GAME, input=None, interrupt_before=["apply"])
    state = client.threads.get_state(tid)
    assert state["next"] == ["apply"] and {r["kind"] for r in state["values"]["requests"]} == {"vote"}
    rid, vote = sorted(state["values"]["decisions"].items())[0]
    edited = {**vote, "choice": not vote["choice"]}
    client.threads.update_state(tid, {"decisions": {rid: edited}}, as_node="naive")
    assert client.threads.get_state(tid)["next"] == ["apply"], "the edited state continues at apply"
    out = client.runs.wait(tid, GAME, input=None)
    assert out["result"]["winner"] in ("liberal", "fascist")
    (cast,) = [e for e in out["events"] if e["type"] == "vote" and e["round"] == 1 and e["player"] == vote["player"]]
    assert cast["ja"] == edited["choice"]
