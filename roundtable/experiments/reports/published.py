"""The report's published figures beside ours (docs/experiments.md#published-figures): for every figure the
configuration's ``published`` key names (`roundtable.experiments.published`), the paper's value, our measure of the
same name and group over the condition's finished games with its 95% interval and n, and the models of both sides;
as a markdown section and as ``published.csv``."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from roundtable.experiments.config import ExperimentConfig
from roundtable.experiments.published.load import paper_of, select
from roundtable.experiments.published.model import PublishedFigure
from roundtable.experiments.reports.format import num, pct, table
from roundtable.metrics.tables import Measure, find


@dataclass(frozen=True)
class Comparison:
    """One published figure beside our row of the same measure and group in one condition (``ours`` ``None``:
    the condition has no such row, e.g. no player of that role)."""

    condition: str
    figure: PublishedFigure
    ours: Measure | None

    @property
    def within(self) -> bool | None:
        """Whether the published value lies within our 95% interval (``None``: either side has no value)."""
        ours, value = self.ours, self.figure.value
        if value is None or ours is None or ours.low is None or ours.high is None:
            return None
        return ours.low <= value <= ours.high


def comparisons(config: ExperimentConfig, rows: Iterable[Measure]) -> list[Comparison]:
    """Each condition's published figures (`ExperimentConfig.published_for`) beside our row of each, conditions
    in configuration order, figures in the shipped data's order."""
    rows = list(rows)
    return [Comparison(c.name, f, find(rows, f.metric, c.name, f.group_by, f.group))
            for c in config.conditions for f in select(config.published_for(c.name))]


def measure_label(figure: PublishedFigure) -> str:
    """``WR (side=evil)``; ``good_win_rate`` for the ``all`` group."""
    return figure.metric if figure.group_by == "all" else f"{figure.metric} ({figure.group_by}={figure.group})"


def published_cell(figure: PublishedFigure) -> str:
    """``38.2%``, ``4.10 days``, ``~`` before an approximate value, ``not given`` without one."""
    if figure.value is None:
        return "not given"
    text = f"{100 * figure.value:.1f}%" if figure.unit == "share" else f"{figure.value:.2f} days"
    return ("~" if figure.approximate else "") + text


def ours_cell(row: Measure | None) -> str:
    """Our value with its interval (a share: ``37.5% [13.7, 69.4]``; a mean: ``4.10 [3.80, 4.40]``), or ``-``."""
    return num(row) if row is not None and row.interval == "bootstrap" else pct(row)


def their_games(figure: PublishedFigure) -> str:
    """``1000``, ``30 (150 trials)``, or ``-`` where the paper does not say."""
    text = "-" if figure.games is None else str(figure.games)
    return text + (f" ({figure.trials} trials)" if figure.trials is not None else "")


def models_of(records: Iterable[Mapping[str, Any]]) -> str:
    """Who played a condition's games: each agent kind with its models (``lga on local, cga on local``;
    ``naive (no model)``), sorted; ``-`` without records."""
    seats: dict[str, set[str]] = {}
    for record in records:
        for seat in record.get("seats") or []:
            seats.setdefault(str((seat or {}).get("kind") or "-"), set()).add(str((seat or {}).get("model") or ""))
    parts = []
    for kind in sorted(seats):
        models = sorted(m for m in seats[kind] if m)
        parts.append(f"{kind} on {', '.join(models)}" if models else f"{kind} (no model)")
    return "; ".join(parts) or "-"


def published_section(config: ExperimentConfig, records: Mapping[str, list[dict[str, Any]]],
                      rows: Iterable[Measure]) -> str | None:
    """The markdown section of the published figures beside ours, or ``None`` when the configuration names
    none."""
    found = comparisons(config, rows)
    if not found:
        return None
    yes_no = {True: "yes", False: "no", None: "-"}
    text = ("## Published figures beside ours\n\nEach figure the configuration's `published` key names "
            "(docs/published.md), beside our measure of the same name and group over the condition's finished "
            "games: ours with its 95% interval (Wilson for shares, bootstrap for means) and n, the trials it pools "
            "(games for a game's outcome; rounds, cards, votes, decisions or guesses for a player's measure); "
            "'within' says whether the published value lies in our interval. A published value after ~ is "
            "approximate; 'not given' means the paper prints no number for it.\n\nOur players per condition:\n\n")
    text += "".join(f"- {c}: {models_of(records.get(c, []))}\n" for c in dict.fromkeys(x.condition for x in found))
    text += "\n" + table(
        ["condition", "measure", "published", "ours [95% interval]", "n", "within", "source", "their model",
         "their games"],
        ([x.condition, measure_label(x.figure), published_cell(x.figure), ours_cell(x.ours),
          "0" if x.ours is None else f"{x.ours.n:g}", yes_no[x.within],
          f"{paper_of(x.figure).name}, {x.figure.source}", x.figure.model, their_games(x.figure)] for x in found))
    text += "\nThe published figures' settings, and what is ambiguous in them:\n\n"
    figures = {x.figure.id: x.figure for x in found}
    text += "".join(f"- `{f.id}` ({paper_of(f).name}, {f.source}): {f.condition}." + (f" {f.note}" if f.note else "")
                    + "\n" for f in figures.values())
    return text


def published_csv(config: ExperimentConfig, rows: Iterable[Measure]) -> str:
    """The comparisons as CSV (values with 6 decimals; empty where a side has none); a header alone when the
    configuration names no published figure."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["figure", "condition", "metric", "group_by", "group", "published", "approximate", "ours",
                     "low", "high", "k", "n", "within", "paper", "source", "their_model", "their_games"])
    for x in comparisons(config, rows):
        ours = x.ours
        values = (None, None, None) if ours is None else (ours.value, ours.low, ours.high)
        writer.writerow([
            x.figure.id, x.condition, x.figure.metric, x.figure.group_by, x.figure.group,
            "" if x.figure.value is None else f"{x.figure.value:.6f}", str(x.figure.approximate).lower(),
            *("" if v is None else f"{v:.6f}" for v in values),
            "" if ours is None else f"{ours.k:g}", "" if ours is None else f"{ours.n:g}",
            {True: "yes", False: "no", None: ""}[x.within], paper_of(x.figure).key, x.figure.source, x.figure.model,
            "" if x.figure.games is None else x.figure.games])
    return buffer.getvalue()
