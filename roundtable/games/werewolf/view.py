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

from roundtable.games.protocol import PlayerView, view_fields
from roundtable.games.werewolf.state import WerewolfState


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
    return WerewolfView(
        **view_fields(state.events, player, len(state.roles), [r.value for r in state.config.roles],
                      state.config.rules.to_dict()),
        phase=state.phase.value,
        round=state.day,
        alive=state.alive,
        dead=state.dead,
    )
