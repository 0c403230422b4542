"""The play-quality measures of an experiment per condition, as `Measure` rows (docs/measures.md#play-quality):
one row per measure, pooled over the condition's finished games with Wilson's 95% interval, then the
knowledge-settled decisions per rule, then the quests in which games ended by five rejected teams."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from roundtable.metrics.play_quality import PlayQuality, play_quality
from roundtable.metrics.tables import Measure, finished_records, proportion

RULE_GROUP = "rule"
"""``group_by`` of the knowledge-settled decisions' rows per rule (``group``: the rule, e.g. ``seer vote``)."""
QUEST_GROUP = "quest"
"""``group_by`` of the five-rejection rows per quest (``group``: the quest; ``k``: games that ended so in it)."""


def quality_table(records: Mapping[str, Iterable[dict[str, Any]]], game: str | None = None) -> list[Measure]:
    """Play quality per condition of the finished ``records`` (``{condition: records}``) of ``game`` (for records
    that do not name their game; `play_quality`).

    Returns:
        Per condition: one ``all`` row per measure of `PlayQuality.MEASURES` (metric: the measure's name), the
        ``settled_decisions`` rows per rule (`RULE_GROUP`), and ``five_rejections`` rows per quest
        (`QUEST_GROUP`: games that ended by five rejections in that quest / finished games), quests sorted.
    """
    rows: list[Measure] = []
    for condition, items in records.items():
        finished = finished_records(items)
        total = PlayQuality()
        for record in finished:
            total = total.add(play_quality(record, game))
        games = len(finished)
        for measure in PlayQuality.MEASURES:
            share = getattr(total, measure)
            rows.append(proportion(measure, condition, "all", "all", share.hits, share.cases, games))
        for rule, share in sorted(total.settled_rules.items()):
            rows.append(proportion("settled_decisions", condition, RULE_GROUP, rule, share.hits, share.cases, games))
        for quest in sorted(set(total.five_rejection_quests)):
            rows.append(proportion("five_rejections", condition, QUEST_GROUP, str(quest),
                                   total.five_rejection_quests.count(quest), total.five_rejections.cases, games))
    return rows
