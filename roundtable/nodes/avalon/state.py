"""State schema of the Avalon game graph.

Channels, kept small because every superstep re-saves the channels that changed:

- inputs, written once: ``config`` (role set and variants), ``seed``, and the
  seating: ``agents`` / ``models`` assignment strings or resolved ``seats``;
- ``game``: the ground-truth snapshot of `AvalonState` without its log;
- ``events``: the append-only event log, a `DeltaChannel`, so a checkpoint
  stores only the events a step added (plus a periodic snapshot);
- ``memory``: each player's agent memory keyed by player number (as a string),
  merged per key, also a `DeltaChannel`;
- ``delivered``: per player, how many of its visible events its agent has
  been given, so each `Send` carries only the new ones (an agent keeps what
  it needs of the rest in its memory);
- ``decisions``: the answers collected for the requests in hand, keyed by
  request id; parallel branches merge into it and the phase node clears it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, NotRequired, TypedDict

from langgraph.channels import DeltaChannel

from ..seat import AgentInput


def extend_log(log: list[dict[str, Any]], batches: Sequence[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Append every batch of events, in order (batching-invariant, as `DeltaChannel` requires)."""
    out = list(log)
    for batch in batches:
        out.extend(batch)
    return out


def merge_memory(memory: dict[str, Any], batches: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Later per-player memories replace earlier ones, key by key."""
    out = dict(memory)
    for batch in batches:
        out.update(batch)
    return out


def merge_decisions(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Merge dictionaries key by key: parallel answers ``{request_id: decision}``, delivery counts."""
    return {**(left or {}), **(right or {})}


class AvalonInput(TypedDict):
    """What starts a game.

    Attributes:
        config: `AvalonConfig.to_dict()`. seed: the game seed.
        agents: ``--agents`` assignment string (e.g. ``naive,evil=random``), used when ``seats`` is absent.
        models: ``--model`` assignment string (e.g. ``local`` or ``good=gpt-4o,evil=local``).
        agent_options: ``--agent-option`` strings, ``[TARGET:]KEY=VALUE`` (e.g. ``evil:no_plan=true``).
        seats: resolved seat specifications, one per player (overrides ``agents``/``models``/``agent_options``).
    """

    config: dict[str, Any]
    seed: int
    agents: NotRequired[str]
    models: NotRequired[str]
    agent_options: NotRequired[list[str]]
    seats: NotRequired[list[dict[str, Any]]]


class AvalonGraphState(AvalonInput, total=False):
    """The game graph's full state (see the module docstring)."""

    game: dict[str, Any]
    events: Annotated[list[dict[str, Any]], DeltaChannel(extend_log)]
    memory: Annotated[dict[str, Any], DeltaChannel(merge_memory)]
    delivered: Annotated[dict[str, int], merge_decisions]
    decisions: Annotated[dict[str, Any], merge_decisions]


SeatTask = AgentInput
"""The payload `Send` carries to the ``seat`` node: one request for one player."""
