"""The social-behaviour judge under a real LangGraph API server (``langgraph dev``), driven with the Python SDK: the
``judge`` graph is drawn with one node per behaviour, its prompts are Studio prompt fields, a run pauses before a
behaviour's node, an edited state (fewer behaviours left to judge) continues, and an edited prompt reaches the
judge model. The judge model is a fake OpenAI-compatible endpoint served by this test (prose replies)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_chat import ChatServer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))

from judge_records import avalon_record, store  # noqa: E402

pytestmark = pytest.mark.server


def _reply(body: dict) -> str:
    """Every stance is trust, every claim none, every fact kept to oneself (prose, one line per player)."""
    user = str(body["messages"][-1]["content"])
    return "\n".join(f"Player {p}: trust" for p in range(1, 7)) if "Player" in user else "none"


@pytest.fixture(scope="module")
def judge_model() -> Iterator[ChatServer]:
    server = ChatServer(_reply)
    yield server
    server.close()


def test_the_judge_graph_is_drawn_with_one_node_per_behaviour_and_editable_prompts(client):
    assistant = next(a for a in client.assistants.search(graph_id="judge") if a["graph_id"] == "judge")
    nodes = {n["id"] for n in client.assistants.get_graph(assistant["assistant_id"])["nodes"]}
    assert {"load", "deception", "stance", "sharing", "camouflage", "tables"} <= nodes
    context = client.assistants.get_schemas(assistant["assistant_id"])["context_schema"]
    field = context["properties"]["stance_prompt"]
    assert field["langgraph_type"] == "prompt" and "stance" in field["langgraph_nodes"]


def test_a_judge_run_pauses_before_a_behaviour_and_an_edited_state_continues(client, judge_model, tmp_path):
    store(tmp_path, avalon_record("served"))
    tid = client.threads.create()["thread_id"]
    given = {"game_id": "served", "model": judge_model.spec, "home": str(tmp_path)}
    client.runs.wait(tid, "judge", input=given, interrupt_before=["stance"],
                     context={"stance_prompt": "EDITED STANCE PROMPT {{ text }}"})
    state = client.threads.get_state(tid)
    assert state["next"] == ["stance"]
    assert set(state["values"]["judged"]) == {"deception"}
    assert state["values"]["todo"] == ["deception", "stance", "sharing"]
    client.threads.update_state(tid, {"todo": ["deception", "stance"]}, as_node="deception")
    asked = len(judge_model.requests)
    out = client.runs.wait(tid, "judge", input=None, context={"stance_prompt": "EDITED STANCE PROMPT {{ text }}"})
    assert set(out["judged"]) == {"deception", "stance"}, "sharing was taken off the list in Studio"
    stance_calls = judge_model.requests[asked:]
    assert stance_calls and all("EDITED STANCE PROMPT" in str(b["messages"]) for b in stance_calls)
    assert (tmp_path / "records" / "served.judge").is_dir(), "the judgements are stored beside the record"
