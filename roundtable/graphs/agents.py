"""The agent kinds a game can seat: ``{kind: agent function}``.

Rule bots need no model; model-driven kinds are registered here as their
agent graphs are built. The game graph receives this mapping, and the CLI
validates ``--agents`` against its keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roundtable.games.avalon.bots import POLICIES
from roundtable.nodes.seat import AgentFn, policy_agent

AGENT_KINDS: dict[str, AgentFn] = {kind: policy_agent(policy) for kind, policy in POLICIES.items()}

# Kinds that need a model (``--model``) to play.
MODEL_KINDS: frozenset[str] = frozenset()

# The Lan et al. agent (roundtable.graphs.lga); imported last: its graph module needs nothing from here.
from roundtable.graphs.lga import lga_agent  # noqa: E402
from roundtable.nodes.lga.options import LgaOptions  # noqa: E402

AGENT_KINDS["lga"] = lga_agent
MODEL_KINDS = MODEL_KINDS | {"lga"}

# Validators of each kind's seat options (``--agent-option``), run before a game starts.
OPTION_PARSERS: dict[str, Callable[[dict[str, Any]], Any]] = {"lga": LgaOptions.parse}
