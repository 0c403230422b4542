"""An experiment's report from its finished records: ``report.md``, CSV tables, PNG plots.

Written to ``DIR/report/`` (or ``--out``) by ``roundtable experiment report DIR``:

- ``report.md``: per condition the games behind each figure, then the tables
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
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from roundtable.experiments.config import ExperimentConfig, PlannedGame
from roundtable.experiments.manifest import experiment_status
from roundtable.metrics.avalonplay import avalonplay_metrics
from roundtable.metrics.cost import cost_summary
from roundtable.metrics.intervals import wilson
from roundtable.metrics.pools import STEP, bin_label
from roundtable.metrics.tables import Measure, find, measure_table
from roundtable.metrics.werewolf import POOL_GROUP, UNKNOWN, werewolf_measure_table, werewolf_pool_table
from roundtable.settings import data_home
from roundtable.store.records import read_record

EVIL_ROLES = ("morgana", "assassin", "minion", "mordred", "oberon")


def _pct(row: Measure | None) -> str:
    """``38.2% [35.2, 41.3]`` (n = 0: ``-``)."""
    if row is None or row.value is None or row.low is None or row.high is None:  # all None together (n = 0)
        return "-"
    return f"{100 * row.value:.1f}% [{100 * row.low:.1f}, {100 * row.high:.1f}]"


def _error_bar(row: Measure | None) -> tuple[float, float]:
    """The distances from ``row``'s value down to its interval's low end and up to its high end (0, 0 without a
    value)."""
    if row is None or row.value is None or row.low is None or row.high is None:
        return 0.0, 0.0
    return row.value - row.low, row.high - row.value


def _num(row: Measure | None) -> str:
    if row is None or row.value is None:
        return "-"
    return f"{row.value:.2f} [{row.low:.2f}, {row.high:.2f}]"


def _table(header: list[str], rows: Iterable[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def load_records(directory: Path, games: list[PlannedGame]) -> dict[str, list[dict[str, Any]]]:
    """``{condition: finished records}`` of the experiment in ``directory``, conditions in configuration order."""
    out: dict[str, list[dict[str, Any]]] = {}
    with data_home(directory):
        for game in games:
            out.setdefault(game.condition, [])
            record = read_record(game.game_id) if (directory / "records").is_dir() else None
            if record is not None and record.get("status") == "finished":
                out[game.condition].append(record)
    return out


def avalonplay_rows(records: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, str]]:
    """``{condition: {"Game Win": "40.0% [16.8, 68.7] (4/10)", "Quest Win": ..., "Team Acc": ...}}``: AvalonPlay's
    measures (Shi et al.; `roundtable.metrics.avalonplay`) with 95% Wilson intervals and their counts; ``"-"``
    where a measure has no cases."""
    rows: dict[str, dict[str, str]] = {}
    for condition, items in records.items():
        measures = avalonplay_metrics(items)
        row: dict[str, str] = {}
        for label, share in (("Game Win", measures.game_win), ("Quest Win", measures.quest_win),
                             ("Team Acc", measures.team_acc)):
            low, high = wilson(share.hits, share.cases) if share.cases else (0.0, 0.0)
            row[label] = (f"{100 * share.hits / share.cases:.1f}% [{100 * low:.1f}, {100 * high:.1f}] "
                          f"({share.hits}/{share.cases})" if share.cases else "-")
        rows[condition] = row
    return rows


def render_markdown(config: ExperimentConfig, records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> str:
    """The report's markdown text (see the module docstring)."""
    conditions = list(records)
    parts = [f"# Experiment `{config.name}`\n"]
    if config.description:
        parts.append(config.description.strip() + "\n")
    parts.append(f"Game `{config.game}`; {config.games_per_condition} games per condition; figures are over "
                 "finished games, with 95% intervals (Wilson for proportions, bootstrap for means).\n")
    if config.game == "werewolf":
        parts.append("## Werewolf outcomes (Xu et al.: village win rate, game length in days)\n")
        parts.append(_table(["condition", "games", "village win rate", "werewolf win rate", "draws",
                             "days per game"], (
            [c, str(len(records[c])), *(_pct(find(rows, m, c)) for m in (
                "village_win_rate", "werewolf_win_rate", "draw_rate")), _num(find(rows, "days_per_game", c))]
            for c in conditions)))
        parts.append(_pool_section(rows))
        return _with_cost(parts, records, conditions)
    parts.append("## Win rate per side (Lan et al. Table 2 shape)\n")
    parts.append(_table(["condition", "games", "good WR", "evil WR"], (
        [c, str(len(records[c])), _pct(find(rows, "WR", c, "side", "good")), _pct(find(rows, "WR", c, "side", "evil"))]
        for c in conditions)))
    parts.append("## Game outcomes (AvalonBench)\n")
    parts.append(_table(["condition", "games", "good win rate", "mission win rate (evil)", "assassination win rate",
                         "assassination accuracy", "quest success rate", "quests per game"], (
        [c, str(len(records[c])), *(_pct(find(rows, m, c)) for m in (
            "good_win_rate", "mission_win_rate", "assassination_win_rate", "assassination_accuracy",
            "quest_success_rate")), _num(find(rows, "quests_per_game", c))] for c in conditions)))
    evil = sorted({r.group for r in rows if r.group_by == "role" and r.group in EVIL_ROLES})
    parts.append("## QER and FVR of the evil roles (Lan et al. Tables 6-8 shape)\n")
    parts.append(_table(["condition", *(f"{role} {m}" for role in evil for m in ("WR", "QER", "FVR"))], (
        [c, *(_pct(find(rows, m, c, "role", role)) for role in evil for m in ("WR", "QER", "FVR"))]
        for c in conditions)))
    roles = sorted({r.group for r in rows if r.group_by == "role"})
    parts.append("## Leadership and persuasion per role (LAR, self-recommendation rate SRR and success SRS)\n")
    parts.append(_table(["condition", "role", "LAR", "SRR", "SRS", "VRR"], (
        [c, role, *(_pct(find(rows, m, c, "role", role)) for m in ("LAR", "SRR", "SRS", "VRR"))]
        for c in conditions for role in roles if find(rows, "WR", c, "role", role))))
    kinds = sorted({r.group for r in rows if r.group_by == "kind"})
    if len(kinds) > 1 or len({r.group for r in rows if r.group_by == "model"}) > 1:
        parts.append("## Win rate and valid responses per agent kind and model\n")
        parts.append(_table(["condition", "group", "WR", "VRR"], (
            [c, f"{by}={r.group}", _pct(r), _pct(find(rows, "VRR", c, by, r.group))]
            for c in conditions for by in ("kind", "model") for r in rows
            if r.metric == "WR" and r.condition == c and r.group_by == by)))
    parts.append(_deduction_section(conditions, rows))
    if config.game == "avalon":
        play = avalonplay_rows(records)
        keys = ("Game Win", "Quest Win", "Team Acc")
        parts.append("## AvalonPlay (Game Win, Quest Win, Team Acc)\n")
        parts.append(_table(["condition", *keys], ([c, *(play[c][k] for k in keys)] for c in conditions)))
    return _with_cost(parts, records, conditions)


def _deduction_section(conditions: list[str], rows: list[Measure]) -> str:
    """AvalonBench's deduction accuracy next to the 0.5-for-everyone baseline (`roundtable.metrics.deduction`),
    per condition: all good players with a belief, then per role, agent kind and model."""
    head = ("## Deduction accuracy (AvalonBench)\n\nGood players' beliefs in the other players' sides at the end of "
            "the game: a guess is right when P(good) >= 0.5 matches the side. The trivial baseline answers 0.5 "
            "for everyone (every other player guessed good).\n")
    lines = []
    for c in conditions:
        found = [r for r in rows if r.metric == "deduction_accuracy" and r.condition == c and r.n
                 and r.group_by in ("all", "role", "kind", "model")]
        if not found:
            lines.append([c, "-", "0", "no beliefs recorded", "-"])
        for r in found:
            group = "all" if r.group_by == "all" else f"{r.group_by}={r.group}"
            baseline = find(rows, "deduction_baseline", c, r.group_by, r.group)
            lines.append([c, group, f"{r.n:g}", _pct(r), _pct(baseline)])
    if all(line[3] == "no beliefs recorded" for line in lines):
        return head + ("\nNo beliefs recorded: no good player's agent kind states a belief (the `naive` bots do; "
                       "the model-driven kinds do not yet), or the records predate the belief probe.\n")
    return head + "\n" + _table(["condition", "group", "guesses", "deduction accuracy", "trivial baseline (0.5)"],
                                lines)


def _pool_section(rows: list[Measure]) -> str:
    """Xu et al.'s village win rate and game length against experience pool size (`werewolf_pool_table`'s rows
    in ``rows``), with the number of games in each bin."""
    pools = [r for r in rows if r.group_by == POOL_GROUP and r.metric == "village_win_rate"]
    text = ("## Village win rate and game length against experience pool size (Xu et al.)\n\nPool size: the "
            "finished games the largest experience pool a seat read was built from when the game started (Xu et "
            f"al. count their pools in games: 0, 10, 20, 30, 40), in bins of {STEP}; a game without a pool at 0.\n\n")
    return text + _table(["condition", "pool size (games)", "games", "village win rate", "days per game"], (
        [r.condition, "unknown (not recorded)" if r.group == UNKNOWN else bin_label(int(r.group)), str(r.games),
         _pct(r), _num(find(rows, "days_per_game", r.condition, POOL_GROUP, r.group))] for r in pools))


def _with_cost(parts: list[str], records: dict[str, list[dict[str, Any]]], conditions: list[str]) -> str:
    """``parts`` with the model cost table and the note on wall time, joined."""
    parts.append("## Model cost per condition\n")
    parts.append(_table(["condition", "games", "calls", "calls/game", "prompt tokens", "completion tokens",
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


def _bars(path: Path, title: str, labels: list[str], series: dict[str, list[Measure | None]]) -> None:
    """A grouped bar chart of proportions with their intervals as error bars, written without metadata."""
    import matplotlib  # here, not at the top: half a second to import, and only reports draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(max(5.0, 1.2 * len(labels) * max(1, len(series))), 3.6), dpi=100)
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [j + (i - (len(series) - 1) / 2) * width for j in range(len(labels))]
        heights = [(v.value or 0.0) if v else 0.0 for v in values]
        bars = [_error_bar(v) for v in values]
        errors = [[down for down, _ in bars], [up for _, up in bars]]
        axes.bar(xs, heights, width, yerr=errors, capsize=3, label=name)
    axes.set_xticks(range(len(labels)), labels, fontsize=8)
    axes.set_ylim(0, 1)
    axes.set_title(title, fontsize=10)
    axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
    plt.close(figure)


def _pool_plot(path: Path, conditions: list[str], rows: list[Measure]) -> None:
    """Village win rate and days per game against pool size (games), one line per condition, error bars = the
    95% intervals, each point labelled with its number of games; written without metadata."""
    import matplotlib  # here, not at the top: half a second to import, and only reports draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (wins, days) = plt.subplots(1, 2, figsize=(9.0, 3.6), dpi=100)
    for i, condition in enumerate(conditions):
        shift = (i - (len(conditions) - 1) / 2) * 0.6
        for axes, metric in ((wins, "village_win_rate"), (days, "days_per_game")):
            points = [r for r in rows if r.metric == metric and r.condition == condition and r.group_by == POOL_GROUP
                      and r.group != UNKNOWN and r.value is not None]
            if not points:
                continue
            xs = [int(r.group) + shift for r in points]
            ys = [r.value for r in points]
            bars = [_error_bar(r) for r in points]
            errors = [[down for down, _ in bars], [up for _, up in bars]]
            axes.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=condition)
            for x, r in zip(xs, points, strict=True):
                axes.annotate(f"n={r.games}", (x, r.value), textcoords="offset points", xytext=(4, 4), fontsize=7)
    bins = sorted({int(r.group) for r in rows if r.group_by == POOL_GROUP and r.group != UNKNOWN})
    wins.set_ylim(0, 1)
    wins.set_title("Village win rate (95% CI)", fontsize=10)
    days.set_title("Game length in days (95% CI)", fontsize=10)
    for axes in (wins, days):
        axes.set_xticks(bins, [bin_label(b) for b in bins], fontsize=8)
        axes.set_xlabel("experience pool size (games)", fontsize=8)
        if axes.get_legend_handles_labels()[0]:
            axes.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
    plt.close(figure)


def write_report(directory: Path, config: ExperimentConfig, games: list[PlannedGame],
                 out: Path | None = None) -> Path:
    """Write the report of the experiment in ``directory`` (see the module docstring).

    Returns:
        The path of ``report.md``.
    """
    target = Path(out) if out else directory / "report"
    target.mkdir(parents=True, exist_ok=True)
    records = load_records(directory, games)
    wolves = config.game == "werewolf"
    rows = werewolf_measure_table(records) + werewolf_pool_table(records) if wolves else measure_table(records)
    (target / "report.md").write_text(render_markdown(config, records, rows), encoding="utf-8")
    (target / "measures.csv").write_text(measures_csv(rows), encoding="utf-8")
    (target / "cost.csv").write_text(cost_csv(records), encoding="utf-8")
    status = experiment_status(directory, config, games)
    (target / "timing.csv").write_text("condition,finished,wall_seconds,wall_seconds_per_game\n" + "".join(
        f"{c},{v['finished']},{v['wall_seconds']:.3f},{v['wall_seconds_per_game']:.3f}\n"
        for c, v in status["conditions"].items()), encoding="utf-8")
    conditions = list(records)
    labels = [f"{c}\n(n={len(records[c])})" for c in conditions]
    if wolves:
        _bars(target / "win_rate.png", "Win rate per side (95% CI)", labels,
              {side: [find(rows, f"{side}_win_rate", c) for c in conditions] for side in ("village", "werewolf")})
        _pool_plot(target / "pool_size.png", conditions, rows)
        return target / "report.md"
    _bars(target / "win_rate.png", "Win rate per side (95% CI)", labels,
          {side: [find(rows, "WR", c, "side", side) for c in conditions] for side in ("good", "evil")})
    evil = sorted({r.group for r in rows if r.group_by == "role" and r.group in EVIL_ROLES})
    _bars(target / "evil_qer_fvr.png", "QER and FVR of the evil roles (95% CI)", labels,
          {f"{role} {m}": [find(rows, m, c, "role", role) for c in conditions]
           for role in evil for m in ("QER", "FVR")})
    roles = sorted({r.group for r in rows if r.group_by == "role"})
    _bars(target / "role_lar_srr.png", "LAR and self-recommendation per role (95% CI)", labels,
          {f"{role} {m}": [find(rows, m, c, "role", role) for c in conditions]
           for role in roles for m in ("LAR", "SRR")})
    return target / "report.md"
