"""Agent kind ``codeact``: Shi et al.'s leader that reasons by writing Python in a sandboxed REPL
(docs/agents/codeact.md).

Source: Shi, Fang, Zheng, Deng, Chen, Du, *Cooperation on the Fly: Exploring
Language Agents for Ad Hoc Teamwork in the Avalon Game* (2023). The graph:
`roundtable.agents.codeact.graph`; options (``leader=codeact|cot|react``,
``max_attempts``, ...): `roundtable.agents.codeact.options.CodeActOptions`.
"""

from __future__ import annotations

from roundtable.agents.codeact import CodeActOptions
from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.codeact.graph import build_codeact_graph, graph
from roundtable.agents.protocol import AgentKind
from roundtable.games import GAMES
from roundtable.tables.protocol import games_with_tables

KIND = AgentKind(
    name="codeact",
    graph="roundtable.agents.codeact.graph:graph",
    description="Shi et al.'s agent: as leader it writes, runs (sandboxed) and debugs a Python program that picks "
                "the team; otherwise reasons in prose (needs a model).",
    games=games_with_tables(),  # any game that describes its table (roundtable.tables.protocol)
    node=lambda models: build_codeact_graph("codeact", models).compile() if models is not None else graph,
    needs_model=True,
    options=CodeActOptions,
    context=CodeActContext,
    probed=frozenset(game for game in games_with_tables() if GAMES[game].belief_probe is not None),
)
