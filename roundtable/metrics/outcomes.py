"""Game-outcome metrics of Avalon (AvalonBench, Light et al. 2023; Lan et al. 2024): ratios of game counts.

Each metric is a proportion ``k / n`` over finished games (`GameFacts`),
reported with Wilson's interval (`roundtable.metrics.intervals.wilson`):

- ``good_win_rate``: games good won / games (AvalonBench's "total win rate"
  of the good side; Lan et al.'s WR by side is `roundtable.metrics.strategy`);
- ``mission_win_rate``: games evil won by three failed quests / games;
- ``assassination_win_rate``: games evil won by naming Merlin / games;
- ``assassination_accuracy``: Merlin hits / assassinations with a target;
- ``quest_success_rate``: quests good won / quests played.

``rounds_per_game`` (quests played per game) is a mean, with a bootstrap interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from roundtable.metrics.facts import MERLIN_ASSASSINATED, THREE_FAILED_QUESTS, GameFacts


@dataclass(frozen=True)
class GameMetric:
    """A proportion over games: ``k(facts)`` successes of ``n(facts)`` trials per game, summed."""

    name: str
    description: str
    k: Callable[[GameFacts], int]
    n: Callable[[GameFacts], int]


GAME_METRICS: tuple[GameMetric, ...] = (
    GameMetric("good_win_rate", "games the good side won / games",
               lambda g: int(g.winner == "good"), lambda g: 1),
    GameMetric("mission_win_rate", "games evil won by three failed quests / games",
               lambda g: int(g.winner == "evil" and g.end_reason == THREE_FAILED_QUESTS), lambda g: 1),
    GameMetric("assassination_win_rate", "games evil won by assassinating Merlin / games",
               lambda g: int(g.end_reason == MERLIN_ASSASSINATED), lambda g: 1),
    GameMetric("assassination_accuracy", "Merlin hits / assassinations with a target",
               lambda g: g.merlin_hits, lambda g: g.assassinations),
    GameMetric("quest_success_rate", "quests succeeded / quests played",
               lambda g: g.good_quests, lambda g: g.quests),
)
