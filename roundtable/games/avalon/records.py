"""Avalon's views of its log in a game record (docs/games/avalon.md#what-the-log-records)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.protocol import Event, fields_of


def record_views(events: Sequence[Event]) -> dict[str, Any]:
    """Proposals, votes, quest cards and outcomes, the assassination and the utterances, each a list of dicts in
    log order (the assassination: the last attempt, or ``None``)."""
    return {
        "proposals": fields_of(events, "proposal", "round", "attempt", "leader", "team", "final"),
        "votes": fields_of(events, "vote_team", "round", "attempt", "player", "approve"),
        "vote_results": fields_of(events, "vote_result", "round", "attempt", "team", "approvals", "approved"),
        "quest_cards": fields_of(events, "quest_card", "round", "player", "success"),
        "quests": fields_of(events, "quest_result", "round", "team", "fails", "fails_needed", "success"),
        "assassination": next(iter(fields_of(events, "assassination", "assassin", "target", "hit")[-1:]), None),
        "utterances": fields_of(events, "utterance", "speaker", "phase", "round", "attempt", "text", "to"),
    }
