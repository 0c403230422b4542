"""What the kinds that keep a memory of the game share: which events are new to a player, and Avalon's key facts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roundtable.games.protocol import PlayerView

FACT_TYPES = frozenset({"vote_result", "team_approved", "quest_result", "assassination", "game_over"})
"""Avalon's key Host facts: the events a memory keeps beyond the round they happened in."""

Narrate = Callable[[dict[str, Any]], "str | None"]
"""``narrate(event) -> text or None``: the game's narrator for this player (`roundtable.prompts.narrator`)."""



def new_events(memory: dict[str, Any], view: PlayerView) -> tuple[tuple[dict[str, Any], ...], int]:
    """The view's events not read before, and the new read count.

    A view may hold the whole visible log (``first_event`` 0) or only the
    entries not delivered before; either way the events at visible-log index
    ``memory["seen"]`` and later are new.
    """
    seen = int(memory.get("seen") or 0)
    start = max(0, seen - view.first_event)
    return view.events[start:], max(seen, view.first_event + len(view.events))
