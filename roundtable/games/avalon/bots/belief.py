"""Belief over hidden sides from private knowledge and quest outcomes.

AvalonBench's rule-based good players (Light et al. 2023) keep every
assignment of good/evil to the other players that is consistent with what they
know, all equally likely, and drop those that a quest outcome rules out. This
module is that bookkeeping; it reads only an `AvalonView` (never votes or talk).
"""

from __future__ import annotations

from itertools import combinations

from roundtable.games.avalon.roles import side_counts
from roundtable.games.avalon.view import AvalonView, known_evil

Assignment = frozenset[int]  # the set of evil players


def consistent_assignments(view: AvalonView) -> list[Assignment]:
    """Every evil set consistent with the player's knowledge and the quest outcomes.

    Knowledge used: the player's own side; players it sees as evil (Merlin,
    evil players) and the Assassin once a missed mid-game shot exposed him
    (`roundtable.games.avalon.view.known_evil`); Percival's pair (exactly one
    of Merlin/Morgana is evil, or the player shown alone is Merlin). Outcome
    rule: a quest with ``k`` fails had at least ``k`` evil players on its team.

    Returns:
        The surviving evil sets; never empty for a view of a real game.
    """
    _, evil_count = side_counts(view.players)
    me = view.player
    evil_seen = known_evil(view)
    if view.side == "evil":
        evil_seen.add(me)
    merlin_pair = [k["player"] for k in view.knowledge if k["is"] == "merlin_or_morgana"]
    known_good = {k["player"] for k in view.knowledge if k["is"] == "merlin"}
    if view.side == "good":
        known_good.add(me)
    quests = [(frozenset(q["team"]), q["fails"]) for q in view.quests]
    unknown = [p for p in range(1, view.players + 1) if p not in evil_seen and p not in known_good]
    result: list[Assignment] = []
    for extra in combinations(unknown, evil_count - len(evil_seen)):
        evil = frozenset(evil_seen).union(extra)
        if merlin_pair and sum(1 for p in merlin_pair if p in evil) != 1:
            continue
        if all(len(team & evil) >= fails for team, fails in quests):
            result.append(evil)
    return result


def good_probability(assignments: list[Assignment], players: int) -> dict[int, float]:
    """Share of surviving assignments in which each player is good, ``{player: p in [0, 1]}``."""
    total = len(assignments) or 1
    return {p: sum(1 for a in assignments if p not in a) / total for p in range(1, players + 1)}


def team_score(assignments: list[Assignment], team: tuple[int, ...]) -> float:
    """Probability that every member of ``team`` is good (share of assignments with no evil on it)."""
    if not assignments:
        return 0.0
    members = set(team)
    return sum(1 for a in assignments if not (members & a)) / len(assignments)
