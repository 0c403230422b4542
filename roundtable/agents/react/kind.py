"""Agent kind ``react``: AvalonBench's ReAct agent (docs/agents/react.md).

Source: Light, Cai, Shen, Hu, *AvalonBench: Evaluating LLMs Playing the Game of Avalon* (NeurIPS 2023 FMDM
workshop), §3; its code: ``src/server/tasks/avalon/agents/llm_with_discussion.py`` (the agent),
``src/server/tasks/avalon/prompts.py`` (the prompts) and ``src/server/tasks/avalon/wrapper.py`` (the parser) of
github.com/jonathanmli/Avalon-LLM. The graph: `roundtable.agents.react.graph`; options:
`roundtable.agents.react.options.ReactOptions`.
"""

from __future__ import annotations

from roundtable.agents.protocol import AgentKind
from roundtable.agents.react import ReactOptions
from roundtable.agents.react.context import ReactContext
from roundtable.agents.react.graph import build_react_graph, graph
from roundtable.games import GAMES
from roundtable.tables.protocol import games_with_tables

KIND = AgentKind(
    name="react",
    graph="roundtable.agents.react.graph:graph",
    description="AvalonBench's ReAct agent: a running summary, step-by-step reasoning, a separate parser call, "
                "one sentence of talk (needs a model).",
    games=games_with_tables(),  # any game that describes its table (roundtable.tables.protocol)
    node=lambda models: build_react_graph(models).compile() if models is not None else graph,
    needs_model=True,
    options=ReactOptions,
    context=ReactContext,
    probed=frozenset(game for game in games_with_tables() if GAMES[game].belief_probe is not None),
)
