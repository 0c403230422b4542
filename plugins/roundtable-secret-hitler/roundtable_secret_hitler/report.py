"""Secret Hitler's part of ``roundtable experiment report`` (docs/games/secret-hitler.md#the-report), declared
under the ``roundtable.reports`` entry point ``secret_hitler``: the win rate per side and game length in rounds,
how the games ended (five Liberal policies, Hitler executed, six Fascist policies, Hitler elected Chancellor) and
the share of policies chaos enacted, the win rate per role, agent kind and model, the Liberals' deduction accuracy
next to its 0.5 baseline, and roundtable's play-quality section (with this game's part,
`roundtable_secret_hitler.quality`); every figure with its 95% interval. Plots ``win_rate.png`` and
``end_reasons.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roundtable.experiments.reports.format import bars, num, pct, table
from roundtable.experiments.reports.game import GameReport
from roundtable.experiments.reports.quality import quality_section
from roundtable.metrics.quality.table import quality_table
from roundtable.metrics.tables import Measure, find
from roundtable_secret_hitler.outcomes import REASON_LABELS, REASONS, SIDES, outcome_table

GAME = "secret_hitler"


def measures(records: dict[str, list[dict[str, Any]]]) -> list[Measure]:
    """The outcome rows (`roundtable_secret_hitler.outcomes.outcome_table`), then the play-quality rows
    (`roundtable.metrics.quality.table.quality_table`) of ``records`` (finished records by condition)."""
    return outcome_table(records) + quality_table(records, GAME)


def sections(records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> list[str]:
    """The markdown sections of a Secret Hitler experiment (``records``: finished records by condition; ``rows``:
    its measure table, `measures`)."""
    conditions = list(records)
    parts = ["## Secret Hitler outcomes (win rate per side, game length in rounds)\n",
             table(["condition", "games", "Liberal win rate", "Fascist win rate", "rounds per game"], (
                 [c, str(len(records[c])), *(pct(find(rows, f"{side}_win_rate", c)) for side in SIDES),
                  num(find(rows, "rounds_per_game", c))] for c in conditions)),
             "## How the games ended\n\nOf each condition's finished games, the share that ended each way "
             "(docs/games/secret-hitler.md#end-of-the-game); the last column is the share of the policies enacted "
             "that chaos enacted (three failed elections in a row).\n",
             table(["condition", "games", *(REASON_LABELS[r] for r in REASONS), "policies by chaos"], (
                 [c, str(len(records[c])), *(pct(find(rows, r, c)) for r in REASONS),
                  pct(find(rows, "chaos_share", c))] for c in conditions))]
    parts.append("## Win rate per role, agent kind and model\n\nOf the players of each group, the share on the "
                 "side that won.\n")
    parts.append(table(["condition", "group", "players", "WR"], (
        [c, f"{r.group_by}={r.group}", f"{r.n:g}", pct(r)] for c in conditions for r in rows
        if r.metric == "WR" and r.condition == c and r.group_by in ("role", "kind", "model"))))
    parts.append(deduction_section(conditions, rows))
    parts.append(quality_section(records, rows))
    return parts


def deduction_section(conditions: list[str], rows: list[Measure]) -> str:
    """The Liberals' deduction accuracy at game over next to the 0.5-for-everyone baseline, per condition: all
    Liberals with a belief, then per agent kind and model, with the share of model seats' probes answered; or a
    note that no belief was recorded."""
    head = ("## Deduction accuracy of the Liberals\n\nAt game over every Liberal whose agent states beliefs is "
            "asked how likely each other player is a Liberal (the belief probe); a guess is right when "
            "P(Liberal) >= 0.5 matches the side (docs/measures.md#deduction-accuracy). The trivial baseline "
            "answers 0.5 for everyone (every other player guessed Liberal).\n")
    found = [r for r in rows if r.metric == "deduction_accuracy" and r.n and r.group_by in ("all", "kind", "model")
             and r.condition in conditions]
    if not found:
        return head + "\nNo beliefs recorded (no seat states beliefs, every answer was unusable, or the probe was "\
                      "switched off).\n"
    answered = [find(rows, "probe_answered", r.condition, r.group_by, r.group) for r in found]
    return head + "\n" + table(["condition", "group", "guesses", "deduction accuracy", "trivial baseline (0.5)",
                                "probes answered"], (
        [r.condition, "all" if r.group_by == "all" else f"{r.group_by}={r.group}", f"{r.n:g}", pct(r),
         pct(find(rows, "deduction_baseline", r.condition, r.group_by, r.group)),
         pct(a) if a is not None and a.n else "-"] for r, a in zip(found, answered, strict=True)))


def plots(target: Path, records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> None:
    """The plots in ``target``: ``win_rate.png`` (win rate per side) and ``end_reasons.png`` (how the games
    ended), one group of bars per condition, error bars the 95% intervals."""
    conditions = list(records)
    labels = [f"{c}\n(n={len(records[c])})" for c in conditions]
    bars(target / "win_rate.png", "Win rate per side (95% CI)", labels,
         {side: [find(rows, f"{side}_win_rate", c) for c in conditions] for side in SIDES})
    bars(target / "end_reasons.png", "How the games ended (95% CI)", labels,
         {REASON_LABELS[r]: [find(rows, r, c) for c in conditions] for r in REASONS})


REPORT = GameReport(name=GAME, measures=measures, sections=sections, plots=plots)
"""Secret Hitler's report part, declared under the ``roundtable.reports`` entry point ``secret_hitler``."""
