"""langgraph.json points at importable graphs compiled without a checkpointer (as the LangGraph server requires)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from langgraph.graph.state import CompiledStateGraph

ROOT = Path(__file__).resolve().parents[2]


def test_every_graph_in_langgraph_json_loads_without_a_checkpointer() -> None:
    spec = json.loads((ROOT / "langgraph.json").read_text())
    assert "avalon" in spec["graphs"]
    for name, target in spec["graphs"].items():
        path, _, attr = target.partition(":")
        module_spec = importlib.util.spec_from_file_location(f"lgjson_{name}", ROOT / path)
        assert module_spec and module_spec.loader
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        graph = getattr(module, attr)
        assert isinstance(graph, CompiledStateGraph), name
        assert graph.checkpointer is None, name


def test_the_game_graph_draws_one_node_per_phase() -> None:
    from roundtable.graphs.avalon import graph

    nodes = set(graph.get_graph().nodes)
    assert {"setup", "reveal", "proposal", "discussion", "team_vote", "quest", "assassination", "game_over",
            "seat"} <= nodes
