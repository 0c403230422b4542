"""Agent kind ``cot``: Shi et al.'s agent reasoning in prose (chain of thought) for every decision, without the tool.

The comparison kind of Shi et al. (2023): the `roundtable.agents.codeact.graph`
graph whose leader reasons in prose. Options: `roundtable.agents.codeact.options.CotOptions`.
"""

from __future__ import annotations

from roundtable.agents.codeact import CotOptions
from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.codeact.graph import build_codeact_graph, cot_graph
from roundtable.agents.protocol import AgentKind
from roundtable.games import GAMES
from roundtable.tables.protocol import games_with_tables

KIND = AgentKind(
    name="cot",
    graph="roundtable.agents.codeact.graph:cot_graph",
    description="Shi et al.'s agent reasoning in prose (chain of thought), without the Python tool (needs a model).",
    games=games_with_tables(),  # any game that describes its table (roundtable.tables.protocol)
    node=lambda models: build_codeact_graph("cot", models).compile() if models is not None else cot_graph,
    needs_model=True,
    options=CotOptions,
    context=CodeActContext,
    probed=frozenset(game for game in games_with_tables() if GAMES[game].belief_probe is not None),
)
