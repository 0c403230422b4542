"""The phase nodes of the Avalon game graph.

Every phase node does the same two things, so the game reads as its phases:
on entry it sends one `SeatTask` per pending request to the ``seat`` node
(several at once for simultaneous team votes and quest cards, one for the
proposal, each speaker and the assassination); when the answers are all in,
it applies them with the rules library, records each decision, and routes to
the node of the next phase. Node names are the `Phase` values.
"""

from __future__ import annotations

from typing import Any, Literal

from langgraph.types import Command, Overwrite, Send

from roundtable.games.avalon import AvalonState, Decision, Phase, Request, apply, pending, reveal, view
from roundtable.games.avalon.state import Event
from roundtable.games.rng import rng_for

from .state import AvalonGraphState, SeatTask

PhaseNode = Literal["proposal", "discussion", "team_vote", "quest", "assassination", "game_over"]


def load(state: AvalonGraphState) -> AvalonState:
    """The `AvalonState` held by the graph state (snapshot plus log)."""
    return AvalonState.restore(state["game"], state.get("events") or [])


def advance(before: AvalonState, after: AvalonState, records: list[Event] | None = None) -> dict[str, Any]:
    """State update for a transition: the new snapshot and the events it added (after ``records``)."""
    return {"game": after.snapshot(), "events": (records or []) + list(after.events[len(before.events):])}


def decision_record(decision: Decision, kind: str) -> Event:
    """A hidden (analysis-only) log entry for one decision: action, raw text, fallback, cost."""
    record: Event = {"type": "decision", "to": [], "player": decision.player, "request": decision.request_id,
                     "kind": decision.kind, "agent": kind}
    for key in ("team", "approve", "success", "target", "raw", "fallback"):
        value = getattr(decision, key)
        if value is not None:
            record[key] = list(value) if key == "team" else value
    if decision.kind == "assassinate" and decision.target is None:
        record["target"] = None
    if decision.usage:
        record["usage"] = decision.usage
    return record


def agent_seed(game_seed: int, player: int) -> int:
    """The seed an agent gets for its own tie-breaks: derived from the game seed, which it must not learn
    (the game seed reproduces the deal)."""
    return rng_for(game_seed, "agent", player).getrandbits(62)


def seat_task(state: AvalonGraphState, game: AvalonState, request: Request) -> tuple[Send, int]:
    """The `Send` that asks ``request.player`` to answer ``request``, and the player's new delivery count.

    The view carries only the visible events the player's agent has not been given yet.
    """
    seats = state["seats"]
    full = view(game, request.player)
    delivered = (state.get("delivered") or {}).get(str(request.player), 0)
    task: SeatTask = {
        "request": request.model_dump(mode="json"),
        "view": full.since(delivered).model_dump(mode="json"),
        "memory": (state.get("memory") or {}).get(str(request.player), {}),
        "seat": seats[request.player - 1],
        "seed": agent_seed(game.seed, request.player),
    }
    return Send("seat", task), len(full.events)


def play_phase(state: AvalonGraphState) -> Command[Any]:
    """Ask for the pending decisions, or apply them once all have arrived."""
    game = load(state)
    requests = pending(game)
    answers = state.get("decisions") or {}
    missing = [r for r in requests if r.id not in answers]
    if missing:
        tasks = [seat_task(state, game, r) for r in missing]
        delivered = {str(r.player): count for r, (_, count) in zip(missing, tasks)}
        return Command(update={"delivered": delivered}, goto=[send for send, _ in tasks])
    decisions = {r.player: Decision.model_validate(answers[r.id]) for r in requests}
    kinds = [s["kind"] for s in state["seats"]]
    records = [decision_record(d, kinds[d.player - 1]) for d in decisions.values()]
    after = apply(game, decisions)
    update = advance(game, after, records) | {"decisions": Overwrite({})}
    return Command(update=update, goto=after.phase.value)


def reveal_node(state: AvalonGraphState) -> Command[Literal["proposal", "discussion"]]:
    """Reveal: each player privately learns its role's knowledge; round 1 opens."""
    game = load(state)
    after = reveal(game)
    return Command(update=advance(game, after), goto=after.phase.value)


def proposal(state: AvalonGraphState) -> Command[Literal["seat", "discussion", "team_vote", "quest"]]:
    """Team proposal: the leader names exactly ``team_size(round)`` players."""
    return play_phase(state)


def discussion(state: AvalonGraphState) -> Command[Literal["seat", "discussion", "proposal"]]:
    """Discussion: players speak in turn, one `seat` call per speaker."""
    return play_phase(state)


def team_vote(state: AvalonGraphState) -> Command[Literal["seat", "proposal", "discussion", "quest", "game_over"]]:
    """Team vote: every player votes at once (parallel `Send`); a strict majority approves."""
    return play_phase(state)


def quest(state: AvalonGraphState) -> Command[
    Literal["seat", "proposal", "discussion", "assassination", "game_over"]
]:
    """Quest: the team members play their cards at once; only the number of fails is public."""
    return play_phase(state)


def assassination(state: AvalonGraphState) -> Command[
    Literal["seat", "assassination", "proposal", "discussion", "game_over"]
]:
    """Assassination: evil talk among themselves, then the Assassin names a player."""
    return play_phase(state)


def game_over(state: AvalonGraphState) -> dict[str, Any]:
    """Game over: the winner and the reason are in the log; nothing is left to decide."""
    game = load(state)
    assert game.phase is Phase.OVER, f"game_over reached in phase {game.phase.value}"
    return {}
