"""Secret Hitler's views of its log in a game record (docs/games/secret-hitler.md#what-the-log-records)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.protocol import Event, fields_of
from roundtable_secret_hitler.view import governments

ACTIONS = ("investigated", "special_election", "execution")
"""The executive actions' public events."""


def record_views(events: Sequence[Event]) -> dict[str, Any]:
    """Every nomination, vote and election result, every elected government with what it enacted (or ``vetoed``),
    the policies in the order they reached the tracks (``by``: ``government`` or ``chaos``), the executive actions
    (``{"round", "action", "president", "target"}``), every statement, and ``rounds`` (``None`` while playing)."""
    policies = [{"round": e["round"], "policy": e["policy"], "by": "government" if e["type"] == "enact" else "chaos"}
                for e in events if e["type"] in ("enact", "chaos")]
    actions = [{"round": e["round"], "action": e["type"], "president": e["president"],
                "target": e.get("target", e.get("chosen"))} for e in events if e["type"] in ACTIONS]
    over = next((e for e in events if e["type"] == "game_over"), None)
    return {
        "nominations": fields_of(events, "nomination", "round", "president", "chancellor"),
        "votes": fields_of(events, "vote", "round", "player", "ja"),
        "elections": fields_of(events, "election", "round", "president", "chancellor", "ja", "nein", "elected"),
        "governments": list(governments(tuple(events))),
        "policies": policies,
        "actions": actions,
        "utterances": fields_of(events, "utterance", "speaker", "phase", "round", "text", "to"),
        "rounds": None if over is None else int(over["round"]),
    }
