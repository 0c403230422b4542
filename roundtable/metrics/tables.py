"""Every Avalon metric of a set of records, per condition and group, with 95% intervals.

`measure_table` turns ``{condition: [finished records]}`` into `Measure`
rows: the game-outcome metrics (`roundtable.metrics.outcomes`) per condition,
the per-player metrics (`roundtable.metrics.strategy`) per condition and per
group (``all``, ``side``, ``role``, ``kind`` (agent kind), ``model``), and the
mean quests per game with a bootstrap interval. Proportions are pooled
(summed numerators over summed denominators) with Wilson's interval; a group
with no trial has value ``None``. Rows come in a fixed order (conditions as
given, metrics as declared, groups sorted), so the same records give the same
table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from roundtable.metrics.deduction import METRICS as DEDUCTION_METRICS
from roundtable.metrics.facts import PlayerFacts, game_facts, player_facts
from roundtable.metrics.intervals import bootstrap, mean, wilson
from roundtable.metrics.outcomes import GAME_METRICS
from roundtable.metrics.strategy import PLAYER_METRICS, PlayerMetric

R = TypeVar("R", bound=Mapping[str, Any])
"""A game record (a dict, or any mapping)."""

GROUPS = ("all", "side", "role", "kind", "model")
"""What per-player metrics are grouped by (``all``: every player of the condition)."""


@dataclass(frozen=True)
class Measure:
    """One metric of one group of one condition.

    ``k`` / ``n``: pooled successes and trials (for a mean: the sum and the number of games); ``value``:
    ``k / n`` (``None`` when ``n`` is 0); ``low``, ``high``: the 95% interval (Wilson, or bootstrap for
    means); ``games``: finished games behind it; ``interval``: ``wilson`` or ``bootstrap``.
    """

    metric: str
    condition: str
    group_by: str
    group: str
    k: float
    n: float
    value: float | None
    low: float | None
    high: float | None
    games: int
    interval: str = "wilson"


def proportion(metric: str, condition: str, group_by: str, group: str, k: int, n: int, games: int) -> Measure:
    """``k / n`` of one group with its Wilson 95% interval (value and interval ``None`` when ``n`` is 0)."""
    low, high = wilson(k, n)
    return Measure(metric, condition, group_by, group, k, n, k / n if n else None,
                   low if n else None, high if n else None, games)


def measure_table(records: Mapping[str, Iterable[dict[str, Any]]], groups: tuple[str, ...] = GROUPS) -> list[Measure]:
    """All metrics of finished ``records`` per condition (see the module docstring).

    Args:
        records: ``{condition: records}``; records whose ``status`` is not ``finished`` are left out.
        groups: the per-player groupings to report.

    Returns:
        `Measure` rows, in a deterministic order.
    """
    rows: list[Measure] = []
    for condition, items in records.items():
        finished = finished_records(items)
        games = [game_facts(r) for r in finished]
        for metric in GAME_METRICS:
            k, n = sum(metric.k(g) for g in games), sum(metric.n(g) for g in games)
            rows.append(proportion(metric.name, condition, "all", "all", k, n, len(games)))
        lengths = [float(g.quests) for g in games]
        low, high = bootstrap(lengths) if lengths else (None, None)
        rows.append(Measure("quests_per_game", condition, "all", "all", sum(lengths), len(lengths),
                            mean(lengths) if lengths else None, low, high, len(games), "bootstrap"))
        rows += player_measures(condition, [p for r in finished for p in player_facts(r)], PLAYER_METRICS, groups)
    return rows


def finished_records(records: Iterable[R]) -> list[R]:
    """The records whose ``status`` is ``finished``, by game id (the order every table pools them in)."""
    return sorted((r for r in records if r.get("status") == "finished"), key=lambda r: str(r.get("game_id")))


def player_measures(condition: str, players: Iterable[PlayerFacts], metrics: Iterable[PlayerMetric],
                    groups: tuple[str, ...] = GROUPS) -> list[Measure]:
    """Per-player ``metrics`` of ``condition``'s ``players`` pooled per group: for each metric and each way of
    grouping (``groups``), one row per group value among the players the metric applies to, groups sorted."""
    players = list(players)
    rows: list[Measure] = []
    for metric in metrics:
        for group_by in groups:
            keyed: dict[str, list[PlayerFacts]] = {}
            for p in players:
                if metric.applies(p):
                    keyed.setdefault("all" if group_by == "all" else str(getattr(p, group_by)), []).append(p)
            for group in sorted(keyed):
                members = keyed[group]
                if metric.per_side:
                    members = list({(p.game_id, p.side): p for p in members}.values())
                rows.append(proportion(metric.name, condition, group_by, group, sum(metric.k(p) for p in members),
                                        sum(metric.n(p) for p in members), len({p.game_id for p in members})))
    return rows


def deduction_accuracy(records: Mapping[str, Iterable[dict[str, Any]]],
                       groups: tuple[str, ...] | None = None) -> list[Measure]:
    """Deduction accuracy and its trivial baseline per condition and group (`roundtable.metrics.deduction`): the
    ``deduction_accuracy`` and ``deduction_baseline`` rows of `measure_table`, alone.

    Args:
        records: ``{condition: records}``; only finished ones count.
        groups: the groupings (default `GROUPS`).

    Returns:
        `Measure` rows in a fixed order; ``n`` is the number of guesses (0, value ``None``: no beliefs recorded).
    """
    metrics = [m for m in PLAYER_METRICS if m.name in DEDUCTION_METRICS]
    return [row for condition, items in records.items() for row in player_measures(
        condition, [p for r in finished_records(items) for p in player_facts(r)], metrics, groups or GROUPS)]


def find(rows: Iterable[Measure], metric: str, condition: str | None = None, group_by: str = "all",
         group: str = "all") -> Measure | None:
    """The first row of ``rows`` for ``metric`` (and ``condition``, ``group_by``, ``group``), or ``None``."""
    for row in rows:
        if row.metric == metric and row.group_by == group_by and row.group == group and (
                condition is None or row.condition == condition):
            return row
    return None
