"""Agent kind ``cot``: Shi et al.'s agent reasoning in prose (chain of thought) for every decision, without the tool.

The comparison kind of Shi et al. (2023): the `roundtable.agents.codeact.graph`
graph whose leader reasons in prose. Options: `roundtable.agents.codeact.options.CotOptions`.
"""

from __future__ import annotations

from roundtable.agents.codeact import CotOptions
from roundtable.agents.codeact.context import CodeActContext
from roundtable.agents.codeact.graph import build_codeact_graph, cot_graph
from roundtable.agents.protocol import AgentKind

KIND = AgentKind(
    name="cot",
    graph="roundtable.agents.codeact.graph:cot_graph",
    description="Shi et al.'s agent reasoning in prose (chain of thought), without the Python tool (needs a model).",
    games=frozenset({"avalon"}),
    node=lambda models: build_codeact_graph("cot", models).compile() if models is not None else cot_graph,
    needs_model=True,
    options=CotOptions,
    context=CodeActContext,
    probed=frozenset({"avalon"}),
)
