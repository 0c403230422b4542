"""The shape of the papers' published figures shipped as data (docs/published.md), checked by pydantic.

One TOML file per paper in this package (``lan2024.toml``, ``light2023.toml``, ...)::

    [paper]
    key = "light2023"
    name = "Light et al. 2023 (AvalonBench)"
    citation = "Light, Cai, Shen, Hu (2023). AvalonBench: Evaluating LLMs Playing the Game of Avalon."
    game = "avalon"

    [[figures]]
    id = "light2023.baseline.good-win-rate"
    source = "Table 3 (SERVANT bot row)"
    condition = "all five seats AvalonBench's rule bots"
    model = "none (rule bots)"
    metric = "good_win_rate"
    value = 0.382
    games = 1000

A figure names the measure it is the counterpart of as our report names it (``metric``, and the ``group_by`` /
``group`` of its row in ``measures.csv``), the paper's value (a share in 0..1, or a mean in days), where the paper
gives it, with which model and in which setting, and what the paper says of its size (games, trials) and interval.
``value`` is ``None`` where the paper shows a figure only as an image without numbers (``approximate`` then says
the figure's reading is not exact); ``note`` says what is ambiguous.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from roundtable.experiments.reports.avalon import AVALONPLAY_METRICS
from roundtable.games import registered_game
from roundtable.metrics.outcomes import GAME_METRICS
from roundtable.metrics.strategy import PLAYER_METRICS

FIGURE_ID = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)+$")
"""A figure's id: dotted parts of lowercase letters, digits and ``-``, the first the paper's key
(``lan2024.table2.full.good``); a reference to figures names an id or a leading run of its parts."""

MEASURES: dict[str, frozenset[str]] = {
    "avalon": frozenset([*(m.name for m in GAME_METRICS), "quests_per_game", *(m.name for m in PLAYER_METRICS),
                         *AVALONPLAY_METRICS]),
    # the rows of roundtable.metrics.werewolf.werewolf_measure_table and werewolf_pool_table
    "werewolf": frozenset(["village_win_rate", "werewolf_win_rate", "draw_rate", "days_per_game"]),
}
"""The measure names each game's report gives (``metric`` of its `roundtable.metrics.tables.Measure` rows)."""

class Paper(BaseModel):
    """The paper a file's figures come from.

    Fields: ``key`` (the first part of every figure id: ``lan2024``), ``name`` (how a report names it: ``Lan et
    al. 2024``), ``citation`` (authors, year, title, venue), ``game`` (the game its figures are of, a key of
    `roundtable.games.GAMES`).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(min_length=1)
    citation: str = Field(min_length=10)
    game: str

    @field_validator("game")
    @classmethod
    def _registered(cls, game: str) -> str:
        return registered_game(game)


class PublishedFigure(BaseModel):
    """One published figure and what it is the counterpart of in our report.

    Fields: ``id`` (`FIGURE_ID`), ``source`` (the table, figure or section: ``Table 2``), ``condition`` (the
    paper's setting in our words: who played which side, rules, learning), ``model`` (the model the paper used,
    as it names it), ``metric``, ``group_by``, ``group`` (our measure row: ``WR`` / ``side`` / ``evil``),
    ``value`` (a share in 0..1, or a mean in ``unit``; ``None``: the paper gives no number), ``unit``
    (``share`` or ``days``), ``games`` (games behind the figure, where the paper says), ``trials`` (the
    proportion's denominator, where the paper says and it is not ``games``), ``low``, ``high`` (the paper's
    interval, where it gives one), ``approximate`` (read from a plot, or not given at all), ``note`` (what is
    ambiguous or differs from our measure).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    source: str = Field(min_length=1)
    condition: str = Field(min_length=1)
    model: str = Field(min_length=1)
    metric: str
    group_by: Literal["all", "side", "role", "kind", "model", "pool_games"] = "all"  # pool_games: Xu et al.'s bins
    group: str = "all"
    value: float | None = None
    unit: Literal["share", "days"] = "share"
    games: int | None = Field(None, ge=1)
    trials: int | None = Field(None, ge=1)
    low: float | None = None
    high: float | None = None
    approximate: bool = False
    note: str = ""

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not FIGURE_ID.match(value):
            raise ValueError(f"{value!r} is not a figure id: dotted parts of a-z, 0-9 and '-', at least two")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> PublishedFigure:
        if (self.group_by == "all") != (self.group == "all"):
            raise ValueError(f"{self.id}: group_by and group are 'all' together or not at all")
        numbers = [x for x in (self.value, self.low, self.high) if x is not None]
        if self.unit == "share" and any(not 0.0 <= x <= 1.0 for x in numbers):
            raise ValueError(f"{self.id}: a share lies in 0..1 (38.2% is 0.382)")
        if self.unit == "days" and any(x < 0 for x in numbers):
            raise ValueError(f"{self.id}: a number of days is not negative")
        if (self.low is None) != (self.high is None):
            raise ValueError(f"{self.id}: an interval needs both low and high")
        if self.low is not None and self.high is not None and not (
                self.low <= (self.value if self.value is not None else self.low) <= self.high):
            raise ValueError(f"{self.id}: the interval must hold the value (low <= value <= high)")
        if self.value is None and not (self.approximate and self.note):
            raise ValueError(f"{self.id}: a figure without a value is approximate and says why in its note")
        return self


class PublishedFile(BaseModel):
    """One paper's file: its `Paper` and its figures (at least one), every id starting with the paper's key and
    every metric one its game's report gives (`MEASURES`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paper: Paper
    figures: list[PublishedFigure] = Field(min_length=1)

    @model_validator(mode="after")
    def _of_this_paper(self) -> PublishedFile:
        known = MEASURES[self.paper.game]
        ids = [f.id for f in self.figures]
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            raise ValueError(f"figure ids repeated: {', '.join(twice)}")
        for figure in self.figures:
            if figure.id.split(".")[0] != self.paper.key:
                raise ValueError(f"{figure.id}: a figure id starts with its paper's key {self.paper.key!r}")
            if figure.metric not in known:
                raise ValueError(f"{figure.id}: {figure.metric!r} is no {self.paper.game} measure; known: "
                                 f"{', '.join(sorted(known))}")
        return self
