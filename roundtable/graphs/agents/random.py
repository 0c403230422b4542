"""Agent kind ``random``: uniform legal play, for baselines and property tests; no model."""

from roundtable.games.avalon.bots import uniform
from roundtable.nodes.agent import AgentKind, policy_node

POLICIES = {"avalon": uniform.decide}

KIND = AgentKind(
    name="random",
    description="Uniformly random legal play (no model).",
    games=frozenset(POLICIES),
    node=lambda models: policy_node("random", POLICIES),
)
