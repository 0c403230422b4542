"""Werewolf's sections of an experiment report: Xu et al.'s village win rate and game length in days
(`roundtable.metrics.werewolf`), also against the size of the experience pool the games were played with, and play
quality (issue 35, `roundtable.metrics.quality.table`); plots ``win_rate.png`` and ``pool_size.png``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roundtable.experiments.reports.format import bars, error_bar, num, pct, table
from roundtable.experiments.reports.game import GameReport
from roundtable.experiments.reports.quality import quality_section
from roundtable.metrics.pools import STEP, bin_label
from roundtable.metrics.quality.table import quality_table
from roundtable.metrics.tables import Measure, find
from roundtable.metrics.werewolf import POOL_GROUP, UNKNOWN, werewolf_measure_table, werewolf_pool_table


def measures(records: dict[str, list[dict[str, Any]]]) -> list[Measure]:
    """Xu et al.'s measures per condition, then per experience pool size, then the play-quality rows."""
    return werewolf_measure_table(records) + werewolf_pool_table(records) + quality_table(records, "werewolf")


def sections(records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> list[str]:
    """The markdown sections of a Werewolf experiment (``records``: finished records by condition; ``rows``: its
    measure table)."""
    conditions = list(records)
    parts: list[str] = []
    parts.append("## Werewolf outcomes (Xu et al.: village win rate, game length in days)\n")
    parts.append(table(["condition", "games", "village win rate", "werewolf win rate", "draws",
                         "days per game"], (
        [c, str(len(records[c])), *(pct(find(rows, m, c)) for m in (
            "village_win_rate", "werewolf_win_rate", "draw_rate")), num(find(rows, "days_per_game", c))]
        for c in conditions)))
    parts.append(pool_section(rows))
    parts.append(quality_section(records, rows))
    return parts


def pool_section(rows: list[Measure]) -> str:
    """Xu et al.'s village win rate and game length against experience pool size (`werewolf_pool_table`'s rows
    in ``rows``), with the number of games in each bin."""
    pools = [r for r in rows if r.group_by == POOL_GROUP and r.metric == "village_win_rate"]
    text = ("## Village win rate and game length against experience pool size (Xu et al.)\n\nPool size: the "
            "finished games the largest experience pool a seat read was built from when the game started (Xu et "
            f"al. count their pools in games: 0, 10, 20, 30, 40), in bins of {STEP}; a game without a pool at 0.\n\n")
    return text + table(["condition", "pool size (games)", "games", "village win rate", "days per game"], (
        [r.condition, "unknown (not recorded)" if r.group == UNKNOWN else bin_label(int(r.group)), str(r.games),
         pct(r), num(find(rows, "days_per_game", r.condition, POOL_GROUP, r.group))] for r in pools))


def pool_plot(path: Path, conditions: list[str], rows: list[Measure]) -> None:
    """Village win rate and days per game against pool size (games), one line per condition, error bars = the
    95% intervals, each point labelled with its number of games; written without metadata."""
    import matplotlib  # here, not at the top: half a second to import, and only reports draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def points(condition: str, metric: str) -> list[Measure]:
        return [r for r in rows if r.metric == metric and r.condition == condition and r.group_by == POOL_GROUP
                and r.group != UNKNOWN and r.value is not None]

    figure, (wins, days) = plt.subplots(1, 2, figsize=(9.0, 3.6), dpi=100)
    drawn = [c for c in conditions if points(c, "village_win_rate") or points(c, "days_per_game")]
    for i, condition in enumerate(drawn):
        shift = (i - (len(drawn) - 1) / 2) * 0.6  # side by side around their bin's tick
        for axes, metric in ((wins, "village_win_rate"), (days, "days_per_game")):
            at = points(condition, metric)
            if not at:
                continue
            xs = [int(r.group) + shift for r in at]
            ys = [r.value for r in at]
            bars = [error_bar(r) for r in at]
            errors = [[down for down, _ in bars], [up for _, up in bars]]
            axes.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=condition)
            for x, r in zip(xs, at, strict=True):
                axes.annotate(f"n={r.games}", (x, r.value), textcoords="offset points", xytext=(4, 4), fontsize=7)
    bins = sorted({int(r.group) for r in rows if r.group_by == POOL_GROUP and r.group != UNKNOWN})
    wins.set_ylim(0, 1)
    wins.set_title("Village win rate (95% CI)", fontsize=10)
    days.set_title("Game length in days (95% CI)", fontsize=10)
    for axes in (wins, days):
        axes.set_xticks(bins, [bin_label(b) for b in bins], fontsize=8)
        if bins:
            axes.set_xlim(bins[0] - STEP / 2, bins[-1] + STEP / 2)  # a lone bin's tick mid-axis, not at its edge
        axes.set_xlabel("experience pool size (games)", fontsize=8)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
    plt.close(figure)


def plots(target: Path, records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> None:
    """Werewolf's plots in ``target``: win rate per side, and village win rate and days against pool size."""
    conditions = list(records)
    labels = [f"{c}\n(n={len(records[c])})" for c in conditions]
    bars(target / "win_rate.png", "Win rate per side (95% CI)", labels,
          {side: [find(rows, f"{side}_win_rate", c) for c in conditions] for side in ("village", "werewolf")})
    pool_plot(target / "pool_size.png", conditions, rows)


REPORT = GameReport(name="werewolf", measures=measures, sections=sections, plots=plots)
"""Werewolf's report, declared under the ``roundtable.reports`` entry points."""
