"""Picks naming a dead player (``dead_named``, docs/measures.md#play-quality), counted alike in every game whose
players die: a game's part gives the dead and the pick's recorded answer, this module counts it."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from roundtable.metrics.quality.result import PlayQuality

CANNOT = re.compile(r"\bplayer\s*(\d+)\s+(?:cannot be chosen|is dead)", re.IGNORECASE)
"""A player a fallback or a check says could not be chosen (``player 5 cannot be chosen``, ``player 5 is dead``)."""


def count_dead_named(decision: dict[str, Any], dead: Collection[int], answer: int | None,
                     quality: PlayQuality) -> None:
    """One pick decision made once a player has died is a case of ``dead_named``; a hit when it names a dead
    player: its recorded ``answer``, or a player its fallback or checks say it could not choose. Nothing is
    counted while no one is dead.

    Args:
        decision: the record's decision (its ``player``, ``kind``, ``fallback``, ``checks``).
        dead: the players dead when it was made.
        answer: the player its recorded answer names, or ``None`` (a pass).
        quality: the measures counted into.
    """
    if not dead:
        return
    notes = " ".join([str(decision.get("fallback") or ""), *map(str, decision.get("checks") or ())])
    named = {int(n) for n in CANNOT.findall(notes)}
    if answer is not None:
        named.add(int(answer))
    hit = sorted(named & set(dead))
    quality.count("dead_named", bool(hit))
    if hit:
        quality.example("dead_named", f"P{decision['player']} {decision['kind']} named dead player "
                                      f"{', '.join(map(str, hit))}")
