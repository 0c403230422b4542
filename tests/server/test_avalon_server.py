"""The Avalon game graph under a real LangGraph API server (``langgraph dev``), driven with the Python SDK.

What a Studio user does: start a game from the published input schema, play it
to the end, pause before the answers of a team vote are applied, edit a vote
with ``update_state`` and continue from the edited state, and stop inside an
agent's turn (a breakpoint on an ``lga`` step) to read the agent's own state,
or inside every ``lga`` seat's turn at once when a round's notes are written.
The ``lga`` seat plays a fake OpenAI-compatible endpoint served by this test.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from fake_chat import ChatServer

pytestmark = pytest.mark.server

BENCH5 = {"preset": "bench5"}
NAIVE = [{"kind": "naive"}] * 5


@pytest.fixture(scope="module")
def fake_model() -> Iterator[str]:
    """The model spec of a fake OpenAI-compatible endpoint on a loopback port (prose only)."""
    server = ChatServer(lambda body: "Choice: 1, 2\nWords: I trust players 1 and 2.")
    yield server.spec
    server.close()


def test_the_input_schema_is_published_and_the_graph_is_drawn(client):
    (assistant,) = [a for a in client.assistants.search(graph_id="avalon") if a["graph_id"] == "avalon"][:1]
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    inputs = schemas["input_schema"]
    assert set(inputs["required"]) == {"config", "seed", "seats"}
    assert inputs.get("additionalProperties") is False
    assert "lga" in schemas["context_schema"]["properties"]
    drawn = client.assistants.get_graph(assistant["assistant_id"], xray=True)
    nodes = {n["id"] for n in drawn["nodes"]}
    assert {"setup", "vote_team", "apply", "naive", "lga:respond", "lga:aids", "game_over"} <= nodes


def test_a_bot_game_plays_to_the_end(client):
    thread = client.threads.create()
    out = client.runs.wait(thread["thread_id"], "avalon", input={"config": BENCH5, "seed": 7, "seats": NAIVE})
    assert out["result"] == {"winner": "good", "reason": "three_successful_quests"}
    assert out["events"][-1]["type"] == "game_over"
    assert not client.threads.get_state(thread["thread_id"])["next"]
    roles = {str(p): r for p, r in enumerate(out["game"]["roles"], start=1)}
    assert sorted(out["beliefs"]) == sorted(p for p, r in roles.items() if r in ("merlin", "servant"))  # the probe


def test_a_missing_or_unknown_input_field_is_refused_with_its_name(client):
    thread = client.threads.create()
    with pytest.raises(Exception, match="seed"):
        client.runs.wait(thread["thread_id"], "avalon", input={"config": BENCH5, "seats": NAIVE})
    with pytest.raises(Exception, match="agnets"):
        client.runs.wait(thread["thread_id"], "avalon",
                         input={"config": BENCH5, "seed": 1, "seats": NAIVE, "agnets": "lga"})


def test_an_edited_vote_is_the_vote_the_game_applies(client):
    tid = client.threads.create()["thread_id"]
    client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": 7, "seats": NAIVE}, interrupt_before=["apply"])
    for _ in range(40):  # pause before each decision point's answers are applied, until a team vote
        state = client.threads.get_state(tid)
        assert state["next"] == ["apply"]
        if any(r["kind"] == "vote_team" for r in state["values"]["requests"]):
            break
        client.runs.wait(tid, "avalon", input=None, interrupt_before=["apply"])
    else:
        pytest.fail("no team vote within 40 decision points")
    votes = state["values"]["decisions"]
    rid, vote = sorted(votes.items())[0]
    flipped = {**vote, "choice": not vote["choice"]}
    client.threads.update_state(tid, {"decisions": {rid: flipped}}, as_node="naive")
    assert client.threads.get_state(tid)["next"] == ["apply"], "the edited state continues at apply"
    out = client.runs.wait(tid, "avalon", input=None)
    assert out["result"]["winner"] in ("good", "evil")
    (record,) = [e for e in out["events"] if e["type"] == "decision" and e["request"] == rid]
    (cast,) = [e for e in out["events"] if e["type"] == "vote_team" and e["player"] == vote["player"]
               and rid.startswith(f"r{e['round']}.a{e['attempt']}.")]
    assert record["approve"] is cast["approve"] is flipped["choice"]


def test_a_breakpoint_inside_the_lga_agent_stops_there_and_shows_the_agents_state(client, fake_model):
    tid = client.threads.create()["thread_id"]
    seats = [{"kind": "lga", "model": fake_model}] + NAIVE[1:]
    client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": 7, "seats": seats},
                     context={"breakpoints": ["lga:respond"]})
    state = client.threads.get_state(tid, subgraphs=True)
    (task,) = [t for t in state["tasks"] if t["interrupts"]]
    assert task["name"] == "lga"
    assert task["interrupts"][0]["value"]["breakpoint"] == "lga:respond"
    agent = task["state"]
    assert agent["next"] == ["respond"]
    values = agent["values"]
    assert values["request"]["player"] == 1 and values["request"]["kind"] == "speak"
    # told of round 1 with the leader's request, player 1 wrote its notes then; their cost waits in its pool
    noted = values["pool"].get("carried_usage", []) + values["usage"]
    assert [u["module"] for u in noted] == ["analyze", "plan"], "its model calls so far, with their cost"
    assert values["pool"]["analysis"] and values["pool"]["plan"] and values["pool"]["records"], "its memory pool"
    assert "roles" not in json.dumps(values["view"]), "the agent holds a player's view, not the game state"
    # continue without the breakpoint: the game goes on to its end
    out = client.runs.wait(tid, "avalon", command={"resume": True}, context={"breakpoints": []})
    assert out["result"]["winner"] in ("good", "evil")
    assert any(e["type"] == "decision" and e["agent"] == "lga" for e in out["events"])


def test_a_breakpoint_on_the_aids_step_stops_between_the_answer_and_its_check_and_the_game_goes_on(
        client, fake_model):
    """With the aids on, the answer of an lga seat's act or respond step waits at the aids step (docs/agents/aids.md):
    Studio shows the answer not yet checked; resumed, the check runs and the game goes on."""
    tid = client.threads.create()["thread_id"]
    seats = [{"kind": "lga", "model": fake_model, "options": {"aids": "on"}}] + NAIVE[1:]
    client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": 7, "seats": seats},
                     context={"breakpoints": ["lga:aids"]})
    state = client.threads.get_state(tid, subgraphs=True)
    (task,) = [t for t in state["tasks"] if t["interrupts"]]
    assert task["interrupts"][0]["value"]["breakpoint"] == "lga:aids"
    agent = task["state"]
    assert agent["next"] == ["aids"] and agent["values"]["unchecked"] in ("act", "respond")
    out = client.runs.wait(tid, "avalon", command={"resume": True}, context={"breakpoints": []})
    assert out["result"]["winner"] in ("good", "evil")


def test_a_breakpoint_on_the_notes_pauses_every_lga_seat_at_a_rounds_start_and_each_resumes_by_id(
        client, fake_model):
    tid = client.threads.create()["thread_id"]
    seats = [{"kind": "lga", "model": fake_model}] * 3 + NAIVE[3:]
    client.runs.wait(tid, "avalon", input={"config": BENCH5, "seed": 7, "seats": seats},
                     context={"breakpoints": ["lga:analyze"]})
    state = client.threads.get_state(tid)
    paused = [i for t in state["tasks"] for i in t["interrupts"]]
    assert sorted(i["value"]["player"] for i in paused) == [1, 2, 3], "the three lga seats write their notes at once"
    assert sum(i["value"]["request"].startswith("r1.prepare_round.") for i in paused) >= 2, "told, not asked"
    # several pauses at once: each is resumed by its interrupt id
    out = client.runs.wait(tid, "avalon", command={"resume": {i["id"]: True for i in paused}},
                           context={"breakpoints": []})
    assert out["result"]["winner"] in ("good", "evil")


def test_the_leaders_lines_are_an_editable_prompt_of_the_lga_act_step_in_studio(client):
    (assistant,) = [a for a in client.assistants.search(graph_id="avalon") if a["graph_id"] == "avalon"][:1]
    context = client.assistants.get_schemas(assistant["assistant_id"])["context_schema"]
    lga = context["properties"]["lga"]
    lga = context.get("$defs", {}).get(lga["$ref"].rsplit("/", 1)[-1], lga) if "$ref" in lga else lga
    for name in ("leader_lines_prompt", "team_record_prompt", "team_words_prompt", "trust_words_prompt"):
        field = lga["properties"][name]
        assert field["langgraph_type"] == "prompt" and "lga:act" in field["langgraph_nodes"], field
    assert "left out" in lga["properties"]["leader_lines_prompt"]["default"]
    assert "stays: players" in lga["properties"]["team_words_prompt"]["default"], "the check's words, editable"
    assert "I trust" in lga["properties"]["trust_words_prompt"]["default"]
