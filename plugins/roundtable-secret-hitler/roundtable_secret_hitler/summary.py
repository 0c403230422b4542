"""Secret Hitler's lines for ``roundtable show`` (docs/games/secret-hitler.md#the-summary), declared under the
``roundtable.summaries`` entry point ``secret_hitler``."""

from __future__ import annotations

from typing import Any

from roundtable.metrics.summaries import play_quality_lines
from roundtable_secret_hitler.outcomes import REASON_LABELS, outcomes


def summary(record: dict[str, Any], finished: bool) -> list[str]:
    """The measures of one game: once it is over, who won, how (`REASON_LABELS`), in how many rounds, and how many
    policies were enacted (by chaos among them); then roundtable's play-quality lines
    (`roundtable.metrics.summaries.play_quality_lines`, with this game's part: `roundtable_secret_hitler.quality`),
    once anything was said or decided.

    Args:
        record: a game record (`roundtable.store.records.build_record`).
        finished: whether the game is finished (its ``status``).

    Raises:
        ValueError: a finished game won by no Secret Hitler side (`roundtable_secret_hitler.outcomes.outcomes`).
    """
    out = outcomes([record])
    lines = []
    if out.games:
        side = next(s for s, won in out.wins.items() if won)
        reason = next(r for r, n in out.reasons.items() if n)
        lines.append(f"Secret Hitler measures: {side} win ({REASON_LABELS[reason]}), {out.rounds[0]} rounds, "
                     f"{out.policies} policies enacted ({out.by_chaos} by chaos)")
    return lines + play_quality_lines(record)
