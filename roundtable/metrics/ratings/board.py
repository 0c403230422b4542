"""The leaderboard: per entrant, and per entrant and side, the three ratings with bootstrap 95% intervals, the win
rate with Wilson's interval, games played and cost per game (docs/tournaments.md#the-leaderboard).

Rows (`BoardRow`) come for side ``all`` (one rating per entrant, `roundtable.metrics.ratings.systems` fitted with
the entrant as player) and for each side (a second fit whose players are the entrant on that side: compare these
within one side; across sides they also hold the side's advantage). Within a side, rows are ordered by
Bradley-Terry rating (it does not depend on the order of the matches), then by name.

- **Intervals of the ratings**: a seeded percentile bootstrap over matches (`roundtable.metrics.intervals.bootstrap`
  with ``seed`` and ``resamples``): matches drawn with replacement, every system refitted on each draw (the drawn
  matches in key order), the 2.5th and 97.5th percentiles of each player's ratings. A resample is a whole match,
  so the seats of one game, which are not independent, stay together.
- **Win rate**: the sides of games the entrant's side won / the sides of games it sat on (an entrant on both
  sides of one game counts once on each; a draw is no win), with Wilson's 95% interval
  (`roundtable.metrics.intervals.wilson`).
- **Cost per game**: the model usage of the entrant's seats (on that side), per game it played
  (`roundtable.metrics.cost.cost_summary`).

The same matches give the same board: matches are taken in key order, players in name order, and the bootstrap's
generator is seeded.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from roundtable.metrics.cost import cost_summary
from roundtable.metrics.intervals import bootstrap, wilson
from roundtable.metrics.ratings.matches import Match, sorted_matches
from roundtable.metrics.ratings.systems import Key, Prepared, bradley_terry, elo, openskill, prepare, strengths

ALL = "all"
"""The side of the rows that rate an entrant whatever side it sat on."""

RESAMPLES = 1000
"""Bootstrap resamples by default."""

SYSTEMS = ("openskill", "bt", "elo")
"""The ratings of a row, as `fit` names them (OpenSkill's μ, Bradley-Terry on the Elo scale, Elo)."""


@dataclass(frozen=True)
class Interval:
    """A rating and its bootstrap 95% interval (``low``, ``high``; equal to the value for one match)."""

    value: float
    low: float
    high: float


@dataclass(frozen=True)
class BoardRow:
    """One entrant on one side (``all``: any side).

    Attributes:
        entrant, side: who and where.
        games: finished games the entrant played (on that side).
        trials, wins: the sides of games it sat on and those that won (the win rate is ``wins / trials``).
        win_low, win_high: Wilson's 95% interval of the win rate.
        openskill: OpenSkill's μ with its interval; ``openskill_sigma``: its σ after every match.
        bt: the Bradley-Terry rating (Elo scale) with its interval.
        elo: the Elo rating with its interval.
        cost: `roundtable.metrics.cost.cost_summary` of the entrant's seats per game (``calls_per_game``,
            ``prompt_tokens_per_game``, ``completion_tokens_per_game``, ...).
    """

    entrant: str
    side: str
    games: int
    trials: int
    wins: int
    win_low: float
    win_high: float
    openskill: Interval
    openskill_sigma: float
    bt: Interval
    elo: Interval
    cost: dict[str, float] = field(default_factory=dict)

    @property
    def win_rate(self) -> float | None:
        """``wins / trials`` (``None`` without a trial)."""
        return self.wins / self.trials if self.trials else None


@dataclass(frozen=True)
class Board:
    """A leaderboard: its ``rows`` (side ``all`` first, then each side, sorted), the ``games`` rated, the ``draws``
    among them, the bootstrap's ``resamples`` and ``seed``, and ``roles``: ``{entrant: {role: seats held}}``, to
    see how evenly the entrants were rotated (`even_roles`)."""

    rows: list[BoardRow]
    games: int
    draws: int
    resamples: int
    seed: int
    roles: dict[str, dict[str, int]]

    def even_roles(self) -> bool:
        """Whether every entrant held every role equally often."""
        counts = {tuple(sorted(c.items())) for c in self.roles.values()}
        return len(counts) == 1


def fit(prepared: Prepared, order: Sequence[int], start: np.ndarray | None = None) -> list[dict[str, float]]:
    """Every system's rating of each player after the matches ``order``: ``[{system: rating, "openskill_sigma":
    σ}]`` in the order of ``prepared.players`` (`SYSTEMS`); ``start``: Bradley-Terry's starting strengths."""
    skill, bt, points = openskill(prepared, order), bradley_terry(prepared, order, start), elo(prepared, order)
    return [{"openskill": skill[p][0], "openskill_sigma": skill[p][1], "bt": bt[p], "elo": points[p]}
            for p in range(len(prepared.players))]


def leaderboard(matches: Iterable[Match], resamples: int = RESAMPLES, seed: int = 0) -> Board:
    """The board of ``matches`` (see the module docstring).

    Args:
        matches: finished matches of one game (`roundtable.metrics.ratings.matches.record_match`).
        resamples: bootstrap resamples (at least 1).
        seed: the bootstrap's seed.

    Raises:
        MatchError: matches of several games, or the same match twice.
        ValueError: no match, or fewer than one resample.
    """
    ordered = sorted_matches(matches)
    if not ordered:
        raise ValueError("no finished game to rate")
    if resamples < 1:
        raise ValueError(f"resamples must be 1 or more, not {resamples}")
    entrants = sorted({s.entrant for m in ordered for s in m.seats})
    sides = sorted({s.side for m in ordered for s in m.seats})
    rows = _rows(ordered, lambda s: s.entrant, [(e, ALL) for e in entrants], resamples, seed)
    rows += _rows(ordered, lambda s: (s.entrant, s.side),
                  [(e, side) for side in sides for e in entrants], resamples, seed)
    roles: dict[str, Counter[str]] = {e: Counter() for e in entrants}
    for match in ordered:
        for s in match.seats:
            roles[s.entrant][s.role] += 1
    every = sorted({r for c in roles.values() for r in c})
    return Board(rows, len(ordered), sum(1 for m in ordered if m.winner is None), resamples, seed,
                 {e: {r: roles[e][r] for r in every} for e in entrants})


def _rows(matches: list[Match], key: Key, wanted: list[tuple[str, str]], resamples: int,
          seed: int) -> list[BoardRow]:
    """The rows of ``wanted`` ``(entrant, side)`` pairs that played, players named by ``key``."""
    def player(entrant: str, side: str) -> Hashable:
        return entrant if side == ALL else (entrant, side)

    played = {key(s) for m in matches for s in m.seats}
    pairs = [(e, side) for e, side in wanted if player(e, side) in played]
    prepared = prepare(matches, key, [player(e, side) for e, side in pairs])
    indices = list(range(len(matches)))
    point = fit(prepared, indices)
    start = strengths(prepared, indices)
    fits: dict[tuple[int, ...], list[dict[str, float]]] = {}

    def refit(sample: Sequence[float]) -> list[dict[str, float]]:
        drawn = tuple(sorted(int(i) for i in sample))
        if drawn not in fits:  # every player and system shares one resample's fit: the same seed draws the same
            fits[drawn] = fit(prepared, drawn, start)
        return fits[drawn]

    def statistic(p: int, system: str) -> Callable[[Sequence[float]], float]:
        return lambda sample: refit(sample)[p][system]

    rows = []
    for p, ((entrant, side), name) in enumerate(zip(pairs, prepared.players, strict=True)):
        intervals = {}
        for system in SYSTEMS:
            low, high = bootstrap(indices, statistic(p, system), resamples=resamples, seed=seed)
            intervals[system] = Interval(point[p][system], low, high)
        seated = [(m, [s for s in m.seats if key(s) == name]) for m in matches]
        seated = [(m, seats) for m, seats in seated if seats]
        sides_of = [(m, side_) for m, seats in seated for side_ in sorted({s.side for s in seats})]
        wins = sum(1 for m, side_ in sides_of if m.winner == side_)
        low, high = wilson(wins, len(sides_of))
        cost = cost_summary({"usage": {"game": _summed([s.usage for s in seats])}} for _, seats in seated)
        rows.append(BoardRow(entrant, side, len(seated), len(sides_of), wins, low, high, intervals["openskill"],
                             point[p]["openskill_sigma"], intervals["bt"], intervals["elo"], cost))
    return sorted(rows, key=lambda r: (r.side != ALL, r.side, -_rounded(r.bt.value), r.entrant))


def _summed(usages: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """The usages' fields, summed."""
    total: dict[str, float] = {}
    for usage in usages:
        for name, value in usage.items():
            total[name] = total.get(name, 0.0) + value
    return total


def _rounded(value: float) -> float:
    """``value`` to 9 places, so that the order of rows does not hang on the last bits of a float."""
    return round(value, 9) if math.isfinite(value) else value
