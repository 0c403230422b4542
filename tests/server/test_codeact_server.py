"""The codeact agent graph under a real LangGraph API server (``langgraph dev``), driven with the Python SDK:
what a Studio user does to watch CodeAct debug itself: stop before each program runs, read the program and the
previous attempt's error in the state, edit the program, and continue to the decision."""

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
