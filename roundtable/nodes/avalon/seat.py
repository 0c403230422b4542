"""The ``seat`` node: one player answers one request through its agent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command

from roundtable.games.avalon import PlayerView, Request, check_decision

from ..seat import AgentCall, AgentFn, SeatSpec
from .state import SeatTask

ReturnNode = Literal["proposal", "discussion", "team_vote", "quest", "assassination"]


def make_seat_node(agents: Mapping[str, AgentFn]):
    """Build the ``seat`` node over the agent kinds ``agents`` (``{kind: agent function}``).

    The node calls the seat's agent with the player's view, the request and the
    player's memory, checks the decision against the request, and returns to
    the phase node that asked.

    Raises (from the node):
        KeyError: the seat's kind is not in ``agents``.
        IllegalActionError: the agent returned an illegal decision (an agent bug:
            model-driven agents repair unusable replies with the fallback rules).
    """

    def seat(task: SeatTask, config: RunnableConfig) -> Command[ReturnNode]:
        request = Request.model_validate(task["request"])
        spec = SeatSpec.model_validate(task["seat"])
        call = AgentCall(
            view=PlayerView.model_validate(task["view"]),
            request=request,
            memory=task["memory"],
            seat=spec,
            seed=task["seed"],
            config=config,
        )
        result = agents[spec.kind](call)
        check_decision(request, result.decision)
        update: dict[str, Any] = {"decisions": {request.id: result.decision.model_dump(mode="json")}}
        if result.memory is not None:
            update["memory"] = {str(request.player): result.memory}
        return Command(update=update, goto=request.phase)  # type: ignore[arg-type]

    return seat
