"""Three rating systems over the same matches: OpenSkill, Bradley-Terry and Elo (docs/tournaments.md#ratings).

Each rates *players* named by a key function of a seat: the entrant (one rating per entrant, whatever side it
sat on), or the entrant on one side (a rating per entrant and side). A match is two teams, its sides, each the
keys of its seats (an entrant holding two seats of a side counts twice: the team's strength is its seats'); the
winning side beats the other, a draw ties them.

- **OpenSkill** (Joshy, *OpenSkill: A faster asymmetric multi-team, multiplayer rating system*, JOSS 2024,
  https://doi.org/10.21105/joss.05901; the ``openskill`` library's Plackett-Luce model, μ 25, σ 25/3): matches
  are rated one after another in key order, both teams at once. A player holding several seats of a match takes
  the sum of its seats' μ changes and the smallest of their σ. Two choices of ours: the drift τ is 0, since an
  entrant (a fixed bot or model) does not change during a tournament, so σ shrinks with every match; and each side
  fields one more player, the side itself, rated with the entrants, so that what a side wins by the game's own
  balance (and by its number of seats: OpenSkill adds a team's μ) is learned as the side's rating rather than
  charged to its entrants, as a home advantage is.
- **Bradley-Terry** (Bradley and Terry, *Rank analysis of incomplete block designs*, Biometrika 39, 1952): a
  match is reduced to pairwise comparisons, each seat of the winning side beating each seat of the losing side
  whose key differs (as Kaggle Game Arena reduces its team games, https://www.kaggle.com/game-arena); a draw gives
  none. The strengths are fitted by maximum likelihood with ``choix`` (I-LSR, Maystre and Grossglauser, NeurIPS
  2015) under a light prior (`BT_ALPHA`, which keeps an entrant that never lost finite), independent of the
  order of the matches, and given on the Elo scale: ``1500 + 400 / ln 10 * (θ - mean θ)``, so that 400 points
  are odds of 10 to 1 in one comparison.
- **Elo** (Elo, *The Rating of Chessplayers, Past and Present*, 1978), for boards that quote it: the same
  comparisons (a draw counts half a win each way), matches in key order, each player moved by ``K`` times the
  mean of its comparisons' (score - expected score) from the ratings before the match; start 1500, `ELO_K`.

`prepare` reads the matches once for a set of players; each system then rates any selection of them (the
bootstrap's resamples) by index.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from openskill.models import PlackettLuce, PlackettLuceRating

from roundtable.metrics.ratings.matches import Match, Seat

Key = Callable[[Seat], Hashable]
"""Who a seat's result counts for: ``lambda s: s.entrant``, or ``lambda s: (s.entrant, s.side)``."""

BT_ALPHA = 0.1
"""choix's regularization: every pair of players starts with this rate of comparisons each way (a prior toward
equal strengths that more games outweigh)."""

ELO_START, ELO_K = 1500.0, 16.0
"""Elo's starting rating and its K factor (points per match at most)."""

ELO_SCALE = 400 / math.log(10)
"""Elo points per unit of natural-log strength."""

_MODEL = PlackettLuce(tau=0.0)


@dataclass(frozen=True)
class Prepared:
    """Matches read for a list of ``players`` (indices into it below).

    Attributes:
        players: who is rated, in a fixed order.
        sides: the sides seated in any match, sorted (OpenSkill's side players are ``len(players) + i``).
        teams: per match, its sides (sorted) as the player indices of their seats.
        match_sides: per match, its sides, sorted.
        ranks: per match, each side's rank (0 the winner; all 0 in a draw).
        comparisons: per match, ``(a, b, score of a)`` for each seat ``a`` and seat ``b`` on a later side with
            another player: 1 when ``a``'s side won, 0 when ``b``'s did, 0.5 in a draw.
        decided: per match, ``winner * len(players) + loser`` of its comparisons with a winner.
    """

    players: list[Hashable]
    sides: list[str]
    teams: list[list[list[int]]]
    match_sides: list[list[str]]
    ranks: list[list[float]]
    comparisons: list[list[tuple[int, int, float]]]
    decided: list[np.ndarray]


def prepare(matches: Sequence[Match], key: Key, players: Sequence[Hashable]) -> Prepared:
    """``matches`` read for ``players`` (every key of their seats must be one of them)."""
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    teams, ranks, comparisons, decided = [], [], [], []
    for match in matches:
        sides = match.sides
        team = [[index[key(s)] for s in match.seats if s.side == side] for side in sides]
        teams.append(team)
        ranks.append([0.0] * len(sides) if match.winner is None else [
            0.0 if side == match.winner else 1.0 for side in sides])
        pairs = []
        for i, side in enumerate(sides):
            score = 0.5 if match.winner is None else 1.0 if match.winner == side else 0.0
            pairs += [(a, b, score) for later in team[i + 1:] for a in team[i] for b in later if a != b]
        comparisons.append(pairs)
        decided.append(np.array([a * n + b if score == 1.0 else b * n + a for a, b, score in pairs if score != 0.5],
                                dtype=np.int64))
    return Prepared(list(players), sorted({s.side for m in matches for s in m.seats}), teams,
                    [m.sides for m in matches], ranks, comparisons, decided)


def openskill(prepared: Prepared, order: Sequence[int]) -> list[tuple[float, float]]:
    """OpenSkill ratings after the matches ``order`` (indices, rated in that order): ``(μ, σ)`` per player (one
    that played no match keeps the start), then per side (the side players, see the module docstring)."""
    ratings = [(_MODEL.mu, _MODEL.sigma)] * (len(prepared.players) + len(prepared.sides))
    side_player = {side: len(prepared.players) + i for i, side in enumerate(prepared.sides)}
    pool: dict[tuple[int, int], PlackettLuceRating] = {}
    for m in order:
        if len(prepared.teams[m]) < 2:
            continue
        team = [[*seats, side_player[side]] for seats, side in zip(prepared.teams[m], prepared.match_sides[m],
                                                                   strict=True)]
        rated = _MODEL.rate([[_seat_rating(pool, i, j, ratings[p]) for j, p in enumerate(side)]
                             for i, side in enumerate(team)], ranks=prepared.ranks[m])
        moved: dict[int, list[tuple[float, float]]] = defaultdict(list)
        for side, after in zip(team, rated, strict=True):
            for p, new in zip(side, after, strict=True):
                moved[p].append((new.mu, new.sigma))
        for p, news in moved.items():
            mu = ratings[p][0]
            ratings[p] = (mu + sum(new_mu - mu for new_mu, _ in news), min(sigma for _, sigma in news))
    return ratings


def _seat_rating(pool: dict[tuple[int, int], PlackettLuceRating], team: int, seat: int,
                 rating: tuple[float, float]) -> PlackettLuceRating:
    """The rating object of a team's seat, reused from match to match (``rate`` copies what it is given; creating
    one costs a fresh UUID), set to ``rating``."""
    if (team, seat) not in pool:
        pool[(team, seat)] = _MODEL.rating()
    held = pool[(team, seat)]
    held.mu, held.sigma = rating
    return held


def strengths(prepared: Prepared, order: Sequence[int], start: np.ndarray | None = None) -> np.ndarray:
    """Bradley-Terry log-strengths θ (mean 0) after the matches ``order``; ``start``: where the fit begins (the
    same maximum whatever the start, up to choix's tolerance)."""
    n = len(prepared.players)
    if n < 2:
        return np.zeros(n)
    chosen = [prepared.decided[m] for m in order]
    flat = np.concatenate(chosen) if chosen else np.zeros(0, dtype=np.int64)
    wins = np.bincount(flat, minlength=n * n).reshape(n, n).astype(float)
    import choix  # here, not at the top: it loads scipy.stats (0.7 s), which every CLI command would pay

    theta = choix.ilsr_pairwise_dense(wins, alpha=BT_ALPHA, initial_params=start)
    return np.asarray(theta - theta.mean(), dtype=float)


def bradley_terry(prepared: Prepared, order: Sequence[int], start: np.ndarray | None = None) -> list[float]:
    """Bradley-Terry ratings on the Elo scale (see the module docstring), per player, mean 1500."""
    return [ELO_START + ELO_SCALE * float(t) for t in strengths(prepared, order, start)]


def elo(prepared: Prepared, order: Sequence[int]) -> list[float]:
    """Elo ratings after the matches ``order`` (rated in that order; see the module docstring), per player."""
    ratings = [ELO_START] * len(prepared.players)
    for m in order:
        change: dict[int, list[float]] = defaultdict(list)
        for a, b, score in prepared.comparisons[m]:
            expected = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
            change[a].append(score - expected)
            change[b].append(expected - score)
        for p, deltas in change.items():
            ratings[p] += ELO_K * sum(deltas) / len(deltas)
    return ratings
