"""Model cost and speed of a set of games, from their records (no model).

Sums each record's ``usage["game"]`` (`roundtable.store.records.usage_totals`):
model calls, prompt, completion and cached prompt tokens, model seconds,
decisions and fallbacks (decisions whose answer a fallback rule supplied,
`roundtable.games.fallbacks.fell_back`, docs/games/protocol.md#fallback-rules;
the end-of-game belief probe is a decision here, where the play-quality
measure leaves it out). Fallbacks are counted anew from the record's decision
events when it has any, so a record written before a change to what counts as
one reads as today's count. The cached share is cached prompt tokens / prompt tokens (0
when no prompt token was sent).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from roundtable.games.fallbacks import fell_back

COST_FIELDS = ("calls", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds", "decisions", "fallbacks")


def cost_summary(records: Iterable[dict[str, Any]]) -> dict[str, float]:
    """Totals and per-game means of the cost fields over ``records``.

    Returns:
        ``{"games": n, FIELD: total, "FIELD_per_game": total / n, "cached_share": cached / prompt tokens}``
        for each field of `COST_FIELDS` (per-game means 0 when there is no game).
    """
    totals = dict.fromkeys(COST_FIELDS, 0.0)
    games = 0
    for record in records:
        games += 1
        usage = dict((record.get("usage") or {}).get("game") or {})
        decisions = [e for e in record.get("events") or () if e.get("type") == "decision"]
        if decisions:
            usage["fallbacks"] = sum(1 for e in decisions if fell_back(e))
        for name in COST_FIELDS:
            totals[name] += float(usage.get(name, 0) or 0)
    out: dict[str, float] = {"games": games, **totals}
    for name in COST_FIELDS:
        out[f"{name}_per_game"] = totals[name] / games if games else 0.0
    out["cached_share"] = totals["cached_tokens"] / totals["prompt_tokens"] if totals["prompt_tokens"] else 0.0
    return out
