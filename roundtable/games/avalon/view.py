"""What one player may know: `view(state, player)`.

This is the only way information leaves the ground truth for a player. It
keeps the public events and the player's own private events (its role, its
knowledge, its own votes and quest cards, talk addressed to it) and the public
status of the table; the role list, other players' cards and the records
kept for analysis never reach it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from .state import AvalonState, Event


class PlayerView(BaseModel):
    """Everything player ``player`` may know at one moment.

    Attributes:
        player: the player's seat number (1-based). role, side: its own role and side.
        knowledge: what it learned in the reveal, ``[{"player": q, "is": label}]``.
        players: number of players. role_set: the roles in play (public in Avalon).
        rules: the rule variants. phase, round, attempt, leader, team: table status.
        quest_results: ``True``/``False`` per finished quest.
        quests: the public outcome of each finished quest,
            ``{"round", "team", "fails", "fails_needed", "success"}``.
        events: the log entries this player can see, oldest first, starting at
            index ``first_event`` of its visible log (0 in a full view; the game
            graph delivers only the entries an agent has not been given yet).
    """

    model_config = ConfigDict(frozen=True)

    player: int
    role: str
    side: str
    knowledge: tuple[dict[str, Any], ...]
    players: int
    role_set: tuple[str, ...]
    rules: dict[str, str]
    phase: str
    round: int
    attempt: int
    leader: int
    team: tuple[int, ...]
    quest_results: tuple[bool, ...]
    quests: tuple[dict[str, Any], ...]
    events: tuple[dict[str, Any], ...]
    first_event: int = 0

    def since(self, first_event: int) -> "PlayerView":
        """The same view carrying only the visible events from index ``first_event`` on."""
        start = max(0, first_event - self.first_event)
        return self.model_copy(update={"events": self.events[start:], "first_event": self.first_event + start})


def can_see(event: Event, player: int) -> bool:
    """Whether ``player`` may see ``event`` (``to`` is ``None`` for public events)."""
    to = event.get("to")
    return to is None or player in to


def view(state: AvalonState, player: int) -> PlayerView:
    """The information set of ``player`` in ``state``.

    Args:
        state: the ground truth.
        player: a seat number, 1..N.

    Raises:
        ValueError: ``player`` is not a seat of this game.
    """
    if player not in state.players:
        raise ValueError(f"player {player} is not at this table (players 1..{len(state.roles)})")
    visible = tuple(e for e in state.events if can_see(e, player))
    role_event = next(e for e in visible if e["type"] == "role" and e["player"] == player)
    knowledge_event = next((e for e in visible if e["type"] == "knowledge" and e["player"] == player), {"knows": []})
    return PlayerView(
        player=player,
        role=role_event["role"],
        side=role_event["side"],
        knowledge=tuple(knowledge_event["knows"]),
        players=len(state.roles),
        role_set=tuple(sorted(r.value for r in state.config.roles)),
        rules=state.config.rules.to_dict(),
        phase=state.phase.value,
        round=state.round,
        attempt=state.attempt,
        leader=state.leader,
        team=state.team,
        quest_results=state.quest_results,
        quests=tuple(
            {k: e[k] for k in ("round", "team", "fails", "fails_needed", "success")}
            for e in state.events
            if e["type"] == "quest_result"
        ),
        events=visible,
    )
