"""The social-behaviour part of an experiment report, where the judge has judged the experiment's records
(docs/judge.md#tables-and-plots): per judge model, the game's tables (`roundtable.judge.protocol.Figure`) over its
rows with 95% intervals, and their plots, ``judge-<model>-<figure>.png``: bars per role or side, trust and
distrust heatmaps per speaker x target group, trust lines per round. Written without metadata, so the same
records and judgements give the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roundtable.experiments.reports.format import bars, error_bar, num, pct, table
from roundtable.experiments.reports.game import Records
from roundtable.judge.measures import ordered, split_pair
from roundtable.judge.protocol import Figure, GameJudge, Judged, judges
from roundtable.judge.run import judged_record
from roundtable.judge.store import judge_models, model_slug
from roundtable.metrics.tables import Measure

PAPER_JUDGE = ("Lan et al. had ChatGPT judge the words; Xu et al. do not say how they counted theirs. "
               "Here the model named judges, at temperature 0 (docs/judge.md).")


@dataclass(frozen=True)
class JudgeReport:
    """The judged part of an experiment's records.

    Attributes:
        judge: the game's judge (its figures).
        judged: ``{judge model: {condition: [Judged]}}``, models sorted.
        games: ``{condition: finished games}``.
        rows: ``{judge model: [Measure]}`` (`GameJudge.measures`).
    """

    judge: GameJudge
    judged: dict[str, dict[str, list[Judged]]]
    games: dict[str, int]
    rows: dict[str, list[Measure]]

    def sections(self) -> list[str]:
        """The report's markdown sections, one group per judge model."""
        parts: list[str] = []
        for model, rows in self.rows.items():
            parts.append(f"## Social behaviour judged by `{model}`\n\n{PAPER_JUDGE}\n")
            parts.append(table(["condition", "finished games", *(f"judged: {b}" for b in self.judge.behaviours)], (
                [c, str(n), *(str(sum(1 for j in self.judged[model][c] if b in j.answers))
                              for b in self.judge.behaviours)] for c, n in self.games.items())))
            for figure in self.judge.figures:
                found = [r for r in rows if r.metric in figure.metrics and r.group_by == figure.group_by]
                if not found:
                    continue
                plot = "" if figure.shape == "table" else f"\n![{figure.title}]({plot_name(model, figure)})\n"
                parts.append(f"### {figure.title}\n\n{figure.text}\n\n{self.table(figure, found)}{plot}")
        return parts

    def table(self, figure: Figure, rows: Sequence[Measure]) -> str:
        """One figure's markdown table (rows per condition and group; per round for ``lines``)."""
        conditions = list(self.games)
        groups = self.groups(rows)
        if figure.shape == "lines":
            rounds = sorted({split_pair(r.group)[2] or 0 for r in rows})
            pairs = ordered_pairs({g.rpartition("@")[0] for g in groups}, self.judge.groups)
            return table(["condition", "pair", *(f"round {n}" for n in rounds)], (
                [c, p, *(_cell(_find(rows, figure.metrics[0], c, f"{p}@{n}")) for n in rounds)]
                for c in conditions for p in pairs if any(_find(rows, figure.metrics[0], c, f"{p}@{n}")
                                                         for n in rounds)))
        return table(["condition", "group", *figure.metrics, "n"], (
            [c, g, *(_cell(_find(rows, m, c, g)) for m in figure.metrics),
             f"{max((r.n for r in rows if r.condition == c and r.group == g), default=0):g}"]
            for c in conditions for g in groups if any(r.condition == c and r.group == g for r in rows)))

    def groups(self, rows: Sequence[Measure]) -> list[str]:
        """The groups of ``rows`` in the game's order (pairs by speaker, then target)."""
        names = {r.group for r in rows}
        if any(">" in g for g in names):
            heads = ordered_pairs({g.partition("@")[0] for g in names}, self.judge.groups)
            return sorted(names, key=lambda g: (heads.index(g.partition("@")[0]), split_pair(g)[2] or 0))
        return ordered(names, self.judge.groups)

    def plots(self, target: Path) -> None:
        """Write every figure's plot into ``target``."""
        for model, rows in self.rows.items():
            for figure in self.judge.figures:
                found = [r for r in rows if r.metric in figure.metrics and r.group_by == figure.group_by]
                if not found or figure.shape == "table":
                    continue
                path = target / plot_name(model, figure)
                if figure.shape == "bars":
                    labels = [(c, g) for c in self.games for g in self.groups(found)
                              if any(r.condition == c and r.group == g for r in found)]
                    bars(path, f"{figure.title} (95% CI)", [f"{g}\n{c}" for c, g in labels],
                         {m: [_find(found, m, c, g) for c, g in labels] for m in figure.metrics}, inches=0.3)
                elif figure.shape == "heatmap":
                    heatmaps(path, figure, list(self.games), found, self.judge.groups)
                else:
                    lines(path, figure, list(self.games), found, self.judge.groups)


def plot_name(model: str, figure: Figure) -> str:
    """``judge-<model slug>-<figure>.png``."""
    return f"judge-{model_slug(model)}-{figure.name}.png"


def ordered_pairs(pairs: set[str], order: Sequence[str]) -> list[str]:
    """``speaker>target`` pairs by the speaker's place in ``order``, then the target's."""
    speakers = ordered({split_pair(p)[0] for p in pairs}, order)
    targets = ordered({split_pair(p)[1] for p in pairs}, order)
    return sorted(pairs, key=lambda p: (speakers.index(split_pair(p)[0]), targets.index(split_pair(p)[1])))


def _find(rows: Sequence[Measure], metric: str, condition: str, group: str) -> Measure | None:
    return next((r for r in rows if r.metric == metric and r.condition == condition and r.group == group), None)


def _cell(row: Measure | None) -> str:
    """A proportion with its interval, a mean with its bootstrap interval, or ``-``."""
    return num(row) if row is not None and row.interval == "bootstrap" else pct(row)


def judge_report(directory: Path, game: str, records: Records) -> JudgeReport | None:
    """The judged part of an experiment's finished ``records`` (in ``directory``'s records), or ``None`` when no
    record is judged or the game has no judge."""
    judge = judges().get(game)
    if judge is None:
        return None
    folder = directory / "records"
    models = sorted({m for items in records.values() for r in items for m in judge_models(folder, r["game_id"])})
    judged: dict[str, dict[str, list[Judged]]] = {}
    for model in models:
        found = {c: [j for r in items if (j := judged_record(folder, r, model)) is not None]
                 for c, items in records.items()}
        if any(found.values()):
            judged[model] = found
    if not judged:
        return None
    return JudgeReport(judge, judged, {c: len(items) for c, items in records.items()},
                       {model: judge.measures(found) for model, found in judged.items()})


def _figure(panels: int, rows: int, width: float, height: float) -> tuple[Any, Any]:
    import matplotlib  # here, not at the top: half a second to import, and only reports draw

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(rows, panels, figsize=(width * panels, height * rows), dpi=100, squeeze=False)
    return figure, axes


def _save(figure: Any, path: Path) -> None:
    import matplotlib.pyplot as plt

    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
    plt.close(figure)


def heatmaps(path: Path, figure: Figure, conditions: list[str], rows: Sequence[Measure], order: Sequence[str]) -> None:
    """One speaker (columns) x target (rows) matrix per metric and condition, each cell the share with its
    interval and count (Lan et al. Fig. 5's layout: the speaker's role on top, the target's on the left)."""
    speakers = ordered({split_pair(r.group)[0] for r in rows}, order)
    targets = ordered({split_pair(r.group)[1] for r in rows}, order)
    plot, axes = _figure(len(figure.metrics), len(conditions), 0.9 * len(speakers) + 2.0, 0.6 * len(targets) + 1.4)
    for i, condition in enumerate(conditions):
        for j, metric in enumerate(figure.metrics):
            ax = axes[i][j]
            cells = [[_find(rows, metric, condition, f"{s}>{t}") for s in speakers] for t in targets]
            values = [[c.value if c is not None and c.value is not None else float("nan") for c in line]
                      for line in cells]
            ax.imshow(values, vmin=0.0, vmax=1.0, cmap="Greens" if metric == "trust" else "Reds")
            for y, line in enumerate(cells):
                for x, cell in enumerate(line):
                    if cell is not None and cell.value is not None:
                        down, up = error_bar(cell)
                        ax.text(x, y, f"{100 * cell.value:.0f}%\n±{100 * max(down, up):.0f} n={cell.n:g}",
                                ha="center", va="center", fontsize=6, color="white" if cell.value > 0.6 else "black")
            ax.set_xticks(range(len(speakers)), speakers, fontsize=7)
            ax.set_yticks(range(len(targets)), targets, fontsize=7)
            ax.xaxis.tick_top()
            ax.xaxis.set_label_position("top")
            ax.set_xlabel("speaker", fontsize=7)
            ax.set_ylabel("named player", fontsize=7)
            ax.set_title(f"{metric} ({condition})", fontsize=9)
    _save(plot, path)


def lines(path: Path, figure: Figure, conditions: list[str], rows: Sequence[Measure], order: Sequence[str]) -> None:
    """One panel per condition and speaker group: the metric per round towards each target group, with the 95%
    intervals as error bars (Lan et al. Fig. 6b-c's shape)."""
    metric = figure.metrics[0]
    speakers = ordered({split_pair(r.group)[0] for r in rows}, order)
    rounds = sorted({split_pair(r.group)[2] or 0 for r in rows})
    plot, axes = _figure(len(speakers), len(conditions), 3.2, 2.8)
    for i, condition in enumerate(conditions):
        for j, speaker in enumerate(speakers):
            ax = axes[i][j]
            mine = [r for r in rows if r.metric == metric and r.condition == condition
                    and split_pair(r.group)[0] == speaker and r.value is not None]
            targets = ordered({split_pair(r.group)[1] for r in mine}, order)
            for k, target in enumerate(targets):
                points = sorted((r for r in mine if split_pair(r.group)[1] == target),
                                key=lambda r: split_pair(r.group)[2] or 0)
                spans = [error_bar(r) for r in points]
                shift = (k - (len(targets) - 1) / 2) * 0.06  # side by side, so the error bars stay apart
                ax.errorbar([(split_pair(r.group)[2] or 0) + shift for r in points], [r.value for r in points],
                            yerr=[[d for d, _ in spans], [u for _, u in spans]], marker="o", capsize=3,
                            label=target)
            ax.set_xticks(rounds)
            ax.set_xlim(rounds[0] - 0.4, rounds[-1] + 0.4)
            ax.set_ylim(0, 1)
            ax.set_title(f"{speaker} ({condition})", fontsize=9)
            ax.set_xlabel("round", fontsize=8)
            if ax.get_legend_handles_labels()[0]:
                ax.legend(fontsize=7)
    _save(plot, path)
