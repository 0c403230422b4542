"""An experiment's report from its finished records: ``report.md``, CSV tables, PNG plots.

Written to ``DIR/report/`` (or ``--out``) by ``roundtable experiment report DIR``:

- ``report.md``: per condition the games behind each figure, then the game's own
  sections (its `roundtable.experiments.reports.game.GameReport`, found through the
  ``roundtable.reports`` entry points; a game without one gets the cost alone); Avalon's are the tables
  in the papers' shapes: win rate per side and condition (Lan et al. Table 2
  and its ablation tables), the game outcomes (AvalonBench: good win rate,
  mission and assassination win rates, assassination accuracy), QER and FVR
  of the evil roles (Lan et al. Tables 6-8), LAR and self-recommendation per
  role, VRR per role, AvalonPlay's figures where that metric module exists,
  AvalonBench's deduction accuracy next to its 0.5 baseline (or "no beliefs
  recorded"), and the model cost per condition; every figure with its 95%
  interval; for a Werewolf experiment, Xu et al.'s village win rate and game
  length in days (`roundtable.metrics.werewolf`), also against the size of
  the experience pool the games were played with, instead of the Avalon tables;
- where the configuration names published figures (its ``published`` key), each beside our measure of the same
  name and group with its interval and n, and the models of both sides (`roundtable.experiments.reports.published`,
  also as ``published.csv``);
- where the judge has judged the records (``roundtable judge DIR``), the social behaviours per judge model
  (`roundtable.experiments.reports.judge`): Lan et al.'s deception, teamwork and confrontation, vacillation and
  sharing, or Xu et al.'s trust, confrontation and camouflage, with ``judge-<model>.csv`` and their plots;
- for a tournament (docs/tournaments.md), its leaderboard first (`roundtable.experiments.reports.leaderboard`), also
  as ``leaderboard.csv`` and ``leaderboard.png``;
- ``measures.csv`` (every `roundtable.metrics.tables.Measure`), ``cost.csv``;
- ``win_rate.png``, ``evil_qer_fvr.png``, ``role_lar_srr.png`` (matplotlib,
  error bars = the intervals, games per condition in the labels); for a
  Werewolf experiment ``win_rate.png`` and ``pool_size.png`` (village win
  rate and game length against experience pool size, Xu et al.).

Deterministic: the same records give byte-identical files (rows in a fixed
order, fixed number formats, PNGs without a timestamp). Wall time depends on
the machine, not on the records, so it lives in ``timing.csv`` beside them
(and in ``manifest.json``), outside the files that are compared.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from roundtable.experiments.config import ExperimentConfig, PlannedGame
from roundtable.experiments.manifest import experiment_status, load_records
from roundtable.experiments.reports.format import table
from roundtable.experiments.reports.game import GameReport
from roundtable.experiments.reports.judge import judge_report
from roundtable.experiments.reports.leaderboard import board_csv, board_plot, markdown
from roundtable.experiments.reports.published import published_csv, published_section
from roundtable.experiments.tournament_board import experiment_board
from roundtable.judge.store import model_slug
from roundtable.metrics.cost import cost_summary
from roundtable.metrics.tables import Measure
from roundtable.plugins import load_plugins


def game_report(game: str) -> GameReport | None:
    """``game``'s part of a report (``None``: the game declares none).

    Raises:
        PluginError: a declared report that does not load.
    """
    return load_plugins("roundtable.reports", GameReport).get(game)


def render_markdown(config: ExperimentConfig, records: dict[str, list[dict[str, Any]]], rows: list[Measure],
                    judged: list[str] | None = None, leaderboard: str | None = None) -> str:
    """The report's markdown text (see the module docstring); ``judged``: the judge's sections, if any;
    ``leaderboard``: a tournament's leaderboard section."""
    conditions = list(records)
    parts = [f"# Experiment `{config.name}`\n"]
    if config.description:
        parts.append(config.description.strip() + "\n")
    planned = sum(len(config.seeds_of(c)) for c in config.conditions)
    finished = sum(len(records.get(c.name) or []) for c in config.conditions)
    parts.append(f"Game `{config.game}`; {finished} of the configuration's {planned} games finished (`games` columns: "
                 "per condition); figures are over finished games, with 95% intervals (Wilson for proportions, "
                 "bootstrap for means).\n")
    if leaderboard is not None:
        parts.append(leaderboard)
    report = game_report(config.game)
    if report is not None:
        parts += report.sections(records, rows)
    published = published_section(config, records, rows)
    if published is not None:
        parts.append(published)
    parts += judged or []
    return _with_cost(parts, records, conditions)


def _with_cost(parts: list[str], records: dict[str, list[dict[str, Any]]], conditions: list[str]) -> str:
    """``parts`` with the model cost table and the note on wall time, joined."""
    parts.append("## Model cost per condition\n")
    parts.append(table(["condition", "games", "calls", "calls/game", "prompt tokens", "completion tokens",
                         "cached share", "fallbacks", "fallbacks/game"], (
        _cost_cells(c, cost_summary(records[c])) for c in conditions)))
    parts.append("Wall time per condition: `timing.csv` and `manifest.json` (it depends on the machine, not on "
                 "the records).\n")
    return "\n".join(parts)


def _cost_cells(condition: str, cost: dict[str, float]) -> list[str]:
    return [condition, str(int(cost["games"])), str(int(cost["calls"])), f"{cost['calls_per_game']:.1f}",
            str(int(cost["prompt_tokens"])), str(int(cost["completion_tokens"])), f"{100 * cost['cached_share']:.1f}%",
            str(int(cost["fallbacks"])), f"{cost['fallbacks_per_game']:.2f}"]


def measures_csv(rows: list[Measure]) -> str:
    """Every measure as CSV (values with 6 decimals; empty where there was no trial)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["metric", "condition", "group_by", "group", "k", "n", "value", "low", "high", "games", "interval"])
    for r in rows:
        writer.writerow([r.metric, r.condition, r.group_by, r.group, f"{r.k:g}", f"{r.n:g}",
                         *("" if x is None else f"{x:.6f}" for x in (r.value, r.low, r.high)), r.games, r.interval])
    return buffer.getvalue()


def cost_csv(records: dict[str, list[dict[str, Any]]]) -> str:
    """Model cost per condition as CSV (`roundtable.metrics.cost.cost_summary`'s fields)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header: list[str] | None = None
    for condition, items in records.items():
        cost = cost_summary(items)
        if header is None:
            header = list(cost)
            writer.writerow(["condition", *header])
        writer.writerow([condition, *(f"{cost[k]:.6g}" for k in header)])
    return buffer.getvalue()


def write_report(directory: Path, config: ExperimentConfig, games: list[PlannedGame],
                 out: Path | None = None) -> Path:
    """Write the report of the experiment in ``directory`` (see the module docstring).

    Returns:
        The path of ``report.md``.
    """
    target = Path(out) if out else directory / "report"
    target.mkdir(parents=True, exist_ok=True)
    records = load_records(directory, games)
    report = game_report(config.game)
    rows = report.measures(records) if report is not None else []
    judged = judge_report(directory, config.game, records)
    board = experiment_board(directory, config, games, records)
    (target / "report.md").write_text(render_markdown(config, records, rows, judged.sections() if judged else None,
                                                      markdown(*board, heading="##") if board else None),
                                      encoding="utf-8")
    if board is not None:
        (target / "leaderboard.csv").write_text(board_csv(board[0]), encoding="utf-8")
        board_plot(target / "leaderboard.png", board[0])
    (target / "measures.csv").write_text(measures_csv(rows), encoding="utf-8")
    (target / "cost.csv").write_text(cost_csv(records), encoding="utf-8")
    if any(config.published_for(c.name) for c in config.conditions):
        (target / "published.csv").write_text(published_csv(config, rows), encoding="utf-8")
    status = experiment_status(directory, config, games)
    (target / "timing.csv").write_text("condition,finished,wall_seconds,wall_seconds_per_game\n" + "".join(
        f"{c},{v['finished']},{v['wall_seconds']:.3f},{v['wall_seconds_per_game']:.3f}\n"
        for c, v in status["conditions"].items()), encoding="utf-8")
    if report is not None:
        report.plots(target, records, rows)
    if judged is not None:
        for model, judge_rows in judged.rows.items():
            (target / f"judge-{model_slug(model)}.csv").write_text(measures_csv(judge_rows), encoding="utf-8")
        judged.plots(target)
    return target / "report.md"
