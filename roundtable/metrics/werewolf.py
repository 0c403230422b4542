"""Werewolf's measures (Xu et al. 2023; docs/measures.md#werewolf), pure functions of game records, no model.

- **village win rate**: games the village side won / finished games (a draw,
  ``max_days`` reached, counts as a game the village did not win), with
  Wilson's 95% interval;
- **game length**: days per finished game (a day is a night and the daytime
  after it; the game's last day is the day of its ``game_over`` event), its
  mean with a seeded bootstrap 95% interval.

Both also against the size of the experience pool each game was played with
(`werewolf_pool_table`; pool sizes in games, `roundtable.metrics.pools`).

A record is any mapping with ``events`` (the game's log, as
`roundtable.store.records.build_record` writes it); unfinished games are left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from roundtable.games.werewolf import records
from roundtable.metrics.intervals import bootstrap, mean, wilson
from roundtable.metrics.pools import STEP, pool_bin, pool_size
from roundtable.metrics.tables import Measure, finished_records


def game_over(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The record's ``game_over`` event, or ``None`` for an unfinished game."""
    return next((e for e in record.get("events") or [] if e.get("type") == "game_over"), None)


def game_days(record: Mapping[str, Any]) -> int | None:
    """How many days the game lasted (the day of its end), or ``None`` when it is not over
    (`roundtable.games.werewolf.records.game_days` over the record's events)."""
    return records.game_days(record.get("events") or [])


@dataclass(frozen=True)
class WerewolfOutcomes:
    """Xu et al.'s measures over a set of Werewolf games.

    Attributes:
        games: finished games counted. village_wins, werewolf_wins, draws: games each ended with.
        days: the length in days of each finished game, in record order.
    """

    games: int
    village_wins: int
    werewolf_wins: int
    draws: int
    days: tuple[int, ...]

    @property
    def village_win_rate(self) -> float | None:
        """Village wins / games (``None`` with no games)."""
        return self.village_wins / self.games if self.games else None

    @property
    def village_win_interval(self) -> tuple[float, float]:
        """Wilson's 95% interval of the village win rate."""
        return wilson(self.village_wins, self.games)

    @property
    def mean_days(self) -> float | None:
        """Average game length in days (``None`` with no games)."""
        return mean(self.days) if self.days else None

    @property
    def days_interval(self) -> tuple[float, float]:
        """Seeded percentile-bootstrap 95% interval of the mean length in days."""
        return bootstrap(self.days)


def werewolf_outcomes(records: Iterable[Mapping[str, Any]]) -> WerewolfOutcomes:
    """Village win rate and game length over ``records`` (finished games only).

    Raises:
        ValueError: a finished game whose winner is not ``village``, ``werewolves`` or none (a draw).
    """
    wins = {"village": 0, "werewolves": 0, None: 0}
    days: list[int] = []
    for record in records:
        over = game_over(record)
        if over is None:
            continue
        winner = over.get("winner")
        if winner not in wins:
            raise ValueError(f"game {record.get('game_id')!r} was won by {winner!r}, not a Werewolf side")
        wins[winner] += 1
        days.append(int(over["day"]))
    return WerewolfOutcomes(games=len(days), village_wins=wins["village"], werewolf_wins=wins["werewolves"],
                            draws=wins[None], days=tuple(days))


def werewolf_measure_table(records: Mapping[str, Iterable[Mapping[str, Any]]]) -> list[Measure]:
    """Xu et al.'s measures per condition as `roundtable.metrics.tables.Measure` rows, in a fixed order:
    ``village_win_rate``, ``werewolf_win_rate``, ``draw_rate`` (Wilson) and ``days_per_game`` (bootstrap),
    over the records whose ``status`` is ``finished``.
    """
    rows: list[Measure] = []
    for condition, items in records.items():
        out = werewolf_outcomes(finished_records(items))
        rows += _outcome_rows(out, condition, "all", "all",
                              ("village_win_rate", "werewolf_win_rate", "draw_rate", "days_per_game"))
    return rows


def _outcome_rows(out: WerewolfOutcomes, condition: str, group_by: str, group: str,
                  metrics: tuple[str, ...]) -> list[Measure]:
    """``metrics`` of ``out`` as `Measure` rows: the win and draw rates with Wilson's interval, ``days_per_game``
    with the bootstrap's."""
    rows: list[Measure] = []
    counts = {"village_win_rate": out.village_wins, "werewolf_win_rate": out.werewolf_wins, "draw_rate": out.draws}
    for metric in metrics:
        if metric == "days_per_game":
            low, high = out.days_interval if out.games else (None, None)
            rows.append(Measure(metric, condition, group_by, group, sum(out.days), out.games, out.mean_days,
                                low, high, out.games, "bootstrap"))
            continue
        k = counts[metric]
        low, high = wilson(k, out.games)
        rows.append(Measure(metric, condition, group_by, group, k, out.games, k / out.games if out.games else None,
                            low if out.games else None, high if out.games else None, out.games))
    return rows


POOL_GROUP = "pool_games"
"""The ``group_by`` of `werewolf_pool_table`'s rows; their ``group`` is the bin's lower end in games, or `UNKNOWN`."""

UNKNOWN = "unknown"
"""The group of the games whose record cannot say their pool size (recorded before seats recorded it)."""


def werewolf_pool_table(records: Mapping[str, Iterable[Mapping[str, Any]]], step: int = STEP) -> list[Measure]:
    """Xu et al.'s village win rate and game length in days against the size of the experience pool the
    game was played with (their learning from 0, 10, 20, 30 and 40 earlier games), per condition.

    Each finished game falls in the bin of its pool size (`roundtable.metrics.pools.pool_size`, in games;
    bins of ``step`` games, `roundtable.metrics.pools.pool_bin`); a game without a pool at 0; a game whose
    record cannot say in the group `UNKNOWN`.

    Returns:
        `Measure` rows, ``village_win_rate`` (Wilson) and ``days_per_game`` (bootstrap) per bin, ``group_by``
        `POOL_GROUP` and ``group`` the bin's lower end: conditions in the order given, bins ascending,
        `UNKNOWN` last.
    """
    rows: list[Measure] = []
    for condition, items in records.items():
        bins: dict[int | None, list[Mapping[str, Any]]] = {}
        for record in finished_records(items):
            size = pool_size(record)
            bins.setdefault(None if size is None else pool_bin(size, step), []).append(record)
        for low in sorted(bins, key=lambda b: (b is None, b or 0)):
            rows += _outcome_rows(werewolf_outcomes(bins[low]), condition, POOL_GROUP,
                                  UNKNOWN if low is None else str(low), ("village_win_rate", "days_per_game"))
    return rows
