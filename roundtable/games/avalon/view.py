"""What one Avalon player may know: `view(state, player)`.

This is the only way information leaves the ground truth for a player. It
keeps the public events and the player's own private events (its role, its
knowledge, its own votes and quest cards, talk addressed to it) and the public
status of the table; the role list, other players' cards and the records
kept for analysis never reach it.
"""

from __future__ import annotations

from typing import Any, Literal

from ..protocol import PlayerView, view_fields
from .state import AvalonState


class AvalonView(PlayerView):
    """Everything an Avalon player may know at one moment (`PlayerView` plus the table).

    Attributes:
        game: ``avalon``.
        knowledge: what it learned in the reveal, ``[{"player": q, "is": label}]``
            with label ``evil``, ``merlin_or_morgana`` or ``merlin``.
        round: quest number 1..5. attempt: proposal number 1..5 in the round.
        leader: the current leader. team: the team proposed now (empty before a proposal).
        quest_results: ``True``/``False`` per finished quest.
        quests: the public outcome of each finished quest,
            ``{"round", "team", "fails", "fails_needed", "success"}``.
    """

    game: Literal["avalon"] = "avalon"
    attempt: int
    leader: int
    team: tuple[int, ...]
    quest_results: tuple[bool, ...]
    quests: tuple[dict[str, Any], ...]


def view(state: AvalonState, player: int) -> AvalonView:
    """The information set of ``player`` in ``state``.

    Args:
        state: the ground truth.
        player: a seat number, 1..N.

    Raises:
        ValueError: ``player`` is not a seat of this game.
    """
    return AvalonView(
        **view_fields(state.events, player, len(state.roles), [r.value for r in state.config.roles],
                      state.config.rules.to_dict()),
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
    )
