"""Werewolf's views of its log in a game record (docs/games/werewolf.md#what-the-log-records)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.protocol import Event, fields_of

NIGHT_ACTIONS = {"kill": "kill", "protect": "protect", "save": "save", "poison": "poison", "seer_result": "see"}
"""The night's events, by the action each records."""


def game_days(events: Sequence[Event]) -> int | None:
    """How many days the game lasted (the day of its ``game_over`` event), or ``None`` when it is not over."""
    over = next((e for e in events if e.get("type") == "game_over"), None)
    return None if over is None else int(over["day"])


def record_views(events: Sequence[Event]) -> dict[str, Any]:
    """Every night action ``{"day", "action": kill|protect|save|poison|see, "by", "target"}`` (passes as ``target``
    ``None``; ``saved`` for a save, ``werewolf`` for a check), each night's outcome, the deaths, every statement,
    every elimination vote and each day's result, and ``days`` (the game's length in days, ``None`` while it is
    not over)."""
    actions = [{"day": e["day"], "action": NIGHT_ACTIONS[e["type"]], "by": e["by"], "target": e["target"]}
               | {k: e[k] for k in ("saved", "werewolf") if k in e}
               for e in events if e["type"] in NIGHT_ACTIONS]
    return {
        "night_actions": actions,
        "night_results": fields_of(events, "night_result", "day", "target", "protected", "saved", "poisoned",
                                   "deaths"),
        "deaths": fields_of(events, "deaths", "day", "players"),
        "votes": fields_of(events, "eliminate", "day", "player", "target"),
        "vote_results": fields_of(events, "vote_result", "day", "tally", "eliminated"),
        "utterances": fields_of(events, "utterance", "speaker", "phase", "day", "text", "to"),
        "days": game_days(events),
    }
