"""State schema of a game graph (every game).

Channels, kept small because every superstep re-saves the channels that changed:

- inputs, written once: ``config`` (the game's configuration as a dict),
  ``seed``, ``seats`` (one `SeatSpec` dict per player; the setup node fills
  in the default model of model-driven seats);
- ``game``: the ground-truth snapshot of the game state without its log;
- ``events``: the append-only event log, a `DeltaChannel`, so a checkpoint
  stores only the events a step added (plus a periodic snapshot);
- ``requests``: the decisions the game waits for now (dumped `Request`s),
  written by the phase node that asks, cleared once they are applied;
- ``decisions``: the answers collected for them, keyed by request id;
  parallel agent nodes merge into it, and ``apply`` clears it;
- ``memory``: each player's agent memory keyed by player number (as a
  string), merged per key, also a `DeltaChannel`;
- ``delivered``: per player, how many of its visible events its agent has
  been given, so each `Send` carries only the new ones;
- ``prepared``: per player, the last round whose start its agent was told of
  (sent a request or a `roundtable.games.protocol.prepare_round` notice in it),
  so each seat whose kind prepares rounds is told once a round;
- ``result``: the winner and end reason, written at ``game_over``;
- ``beliefs``: where the game probes beliefs (Avalon), the players' stated
  belief in every other player's side, ``{player: {other: P(good)}}`` (keys
  as strings), written at ``game_over`` (`roundtable.graphs.phases.stated_beliefs`);
  absent in games finished before the probe existed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, NotRequired

from langgraph.channels import DeltaChannel
from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict


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


def merge(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Merge dictionaries key by key: parallel answers ``{request_id: decision}``, delivery counts."""
    return {**(left or {}), **(right or {})}


class SeatInput(TypedDict):
    """One seat of the input: ``kind`` (an agent kind), optional ``model`` (a model spec) and ``options``."""

    kind: str
    model: NotRequired[str | None]
    options: NotRequired[dict[str, Any]]


@with_config(ConfigDict(extra="forbid"))
class GameInput(TypedDict):
    """What starts a game (unknown keys are refused).

    Attributes:
        config: the game's configuration, e.g. Avalon's ``{"preset": "bench5"}``
            or ``{"roles": [...], "rules": {"discussion": "none"}}``.
        seed: the game seed, 0 to 2**63 - 1: the deal, the first leader and
            every tie-break derive from it.
        seats: one seat per player, in seat order, e.g. ``[{"kind": "naive"},
            {"kind": "lga", "model": "local"}, ...]``.
    """

    config: dict[str, Any]
    seed: int
    seats: list[SeatInput]


class GameOutput(TypedDict, total=False):
    """What a finished run returns: the inputs, the result, the stated beliefs, the ground truth and the log."""

    config: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    result: dict[str, Any]
    beliefs: dict[str, dict[str, float]]
    game: dict[str, Any]
    events: list[dict[str, Any]]


class GameState(TypedDict, total=False):
    """The game graph's full state (see the module docstring)."""

    config: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    game: dict[str, Any]
    events: Annotated[list[dict[str, Any]], DeltaChannel(extend_log)]
    requests: list[dict[str, Any]]
    decisions: Annotated[dict[str, Any], merge]
    memory: Annotated[dict[str, Any], DeltaChannel(merge_memory)]
    delivered: Annotated[dict[str, int], merge]
    prepared: Annotated[dict[str, int], merge]
    result: dict[str, Any]
    beliefs: dict[str, dict[str, float]]
