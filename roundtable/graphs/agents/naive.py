"""Agent kind ``naive``: AvalonBench's rule-based bots (SPEC.md §3.5); no model."""

from roundtable.games.avalon.bots import naive
from roundtable.nodes.agent import AgentKind, policy_node

POLICIES = {"avalon": naive.decide}

KIND = AgentKind(
    name="naive",
    description="AvalonBench's rule-based bots: they reason from quest outcomes only (no model).",
    games=frozenset(POLICIES),
    node=lambda models: policy_node("naive", POLICIES),
)
