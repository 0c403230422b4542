"""The players' sides in a game record, and the side its belief probe asks about, for the measures that score a
player by side in any game (deduction accuracy, the per-player facts; docs/measures.md#deduction-accuracy).

Every game deals each player a ``role`` event naming its role and side (the protocol's view reads them,
`roundtable.games.protocol.view_fields`), so a record's sides need no game's own role list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roundtable.games import GAMES, LEGACY_GAME


def sides_of(record: Mapping[str, Any]) -> dict[int, str]:
    """``{player: side}`` of ``record``, from its ``role`` events, else (a record that predates them, or one built
    by hand) from its ``roles`` by the game's `roundtable.games.protocol.GameRules.role_side`; ``{}``: no role
    dealt yet.

    Raises:
        ValueError: a role event without a ``side``, or a record with ``roles`` but no role events whose game gives
            no `role_side` (the game id named); a role its game does not know.
    """
    sides: dict[int, str] = {}
    for event in record.get("events") or []:
        if event.get("type") == "role":
            if "side" not in event:
                raise ValueError(f"game {record.get('game_id')!r}: a role event without its side: {event!r}")
            sides[int(event["player"])] = str(event["side"])
    roles = record.get("roles") or {}
    if sides or not roles:
        return sides
    rules = GAMES.get(str(record.get("game") or LEGACY_GAME))
    if rules is None or rules.role_side is None:
        raise ValueError(f"game {record.get('game_id')!r} has roles but no role events to read the sides from")
    return {int(player): rules.role_side(str(role)) for player, role in roles.items()}


def probe_side(record: Mapping[str, Any]) -> str:
    """The side the belief probe of ``record``'s game asks about (`roundtable.games.protocol.GameRules.probe_side`;
    Avalon's ``"good"``, also for a record of a game no longer registered)."""
    rules = GAMES.get(str(record.get("game") or LEGACY_GAME))
    return rules.probe_side if rules is not None else "good"
