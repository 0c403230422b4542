"""The features a trained policy reads of an Avalon team: what the player knows and what the quests showed
(docs/envs.md#the-worked-example).

Pure Python over the protocol's view: the player's knowledge (``knowledge``: the players it knows are evil, Merlin's
sight) and the public ``quest_result`` entries of its record (each quest's team, its fail cards, its outcome). Per
player: ``suspicion``, the fail cards of the failed quests it was on shared among their teams (a quest of 2 with 1
fail gives each 0.5); ``trust``, the successful quests it was on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.games.protocol import PlayerView, Request

QUEST_RESULT = "quest_result"
VOTE_FEATURES = ("bias", "known_evil_share", "any_known_evil", "me_on_team", "suspicion_mean", "suspicion_max",
                 "trust_mean", "last_chance", "my_proposal")
"""The features of a team vote, in the order of a vote's weights."""
TEAM_FEATURES = ("known_evil_share", "me_on_team", "suspicion_mean", "suspicion_max", "trust_mean")
"""The features of a team the player may propose, in the order of a proposal's weights (no bias: the softmax over
the teams ignores one)."""
LEARNED = frozenset({"vote_team", "propose_team"})
"""The requests the policy decides (of a good player); every other is the game's rule bot's."""


def remembers(event: dict[str, Any]) -> bool:
    """Whether the features read ``event`` (the quests' results), so a game graph's node keeps it."""
    return event.get("type") == QUEST_RESULT


def known_evil(view: PlayerView) -> set[int]:
    """The players ``view.player`` was told are evil."""
    return {int(k["player"]) for k in view.knowledge if k.get("is") == "evil" and isinstance(k.get("player"), int)}


def quest_marks(view: PlayerView) -> tuple[dict[int, float], dict[int, float]]:
    """``(suspicion, trust)`` per player from the quests' results in the view (module docstring)."""
    suspicion: dict[int, float] = {}
    trust: dict[int, float] = {}
    for event in view.events:
        if event.get("type") != QUEST_RESULT:
            continue
        team = [int(p) for p in event.get("team") or ()]
        if event.get("success"):
            for p in team:
                trust[p] = trust.get(p, 0.0) + 1.0
        elif team:
            share = float(event.get("fails") or 1) / len(team)
            for p in team:
                suspicion[p] = suspicion.get(p, 0.0) + share
    return suspicion, trust


def team_features(view: PlayerView, team: Sequence[int]) -> list[float]:
    """`TEAM_FEATURES` of ``team`` for ``view.player`` (shares and means over the team's members)."""
    evil = known_evil(view)
    suspicion, trust = quest_marks(view)
    n = max(len(team), 1)
    marks = [suspicion.get(p, 0.0) for p in team] or [0.0]
    return [sum(p in evil for p in team) / n, float(view.player in team), sum(marks) / n, max(marks),
            sum(trust.get(p, 0.0) for p in team) / n / 3.0]


def vote_features(view: PlayerView, request: Request) -> list[float]:
    """`VOTE_FEATURES` of the team under vote (``request.subject``)."""
    team = list(request.subject)
    share, me, mean, top, trust = team_features(view, team)
    last = float(request.attempt >= 5)
    mine = float(getattr(view, "leader", None) == view.player)
    return [1.0, share, float(share > 0), me, mean, top, trust, last, mine]
