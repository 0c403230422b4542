"""The langgraph dev fixture works: a toy two-node graph served by a real LangGraph API server.

first: x -> x + 1, second: x -> x * 10, so input x=1 ends at x=20.
"""

from __future__ import annotations

import json
import socket
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.server

REPO_ROOT = Path(__file__).resolve().parents[2]

TOY_GRAPH = textwrap.dedent(
    '''
    import operator
    from typing import Annotated

    from langgraph.graph import END, START, StateGraph
    from typing_extensions import TypedDict


    class State(TypedDict):
        x: int
        path: Annotated[list[str], operator.add]


    def first(state: State) -> dict:
        return {"x": state["x"] + 1, "path": ["first"]}


    def second(state: State) -> dict:
        return {"x": state["x"] * 10, "path": ["second"]}


    builder = StateGraph(State)
    builder.add_node("first", first)
    builder.add_node("second", second)
    builder.add_edge(START, "first")
    builder.add_edge("first", "second")
    builder.add_edge("second", END)
    graph = builder.compile()
    '''
)


def write_toy_project(directory: Path, graph_source: str = TOY_GRAPH) -> Path:
    """A graph module and a langgraph.json with relative paths, as a project would have them."""
    (directory / "toy_graph.py").write_text(graph_source)
    config = directory / "langgraph.json"
    config.write_text(json.dumps({"dependencies": ["."], "graphs": {"toy": "./toy_graph.py:graph"}}))
    return config


@pytest.fixture(scope="module")
def toy_server(langgraph_server, tmp_path_factory):
    config = write_toy_project(tmp_path_factory.mktemp("toy_project"))
    with langgraph_server(config) as server:
        yield server


@pytest.fixture(scope="module")
def toy_assistant_id(toy_server) -> str:
    assistants = toy_server.sync_client.assistants.search(graph_id="toy")
    assert len(assistants) == 1
    return assistants[0]["assistant_id"]


def test_the_server_object(toy_server) -> None:
    assert toy_server.url.startswith("http://127.0.0.1:")
    assert toy_server.log_path.is_file()
    assert "Uvicorn running on" in toy_server.log_text()
    assert toy_server.process.poll() is None
    # The in-memory runtime's files land in the server's own working directory.
    assert toy_server.workdir != REPO_ROOT
    assert (toy_server.workdir / ".langgraph_api").is_dir()


def test_the_graph_is_listed(toy_server, toy_assistant_id) -> None:
    graph_ids = {a["graph_id"] for a in toy_server.sync_client.assistants.search()}
    assert graph_ids == {"toy"}
    assert toy_server.sync_client.assistants.get(toy_assistant_id)["graph_id"] == "toy"


def test_a_run_on_a_new_thread_completes(toy_server, toy_assistant_id) -> None:
    client = toy_server.sync_client
    thread = client.threads.create()
    output = client.runs.wait(thread["thread_id"], toy_assistant_id, input={"x": 1, "path": []})
    assert output == {"x": 20, "path": ["first", "second"]}
    state = client.threads.get_state(thread["thread_id"])
    assert state["next"] == []
    assert state["values"] == output


def test_interrupt_edit_and_resume(toy_server, toy_assistant_id) -> None:
    client = toy_server.sync_client
    thread_id = client.threads.create()["thread_id"]

    client.runs.wait(thread_id, toy_assistant_id, input={"x": 1, "path": []}, interrupt_before=["second"])
    state = client.threads.get_state(thread_id)
    assert state["next"] == ["second"]
    assert state["values"] == {"x": 2, "path": ["first"]}

    client.threads.update_state(thread_id, {"x": 5}, as_node="first")
    state = client.threads.get_state(thread_id)
    assert state["next"] == ["second"]
    assert state["values"]["x"] == 5

    output = client.runs.wait(thread_id, toy_assistant_id, input=None)
    assert output == {"x": 50, "path": ["first", "second"]}
    assert client.threads.get_state(thread_id)["next"] == []


def test_the_async_client_talks_to_the_same_server(toy_server) -> None:
    import asyncio

    async def search() -> list[str]:
        return [a["graph_id"] for a in await toy_server.client.assistants.search()]

    assert asyncio.run(search()) == ["toy"]


def test_a_taken_port_is_followed_to_where_the_server_moved(langgraph_server, tmp_path) -> None:
    config = write_toy_project(tmp_path)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        with langgraph_server(config, port=taken) as server:
            assert server.url != f"http://127.0.0.1:{taken}"
            assert f"Port {taken} is already in use" in server.log_text()
            assert [a["graph_id"] for a in server.sync_client.assistants.search()] == ["toy"]
        process = server.process
    assert process.poll() is not None


def test_a_graph_that_fails_to_import_fails_fast_with_the_log(langgraph_server, tmp_path) -> None:
    config = write_toy_project(tmp_path, "raise RuntimeError('toy graph is broken on purpose')\n")
    with pytest.raises(RuntimeError, match="toy graph is broken on purpose"):
        with langgraph_server(config, startup_timeout=60):
            pass
