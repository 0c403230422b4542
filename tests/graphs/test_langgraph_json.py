"""langgraph.json points at importable graphs compiled without a checkpointer (as the LangGraph server requires)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from langgraph.graph.state import CompiledStateGraph

ROOT = Path(__file__).resolve().parents[2]


def test_langgraph_json_serves_every_game_and_every_kind_graph_of_the_registries() -> None:
    from roundtable.graphs.served import langgraph_spec

    assert json.loads((ROOT / "langgraph.json").read_text()) == langgraph_spec(), (
        "langgraph.json is out of date: python -m roundtable.graphs.served > langgraph.json")


def test_every_graph_in_langgraph_json_loads_without_a_checkpointer() -> None:
    spec = json.loads((ROOT / "langgraph.json").read_text())
    assert "avalon" in spec["graphs"]
    for name, target in spec["graphs"].items():
        module, _, attr = target.partition(":")
        assert "/" not in module, "module form: langgraph dev loads a file path as a top-level module"
        graph = getattr(importlib.import_module(module), attr)
        assert isinstance(graph, CompiledStateGraph), name
        assert graph.checkpointer is None, name


def test_the_game_graph_draws_one_node_per_phase() -> None:
    from roundtable.graphs.avalon import graph

    nodes = set(graph.get_graph().nodes)
    assert {"setup", "reveal", "proposal", "discussion", "vote_team", "quest", "assassination", "apply",
            "game_over", "naive", "random", "lga"} <= nodes


def test_every_graph_publishes_its_input_and_output_schemas() -> None:
    """Studio's input form needs them (on Python 3.11 only from typing_extensions' TypedDict)."""
    spec = json.loads((ROOT / "langgraph.json").read_text())
    for name, target in spec["graphs"].items():
        module, _, attr = target.partition(":")
        graph = getattr(importlib.import_module(module), attr)
        inputs, outputs = graph.get_input_jsonschema(), graph.get_output_jsonschema()
        assert inputs["properties"] and inputs["required"], name
        assert outputs["properties"], name
