"""The graphs ``langgraph dev`` and Studio serve, from the registries: each game's graph under the game's name,
compiled here without a checkpointer (as the LangGraph server requires), each agent kind's own graph where it
has one (`AgentKind.graph`), and the graphs declared under the ``roundtable.graphs`` entry points (the judge,
`roundtable.judge.graph`; named, not imported, so a graph of a higher layer is served without this layer
importing it).

``langgraph.json`` is `langgraph_spec()` written out (``python -m roundtable.graphs.served > langgraph.json``;
a test keeps it current), so a game or kind added by a plugin package is served by regenerating the file, with no
edit to this project. See docs/studio.md.
"""

from __future__ import annotations

import json
from importlib.metadata import Distribution, entry_points
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from langgraph.graph.state import CompiledStateGraph

from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES
from roundtable.graphs.game import build_game_graph

MODULE = "roundtable.graphs.served"
"""This module's name, as ``langgraph.json`` names it (also when run as a script)."""


def game_graph(game: str) -> CompiledStateGraph:
    """The game graph of ``game`` (a key of `roundtable.games.GAMES`) with every kind that plays it, compiled
    without a checkpointer and named after the game.

    Raises:
        KeyError: an unknown game.
    """
    graph = build_game_graph(GAMES[game]).compile()
    graph.name = game
    return graph


PROJECT = Path(__file__).resolve().parents[2]
"""The project's folder (where ``langgraph.json`` is): the ``"."`` of its dependencies."""


def dependency(dist: Distribution) -> str:
    """How ``langgraph.json`` names a plugin's distribution among its dependencies: its folder relative to the
    project (``./plugins/<package>``) when it is installed from a folder inside the project (its
    PEP 610 ``direct_url.json``), else its name (a requirement the server's build installs)."""
    url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
    if url.startswith("file://"):
        folder = Path(unquote(urlparse(url).path)).resolve()
        if folder.is_relative_to(PROJECT):
            return f"./{folder.relative_to(PROJECT).as_posix()}"
    return str(dist.metadata["Name"])


def plugin_dependencies() -> list[str]:
    """The dependencies of the games and agent kinds that other distributions declare (their entry points under
    ``roundtable.games`` and ``roundtable.agents``), by name: what the server needs installed beside the project
    to serve their graphs."""
    points = [*entry_points(group="roundtable.games"), *entry_points(group="roundtable.agents")]
    dists = {point.dist.metadata["Name"]: point.dist for point in points if point.dist is not None}
    dists.pop("roundtable", None)
    return [dependency(dists[name]) for name in sorted(dists)]


def langgraph_spec() -> dict[str, Any]:
    """``langgraph.json``'s content: every game's graph (``roundtable.graphs.served:<game>``), then every agent
    kind's own graph, then each graph of the ``roundtable.graphs`` entry points, by name; its dependencies the
    project (``"."``) and each installed plugin (`plugin_dependencies`)."""
    graphs = {game: f"{MODULE}:{game}" for game in GAMES}
    graphs |= {name: kind.graph for name, kind in AGENT_KINDS.items() if kind.graph is not None}
    served = sorted(entry_points(group="roundtable.graphs"), key=lambda p: p.name)
    graphs |= {point.name: point.value for point in served}
    return {"$schema": "https://langgra.ph/schema.json", "python_version": "3.11",
            "dependencies": [".", *plugin_dependencies()], "graphs": graphs}


globals().update({game: game_graph(game) for game in GAMES})

if __name__ == "__main__":
    print(json.dumps(langgraph_spec(), indent=2))
