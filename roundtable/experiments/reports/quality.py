"""The play-quality section every game's report shares (`roundtable.metrics.quality.table`,
docs/measures.md#play-quality): each measure per condition with its 95% interval, counts and issue 35's target,
the knowledge-settled decisions by rule, and the quests in which Avalon games ended by five rejected teams."""

from __future__ import annotations

from typing import Any

from roundtable.experiments.reports.format import pct, table
from roundtable.games import LEGACY_GAME
from roundtable.metrics.play_quality import LABELS, TARGETS, PlayQuality
from roundtable.metrics.quality.parts import measure_label
from roundtable.metrics.quality.result import aids_of
from roundtable.metrics.quality.table import QUEST_GROUP, RULE_GROUP
from roundtable.metrics.tables import Measure, find, finished_records


def cell(row: Measure | None) -> str:
    """``38.2% [35.2, 41.3] (13/34)``; ``-`` without cases."""
    return "-" if row is None or not row.n else f"{pct(row)} ({row.k:g}/{row.n:g})"


def target(measure: str) -> str:
    """A measure's target as written in the table (``<= 10%``), or ``-`` without one."""
    if measure not in TARGETS:
        return "-"
    sense, rate = TARGETS[measure]
    return f"{sense} {100 * rate:.0f}%"


def quality_section(records: dict[str, list[dict[str, Any]]], rows: list[Measure]) -> str:
    """The markdown of the play-quality section over ``rows`` (`roundtable.metrics.quality.table.quality_table`'s
    among them), one column per condition of ``records``; measures without a case in any condition left out."""
    conditions = list(records)
    measures = [m for m in PlayQuality.MEASURES
                if any((r := find(rows, m, c)) is not None and r.n for c in conditions)]
    text = ("## Play quality (issue 35: what a person watching notices first)\n\nEach measure pooled over the "
            "condition's finished games (hits / cases, Wilson's 95% interval); what a hit and a case are: "
            "docs/measures.md#play-quality. Knowledge-settled decisions and words and actions count the right "
            "ones; the others count the faults. The aids row says whether the condition's model seats played with the "
            "small-model aids on (docs/agents/aids.md); each plain count stands below its detector's, the same "
            "cases counted with no rule for stock phrases, hedges or denials (roundtable/detectors/plain.py).\n\n")
    if not measures:
        return text + "No play-quality case in these records (nothing said or decided).\n"
    aids = ["aids", "-", *(aids_of(finished_records(records[c])) for c in conditions)]
    games = {str(r.get("game") or LEGACY_GAME) for c in conditions for r in records[c]}
    game = games.pop() if len(games) == 1 else LEGACY_GAME  # an experiment plays one game
    labelled = [(m, measure_label(game, m) or LABELS[m]) for m in measures]
    text += table(["measure", "target", *conditions],
                  [aids, *([label, target(m), *(cell(find(rows, m, c)) for c in conditions)] for m, label in labelled)])
    by_rule = [r for r in rows if r.metric == "settled_decisions" and r.group_by == RULE_GROUP]
    if by_rule:
        text += "\nKnowledge-settled decisions right, by rule:\n\n" + table(
            ["condition", "rule", "right"], ([r.condition, r.group, cell(r)] for r in by_rule))
    quests = [r for r in rows if r.metric == "five_rejections" and r.group_by == QUEST_GROUP]
    if quests:
        text += "\nGames ended by five rejected teams, by the quest they ended in (of the condition's games):\n\n" + \
            table(["condition", "quest", "games"], ([r.condition, r.group, cell(r)] for r in quests))
    return text
