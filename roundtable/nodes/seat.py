"""The seat interface between the game graph and the agents.

An *agent function* plays one seat: it receives an `AgentCall` (the player's
view, the request with its legal options, the player's own memory and its seat
specification) and returns an `AgentResult` (a decision and the updated
memory). It never sees the game state. The game graph is given a mapping
``{kind: agent function}`` (see `roundtable.graphs.agents`), so adding an agent
kind touches no game code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, Field

from roundtable.games.avalon import Decision, PlayerView, Request


class SeatSpec(BaseModel):
    """Who plays a seat.

    Attributes:
        kind: agent kind (``naive``, ``random``, ``lga``, ...).
        model: model spec for model-driven kinds (``local``, a hosted model
            name, or an OpenAI-compatible URL with a model name); ``None`` for bots.
        options: kind-specific switches (e.g. the ``lga`` ablations).
    """

    kind: str
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class AgentInput(TypedDict):
    """An agent call as JSON-ready data: what a `Send` carries to the ``seat`` node and an agent graph's input.

    ``view`` is a dumped `PlayerView` (only the events not delivered before),
    ``request`` a dumped `Request`, ``memory`` the player's memory, ``seat`` a
    dumped `SeatSpec`, ``seed`` the agent's own seed.
    """

    view: dict[str, Any]
    request: dict[str, Any]
    memory: dict[str, Any]
    seat: dict[str, Any]
    seed: int


@dataclass(frozen=True)
class AgentCall:
    """Everything an agent gets for one decision.

    Attributes:
        view: the player's information set. request: what is asked.
        memory: the player's own memory as left by its previous decision (``{}`` at first).
        seat: the seat specification. seed: the game seed (for seeded tie-breaks).
        config: the LangGraph run config of the calling node, so that an agent
            subgraph is checkpointed under the game's thread and sees the run's context.
    """

    view: PlayerView
    request: Request
    memory: dict[str, Any]
    seat: SeatSpec
    seed: int
    config: RunnableConfig | None = None


@dataclass(frozen=True)
class AgentResult:
    """An agent's answer: the decision, and its memory after the decision (``None``: unchanged)."""

    decision: Decision
    memory: dict[str, Any] | None = field(default=None)


AgentFn = Callable[[AgentCall], AgentResult]


def policy_agent(policy: Callable[[PlayerView, Request, int], Decision]) -> AgentFn:
    """Adapt a memoryless rule policy ``policy(view, request, seed)`` to the agent interface."""

    def agent(call: AgentCall) -> AgentResult:
        return AgentResult(decision=policy(call.view, call.request, call.seed))

    agent.__doc__ = policy.__doc__
    return agent
