"""The codeact agent graph under a real LangGraph API server (``langgraph dev``), driven with the Python SDK:
what a Studio user does to watch CodeAct debug itself: stop before each program runs, read the program and the
previous attempt's error in the state, edit the program, and continue to the decision; and a ``cot`` vote stopped
at the aids step before its check."""

from __future__ import annotations

import pytest
from fake_chat import chat_model_fixture

from roundtable.games import avalon

pytestmark = pytest.mark.server

RAISES = "```python\nprint(sorted(good)[:2])\n```"
FIXED = "```python\ngood = [1, 2, 3]\nprint(good[:2])\n```"


def _coder(body: dict) -> str:
    """A program that raises, a fixed one when shown its error, else prose."""
    prompt = str(body["messages"][-1]["content"])
    return FIXED if "Your previous program" in prompt else RAISES if "Python program" in prompt else "Fine."


fake_coder = chat_model_fixture(_coder)


def leader_input(model: str) -> dict:
    preset, rules = avalon.setting("avalonplay")
    state = avalon.new_game(avalon.AvalonConfig.build(preset=preset, rules=[*rules, "discussion=none"]), 1)
    (request,) = avalon.pending(state)
    return {"view": avalon.view(state, request.player).model_dump(mode="json"),
            "request": request.model_dump(mode="json"), "pool": {},
            "seat": {"kind": "codeact", "model": model,
                     "options": {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False}}, "seed": 3}


def test_the_self_debug_loop_is_watched_edited_and_rerun_step_by_step(client, fake_coder):
    tid = client.threads.create()["thread_id"]
    task = leader_input(fake_coder)
    request_id = task["request"]["id"]
    client.runs.wait(tid, "codeact", input=task, interrupt_before=["run"])
    state = client.threads.get_state(tid)
    assert state["next"] == ["run"]
    assert state["values"]["program"].startswith("print(sorted(good)")
    assert any(f["kind"] == "self" for f in state["values"]["facts"]), "the leader's facts are in the state"
    # run it: it raises; the debug step writes a new program, and the run stops before it again
    client.runs.wait(tid, "codeact", input=None, interrupt_before=["run"])
    state = client.threads.get_state(tid)
    (first,) = state["values"]["attempts"]
    assert "NameError: name 'good' is not defined" in first["error"] and first["team"] is None
    assert state["next"] == ["run"] and state["values"]["program"].startswith("good = [1, 2, 3]")
    # a Studio user edits the program before it runs, then lets the graph go on
    client.threads.update_state(tid, {"program": "print([4, 5])\n"}, as_node="debug")
    out = client.runs.wait(tid, "codeact", input=None)
    assert out["decisions"][request_id]["players"] == [4, 5]
    values = client.threads.get_state(tid)["values"]
    assert [a["team"] for a in values["attempts"]] == [None, [4, 5]]
    assert out["decisions"][request_id]["checks"][-1] == "program 2: team 4, 5"


def test_a_cot_vote_stops_at_the_aids_step_which_then_checks_it_against_what_the_player_knows(client):
    """With the aids on, a ``cot`` team vote waits at ``aids`` after ``think`` (docs/agents/aids.md#the-aids-step);
    resumed, the check runs: Merlin's approval of a team with an evil player he sees is asked for again, and the
    second answer is given."""
    from fake_chat import ChatServer
    server = ChatServer(lambda body: "Thought: the team looks fine.\nChoice: approve")
    try:
        assistant = next(a for a in client.assistants.search(graph_id="cot"))
        nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]}
        assert {"think", "aids", "decide"} <= nodes
        game = avalon.new_game(avalon.AvalonConfig.build(preset="bench5", rules=["discussion=none"]), 1)
        merlin = 1 + [r.value for r in game.roles].index("merlin")
        evil = [p for p, r in enumerate(game.roles, 1) if r.side.value == "evil"]
        (proposal,) = avalon.pending(game)
        assert proposal.count == 2
        game = avalon.apply(game, {proposal.player: avalon.Decision(
            request_id=proposal.id, player=proposal.player, kind=proposal.kind, players=sorted([evil[0], merlin]))})
        vote = next(r for r in avalon.pending(game) if r.player == merlin)
        task = {"view": avalon.view(game, merlin).model_dump(mode="json"), "request": vote.model_dump(mode="json"),
                "pool": {}, "seed": 3,
                "seat": {"kind": "cot", "model": server.spec,
                         "options": {"aids": "on", "dry": False, "overrule": False, "drop_sentences": False}}}
        tid = client.threads.create()["thread_id"]
        client.runs.wait(tid, "cot", input=task, interrupt_before=["aids"])
        paused = client.threads.get_state(tid)
        assert paused["next"] == ["aids"] and paused["values"]["unchecked"] == "think"
        assert paused["values"]["action"] == {"choice": True}, "an approval"
        client.runs.wait(tid, "cot", input=None, interrupt_before=["aids"])  # the check asks again: think, then aids
        again = client.threads.get_state(tid)
        assert again["next"] == ["aids"] and again["values"]["reviewed"] is True
        assert any("asked again" in line for line in again["values"]["checks"])
        out = client.runs.wait(tid, "cot", input=None)
        assert out["decisions"][vote.id]["choice"] is True, "the second answer is kept whatever it says"
    finally:
        server.close()
