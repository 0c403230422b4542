"""The pool-size plot of a werewolf report (`roundtable.experiments.reports.werewolf.pool_plot`): the conditions
that have points sit side by side around their bin's tick, and a lone bin's tick is mid-axis."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.figure
import pytest

from roundtable.experiments.reports.werewolf import pool_plot
from roundtable.metrics.tables import proportion
from roundtable.metrics.werewolf import POOL_GROUP


def drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rows: list[Any], conditions: list[str]) -> Any:
    """The figure ``pool_plot`` saves (its file written too)."""
    saved: list[Any] = []
    save = matplotlib.figure.Figure.savefig

    def keep(self: Any, *args: Any, **kwargs: Any) -> None:
        saved.append(self)
        save(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", keep)
    pool_plot(tmp_path / "pool_size.png", conditions, rows)
    assert (tmp_path / "pool_size.png").stat().st_size > 1000
    return saved[0]


def win_rate(condition: str, group: str, wins: int, games: int) -> Any:
    return proportion("village_win_rate", condition, POOL_GROUP, group, wins, games, games)


def xs(axes: Any) -> list[float]:
    """The x of every point drawn (the error bars' caps left out)."""
    return sorted(x for line in axes.get_lines() if line.get_marker() == "o" for x in line.get_xdata())


def test_a_lone_bin_is_mid_axis_with_only_the_drawn_conditions_around_it(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    conditions = ["build", "pool-0", "pool-10", "pool-20", "pool-30", "pool-40"]
    figure = drawn(tmp_path, monkeypatch, [win_rate("build", "0", 1, 6), win_rate("pool-0", "0", 0, 2)], conditions)
    wins = figure.axes[0]
    assert list(wins.get_xticks()) == [0]
    low, high = wins.get_xlim()
    assert low < 0 < high and abs(low + high) < 1e-9  # the tick in the middle
    points = xs(wins)
    assert points == pytest.approx([-0.3, 0.3])  # two drawn conditions, not six, around the tick


def test_each_condition_sits_at_its_own_bin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [win_rate("pool-0", "0", 0, 2), win_rate("pool-10", "10", 1, 2)]
    wins = drawn(tmp_path, monkeypatch, rows, ["pool-0", "pool-10", "pool-20"]).axes[0]
    assert list(wins.get_xticks()) == [0, 10]
    assert xs(wins) == pytest.approx([-0.3, 10.3])
    assert wins.get_xlim()[0] < 0 and wins.get_xlim()[1] > 10
