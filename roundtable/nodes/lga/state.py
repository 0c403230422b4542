"""State of the ``lga`` agent graph.

Input (one decision): ``view`` (`PlayerView` as a dict; it may carry only the
events not delivered before, see ``PlayerView.first_event``), ``request``
(`Request` dict), ``memory`` (the agent's memory after its previous decision,
``{}`` at first), ``seat`` (`SeatSpec` dict) and ``seed`` (the game seed).

Output: ``decision`` (`Decision` dict) and ``memory``.

Working channels, written by the nodes of one decision:

- ``action``: the action read so far (``team`` / ``approve`` / ``success`` /
  ``target`` (+ ``passed``)), ``None`` before the act step;
- ``words``: the words read so far (``None``: none yet);
- ``retry``: the team named was too short and the step that asked will ask again;
- ``attempts``: how many times the action has been asked for;
- ``raw``, ``problems``, ``usage``: appended by each call: raw reply texts,
  problems found in them (fallback reasons), per-call usage records.

The memory pool (``memory``) is described in `roundtable.nodes.lga.memory`.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from ..seat import AgentInput


LgaInput = AgentInput
"""What the agent graph takes: one decision's inputs (all JSON-ready)."""


class LgaOutput(TypedDict):
    """What the agent graph returns: the decision and the updated memory."""

    decision: dict[str, Any]
    memory: dict[str, Any]


class LgaState(LgaInput, total=False):
    """The agent graph's full state (see the module docstring)."""

    action: dict[str, Any] | None
    words: str | None
    retry: bool
    attempts: int
    raw: Annotated[list[str], operator.add]
    problems: Annotated[list[str], operator.add]
    usage: Annotated[list[dict[str, Any]], operator.add]
    decision: dict[str, Any]
