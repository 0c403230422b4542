"""A game's part of an experiment report, declared under the ``roundtable.reports`` entry points (`GameReport`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundtable.metrics.tables import Measure

Records = dict[str, list[dict[str, Any]]]
"""Finished game records by condition, conditions in configuration order."""


@dataclass(frozen=True)
class GameReport:
    """What a game adds to an experiment's report (`roundtable.experiments.report`).

    Attributes:
        name: the game's name (a key of `roundtable.games.GAMES`).
        measures: ``measures(records) -> [Measure]``: the game's measure table (``measures.csv``).
        sections: ``sections(records, rows) -> [markdown]``: the report's sections over that table.
        plots: ``plots(target folder, records, rows)``: writes the game's PNG plots.
    """

    name: str
    measures: Callable[[Records], list[Measure]]
    sections: Callable[[Records, list[Measure]], list[str]]
    plots: Callable[[Path, Records, list[Measure]], None]
