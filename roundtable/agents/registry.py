"""The agent-kind registry: one `AgentKind` record per kind, declared once, under the ``roundtable.agents``
entry-point group (`roundtable.plugins`).

Each kind's folder declares ``KIND = AgentKind(...)`` (name, description, the
games it plays, its game-graph node, whether it needs a model, its options and
context models); `AGENT_KINDS` collects them, so adding a kind is writing its
package and declaring its entry point. ``--agents``, ``--agent-option``, the input check of every game graph,
the game graphs' agent nodes and contexts, and the README's list of kinds all
read it.
"""

from __future__ import annotations

from roundtable.agents.protocol import AgentKind
from roundtable.plugins import load_plugins

AGENT_KINDS: dict[str, AgentKind] = load_plugins("roundtable.agents", AgentKind)
"""Every agent kind, by name."""

__all__ = ["AGENT_KINDS", "AgentKind"]
