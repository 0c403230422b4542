"""What a player's own knowledge settles about a decision: an instrument, not a rule of the game and not an agent's
strategy (docs/agents/checks.md#knowledge-settled-decisions). The aids check a vote against it
(`roundtable.aids.settled`), the Avalon table states it (`roundtable.tables.avalon`) and the play-quality measures
count the votes that follow it (`roundtable.metrics.quality.avalon`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from roundtable.games.avalon import Role, Side


def knowledge_vote(role: Role, voter: int, knowledge: Iterable[Mapping[str, Any]],
                   team: Iterable[int], exposed: int | None = None) -> bool | None:
    """The team vote that the voter's own knowledge decides (True: approve), or None when it decides nothing.

    Merlin: approve a team with no player he sees as evil, reject one with
    such a player. An evil player who knows its teammates (not Oberon):
    approve a team with a member of its side (itself included), reject one
    without, since one fail card fails a quest. Once a missed mid-game shot
    has exposed the Assassin (``exposed``, public), every good player knows
    him as evil: a team with him on it is rejected. Everyone else, and
    Oberon, knows nothing that settles a vote.

    Args:
        role: the voter's role.
        voter: its seat, 1-based.
        knowledge: what it learned in the reveal (`knowledge_of`: ``[{"player": q, "is": label}]``).
        team: the proposed team's seats.
        exposed: the Assassin's seat once a missed mid-game shot exposed him
            (`roundtable.games.avalon.view.AvalonView.exposed_assassin`), else None.
    """
    evil_known = {int(k["player"]) for k in knowledge if k.get("is") == "evil"}
    members = set(team)
    if role is Role.MERLIN:  # he sees the Assassin from the start
        return not (members & evil_known)
    if role.side is Side.EVIL and role is not Role.OBERON:
        return bool(members & (evil_known | {voter}))
    if role.side is Side.GOOD and exposed is not None and exposed in members:
        return False
    return None
