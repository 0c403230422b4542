"""Avalon's sections of an experiment report: the tables in the papers' shapes (Lan et al. Table 2 and its
ablations, AvalonBench's game outcomes, Lan et al. Tables 6-8's QER and FVR of the evil roles, LAR and
self-recommendation per role, VRR), AvalonBench's deduction accuracy next to its 0.5 baseline, AvalonPlay's
figures and play quality (issue 35, with the games ended by five rejected teams), every figure with its 95%
interval; plots ``win_rate.png``, ``evil_qer_fvr.png``, ``role_lar_srr.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roundtable.experiments.reports.format import bars, num, pct, table
from roundtable.experiments.reports.game import GameReport
from roundtable.experiments.reports.quality import cell, quality_section
from roundtable.metrics.avalonplay import avalonplay_metrics
from roundtable.metrics.quality.table import quality_table
from roundtable.metrics.tables import Measure, find, finished_records, measure_table, proportion

EVIL_ROLES = ("morgana", "assassin", "minion", "mordred", "oberon")


AVALONPLAY_METRICS = ("game_win", "quest_win", "team_acc")
"""AvalonPlay's measures as `avalonplay_table` names them: Game Win, Quest Win, Team Acc (Shi et al.)."""

AVALONPLAY_LABELS = {"game_win": "Game Win", "quest_win": "Quest Win", "team_acc": "Team Acc"}


def avalonplay_table(records: dict[str, list[dict[str, Any]]]) -> list[Measure]:
    """AvalonPlay's measures (Shi et al.; `roundtable.metrics.avalonplay`) per condition as `Measure` rows with
    Wilson's 95% interval: ``game_win``, ``quest_win``, ``team_acc`` (group ``all``), over finished records."""
    rows: list[Measure] = []
    for condition, items in records.items():
        finished = finished_records(items)
        measures = avalonplay_metrics(finished)
        for metric, share in zip(AVALONPLAY_METRICS, (measures.game_win, measures.quest_win, measures.team_acc),
                                 strict=True):
            rows.append(proportion(metric, condition, "all", "all", share.hits, share.cases, len(finished)))
    return rows


def sections(records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> list[str]:
    """The markdown sections of an Avalon experiment (``records``: finished records by condition; ``rows``: its
    measure table)."""
    conditions = list(records)
    parts: list[str] = []
    parts.append("## Win rate per side (Lan et al. Table 2 shape)\n")
    parts.append(table(["condition", "games", "good WR", "evil WR"], (
        [c, str(len(records[c])), pct(find(rows, "WR", c, "side", "good")), pct(find(rows, "WR", c, "side", "evil"))]
        for c in conditions)))
    parts.append("## Game outcomes (AvalonBench)\n")
    parts.append(table(["condition", "games", "good win rate", "mission win rate (evil)", "assassination win rate",
                         "assassination accuracy", "quest success rate", "quests per game"], (
        [c, str(len(records[c])), *(pct(find(rows, m, c)) for m in (
            "good_win_rate", "mission_win_rate", "assassination_win_rate", "assassination_accuracy",
            "quest_success_rate")), num(find(rows, "quests_per_game", c))] for c in conditions)))
    evil = sorted({r.group for r in rows if r.group_by == "role" and r.group in EVIL_ROLES})
    parts.append("## QER and FVR of the evil roles (Lan et al. Tables 6-8 shape)\n")
    parts.append(table(["condition", *(f"{role} {m}" for role in evil for m in ("WR", "QER", "FVR"))], (
        [c, *(pct(find(rows, m, c, "role", role)) for role in evil for m in ("WR", "QER", "FVR"))]
        for c in conditions)))
    roles = sorted({r.group for r in rows if r.group_by == "role"})
    parts.append("## Leadership and persuasion per role (LAR, self-recommendation rate SRR and success SRS)\n")
    parts.append(table(["condition", "role", "LAR", "SRR", "SRS", "VRR"], (
        [c, role, *(pct(find(rows, m, c, "role", role)) for m in ("LAR", "SRR", "SRS", "VRR"))]
        for c in conditions for role in roles if find(rows, "WR", c, "role", role))))
    kinds = sorted({r.group for r in rows if r.group_by == "kind"})
    if len(kinds) > 1 or len({r.group for r in rows if r.group_by == "model"}) > 1:
        parts.append("## Win rate and valid responses per agent kind and model\n")
        parts.append(table(["condition", "group", "WR", "VRR"], (
            [c, f"{by}={r.group}", pct(r), pct(find(rows, "VRR", c, by, r.group))]
            for c in conditions for by in ("kind", "model") for r in rows
            if r.metric == "WR" and r.condition == c and r.group_by == by)))
    parts.append(deduction_section(conditions, rows))
    parts.append("## AvalonPlay (Game Win, Quest Win, Team Acc)\n")
    parts.append(table(["condition", *AVALONPLAY_LABELS.values()],
                       ([c, *(cell(find(rows, m, c)) for m in AVALONPLAY_METRICS)] for c in conditions)))
    parts.append(quality_section(records, rows))
    return parts


def measures(records: dict[str, list[dict[str, Any]]]) -> list[Measure]:
    """Avalon's measure table (`measure_table`), AvalonPlay's rows (`avalonplay_table`), then the play-quality
    rows (`quality_table`)."""
    return measure_table(records) + avalonplay_table(records) + quality_table(records, "avalon")


def deduction_section(conditions: list[str], rows: list[Measure]) -> str:
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
            lines.append([c, "-", "0", "no beliefs recorded", "-", "-"])
        for r in found:
            group = "all" if r.group_by == "all" else f"{r.group_by}={r.group}"
            baseline = find(rows, "deduction_baseline", c, r.group_by, r.group)
            answered = find(rows, "probe_answered", c, r.group_by, r.group)
            lines.append([c, group, f"{r.n:g}", pct(r), pct(baseline),
                          pct(answered) if answered is not None and answered.n else "-"])
    if all(line[3] == "no beliefs recorded" for line in lines):
        return head + ("\nNo beliefs recorded: the probe was switched off, every probe answer was unusable, or "
                       "the records predate the belief probe.\n")
    return head + ("An unusable answer to the probe is left out, never counted as 0.5; the last column is the "
                   "share of model-driven seats' probes answered usably.\n\n") + table(
        ["condition", "group", "guesses", "deduction accuracy", "trivial baseline (0.5)", "probes answered"], lines)




def plots(target: Path, records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> None:
    """Avalon's plots in ``target``: win rate per side, QER and FVR of the evil roles, LAR and SRR per role."""
    conditions = list(records)
    labels = [f"{c}\n(n={len(records[c])})" for c in conditions]
    bars(target / "win_rate.png", "Win rate per side (95% CI)", labels,
          {side: [find(rows, "WR", c, "side", side) for c in conditions] for side in ("good", "evil")})
    evil = sorted({r.group for r in rows if r.group_by == "role" and r.group in EVIL_ROLES})
    bars(target / "evil_qer_fvr.png", "QER and FVR of the evil roles (95% CI)", labels,
          {f"{role} {m}": [find(rows, m, c, "role", role) for c in conditions]
           for role in evil for m in ("QER", "FVR")})
    roles = sorted({r.group for r in rows if r.group_by == "role"})
    bars(target / "role_lar_srr.png", "LAR and self-recommendation per role (95% CI)", labels,
          {f"{role} {m}": [find(rows, m, c, "role", role) for c in conditions]
           for role in roles for m in ("LAR", "SRR")})


REPORT = GameReport(name="avalon", measures=measures, sections=sections, plots=plots)
"""Avalon's report, declared under the ``roundtable.reports`` entry points."""
