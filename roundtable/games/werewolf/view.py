"""What one Werewolf player may know: `view(state, player)`.

The only way information leaves the ground truth for a player: the public
events, the player's own private events (its role; a werewolf's teammates,
their kill votes and the target; the Guard's protection; what the Witch is
told and does; the Seer's checks) and the public status of the table (who is
alive). Other players' roles and night actions and the analysis-only records
never reach it.
"""

from __future__ import annotations

from typing import Literal

from ..protocol import PlayerView, can_see
from .state import WerewolfState


class WerewolfView(PlayerView):
    """Everything a Werewolf player may know at one moment (`PlayerView` plus the table).

    Attributes:
        game: ``werewolf``. round: the day number (night ``d`` opens day ``d``).
        knowledge: what it learned at the start, ``[{"player": q, "is": "werewolf"}]`` (werewolves only).
        alive: the living players, in seat order. dead: the dead, in order of death.
    """

    game: Literal["werewolf"] = "werewolf"
    alive: tuple[int, ...]
    dead: tuple[int, ...]


def view(state: WerewolfState, player: int) -> WerewolfView:
    """The information set of ``player`` in ``state``.

    Raises:
        ValueError: ``player`` is not a seat of this game.
    """
    if player not in state.players:
        raise ValueError(f"player {player} is not at this table (players 1..{len(state.roles)})")
    visible = tuple(e for e in state.events if can_see(e, player))
    role_event = next(e for e in visible if e["type"] == "role" and e["player"] == player)
    knowledge = next((e for e in visible if e["type"] == "knowledge" and e["player"] == player), {"knows": []})
    return WerewolfView(
        player=player,
        role=role_event["role"],
        side=role_event["side"],
        knowledge=tuple(knowledge["knows"]),
        players=len(state.roles),
        role_set=tuple(sorted(r.value for r in state.config.roles)),
        rules=state.config.rules.to_dict(),
        phase=state.phase.value,
        round=state.day,
        alive=state.alive,
        dead=state.dead,
        events=visible,
    )
