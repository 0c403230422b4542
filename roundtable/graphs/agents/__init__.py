"""The agent-kind registry: one `AgentKind` record per kind, declared once, in a module of this package.

Each module here declares ``KIND = AgentKind(...)`` (name, description, the
games it plays, its game-graph node, whether it needs a model, its options and
context models); `AGENT_KINDS` collects them, so adding a kind is adding a
module. ``--agents``, ``--agent-option``, the input check of every game graph,
the game graphs' agent nodes and contexts, and the README's list of kinds all
read it.
"""

from __future__ import annotations

import importlib
import pkgutil

from roundtable.nodes.agent import AgentKind


def _discover() -> dict[str, AgentKind]:
    kinds: dict[str, AgentKind] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        kind = getattr(importlib.import_module(f"{__name__}.{info.name}"), "KIND", None)
        if isinstance(kind, AgentKind):
            if kind.name in kinds:
                raise RuntimeError(f"agent kind {kind.name!r} is declared twice")
            kinds[kind.name] = kind
    return kinds


AGENT_KINDS: dict[str, AgentKind] = _discover()
"""Every agent kind, by name."""

__all__ = ["AGENT_KINDS", "AgentKind"]
