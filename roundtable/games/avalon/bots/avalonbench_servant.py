"""AvalonBench's naive Servant as its code computes it, for the ``avalonbench`` flavour of the naive bots
(docs/agents/naive.md#the-avalonbench-flavour).

Source: ``NaiveServant`` in ``src/server/tasks/avalon/agents/baseline_agents.py`` of
github.com/jonathanmli/Avalon-LLM. Seats here are that code's, 0-based; its team lists, float sums and
orderings are kept as they are, since the Servant picks among teams whose preferences compare equal
with ``==`` and draws from the list in that order:

- the assignments of sides (0 evil, 1 good) are listed first seat first, evil before good
  (``generate_possible_player_sides``), all equally likely;
- after every quest, the assignments with fewer evil players on its team than it had fails get
  probability 0 and the rest are divided by their sum (after a successful quest too);
- a team's preference is the sum, in that order, of the probabilities of the assignments in which its
  whole team is good (``generate_team_preferences``), teams in ``itertools.combinations`` order;
- the most preferred teams are those whose preference equals the largest; among several, the subsets of
  the *largest* successful team (the first of the largest size: a team replaces it only when strictly
  larger), else its supersets, else all of them; with no successful quest yet, ``list(set(teams))``, in
  the order CPython's set iterates those frozensets (``find_most_prefered_teams``).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

Team = frozenset[int]
"""A team as AvalonBench's code holds it: a frozenset of 0-based seats."""


def possible_sides(sides: list[int], evils: int) -> list[list[int]]:
    """Every completion of ``sides`` (``-1`` unknown) with ``evils`` more evil seats, in AvalonBench's order.

    Args:
        sides: one entry per seat, 0-based: ``0`` evil, ``1`` good, ``-1`` unknown.
        evils: how many of the unknown seats are evil.
    """
    if -1 not in sides:
        return [sides]
    first = sides.index(-1)
    goods = sides.count(-1) - evils
    out: list[list[int]] = []
    for side in (0, 1):
        if (side == 0 and evils == 0) or (side == 1 and goods == 0):
            continue
        completed = sides.copy()
        completed[first] = side
        out.extend(possible_sides(completed, evils - 1 if side == 0 else evils))
    return out


@dataclass
class ServantBelief:
    """What AvalonBench's Servant holds after some quests.

    Attributes:
        assignments: every side assignment it started with (`possible_sides`), 0-based seats.
        probabilities: one per assignment, summing to 1 (an assignment ruled out holds the integer 0, as there).
        largest_success: the largest successful team so far (the first of that size), or None.
    """

    assignments: list[list[int]]
    probabilities: list[float]
    largest_success: Team | None


def servant_belief(players: int, seat: int, evils: int, quests: list[tuple[Team, int]]) -> ServantBelief:
    """The Servant's belief after ``quests``, updated one quest at a time as ``observe_mission`` does.

    Args:
        players: the number of seats.
        seat: the Servant's own seat, 0-based (the one seat it knows to be good).
        evils: the number of evil players in the game.
        quests: every finished quest in order, ``(team, fails)``.
    """
    sides = [-1] * players
    sides[seat] = 1
    assignments = possible_sides(sides, evils)
    probabilities: list[float] = [1 / len(assignments)] * len(assignments)
    largest: Team | None = None
    for team, fails in quests:
        if fails == 0 and (largest is None or len(team) > len(largest)):
            largest = team
        for index, assignment in enumerate(assignments):
            if sum(assignment[i] == 0 for i in team) < fails:
                probabilities[index] = 0
        try:
            probabilities = [p / sum(probabilities) for p in probabilities]
        except ZeroDivisionError:  # their code's fallback; no real game reaches it
            probabilities = [0.25 for _ in probabilities]
    return ServantBelief(assignments, probabilities, largest)


def team_preferences(belief: ServantBelief, players: int, size: int) -> dict[Team, float]:
    """``{team: preference}`` for every team of ``size``, in ``combinations`` order: the probability, summed
    assignment by assignment, that the whole team is good."""
    teams = [frozenset(team) for team in combinations(range(players), size)]
    preferences: list[float] = [0] * len(teams)
    for assignment, probability in zip(belief.assignments, belief.probabilities, strict=True):
        for index, team in enumerate(teams):
            if all(assignment[i] == 1 for i in team):
                preferences[index] += probability
    return dict(zip(teams, preferences, strict=True))


def most_preferred(preferences: dict[Team, float], largest_success: Team | None) -> list[Team]:
    """The teams the Servant approves and draws its proposal from, in the order it draws from them."""
    best = max(preferences.values())
    top = [team for team, preference in preferences.items() if preference == best]
    if len(top) == 1:
        return top
    if largest_success is not None:
        return ([t for t in top if t.issubset(largest_success)]
                or [t for t in top if largest_success.issubset(t)] or top)
    return list(set(top))

