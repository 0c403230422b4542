"""Play-quality measures of a game of either game, computed from its record with no model (issue 35).

What a person watching a game of language-model agents notices first, as shares of a game's utterances,
decisions and games: parroting, thoughts said aloud, self-exposure, Merlin (the Werewolf Seer) exposed by his own
side, empty talk, knowledge-settled decisions taken against the player's knowledge, picks naming a dead player,
words and actions that disagree, fallbacks, and Avalon games ended by five rejected teams. Each measure, its cases
and its source: docs/measures.md#play-quality. The modules of `roundtable.metrics.quality` hold one concern each: the
result (`result`), what both games share (`talk`), each game's part (`avalon`, `werewolf`), the agents' own checks
(`checks`) and the per-condition table (`table`).

Input is a game record (`roundtable.store.records.build_record`): ``game``, ``roles``, ``events`` and ``usage``.
Output is plain dicts and numbers, so a benchmark prints them and a test checks them.
"""

from __future__ import annotations

from typing import Any

from roundtable.games import LEGACY_GAME
from roundtable.metrics.quality.avalon import last_chance, settled_vote
from roundtable.metrics.quality.checks import CHECK_KINDS, agent_checks, check_kind, overruled
from roundtable.metrics.quality.parts import measure_label, quality_parts
from roundtable.metrics.quality.result import LABELS, TARGETS, PlayQuality, Share, aids_of, meets
from roundtable.metrics.quality.talk import count_fallbacks, count_talk

__all__ = ["CHECK_KINDS", "LABELS", "TARGETS", "PlayQuality", "Share", "agent_checks", "check_kind",
           "last_chance", "meets", "overruled", "percent", "play_quality", "quality_lines", "settled_vote"]

def play_quality(record: dict[str, Any], game: str | None = None) -> PlayQuality:
    """The play-quality measures of one game record, of either game.

    Args:
        record: a game record (`roundtable.store.records.build_record`): ``game``, ``roles`` (``{"1": "merlin",
            ...}``), ``events`` and ``usage``. A record without roles gets only the measures every game shares.
        game: the game, when the record does not say (default: the record's ``game``, else ``avalon``, as
            records of the first versions).

    Returns:
        The game's `PlayQuality`; costs come from ``usage["game"]``.

    Raises:
        ValueError: a role the game does not have.
    """
    quality = PlayQuality()
    count_talk(record, quality)
    count_fallbacks(record, quality)
    part = quality_parts().get(str(record.get("game") or game or LEGACY_GAME))
    if part is not None and record.get("roles"):
        part.count(record, quality)
    return quality


def percent(share: Share) -> str:
    """``"hits/cases = rate%"``, or ``"-"`` without cases."""
    return "-" if share.rate is None else f"{share.hits}/{share.cases} = {100 * share.rate:.0f}%"


TALK = ("parroting", "plain_copies", "thoughts_aloud", "self_exposure", "merlin_exposed", "plain_named", "empty_talk")
"""The measures of what players say; the others are of what they decide (and how games end)."""


def quality_lines(record: dict[str, Any]) -> list[str]:
    """The play-quality lines of one game for ``roundtable show``: the measures of talk, then those of decisions,
    each ``hits/cases = rate%`` (``-`` without cases) with its target (`TARGETS`) and whether it is met; the
    knowledge-settled decisions by rule; for a finished Avalon game, whether it ended by five rejected teams
    and in which quest; last, whether the model seats played with the small-model aids on (`aids_of`)."""
    quality = play_quality(record)
    game = str(record.get("game") or LEGACY_GAME)
    lines = []
    for title, measures in (("talk", TALK), ("decisions", [m for m in PlayQuality.MEASURES
                                                           if m not in TALK and m != "five_rejections"])):
        parts = []
        for measure in measures:
            label = measure_label(game, measure)
            if not label:  # a measure this game never counts
                continue
            share = getattr(quality, measure)
            target, met = TARGETS.get(measure), meets(measure, share.rate)
            note = "" if target is None or met is None else (
                f" (target {target[0]} {100 * target[1]:.0f}%{'' if met else ', NOT met'})")
            parts.append(f"{label} {percent(share)}{note}")
        lines.append(f"Play quality, {title}: " + "; ".join(parts))
    if quality.settled_rules:
        lines.append("Knowledge-settled decisions right, by rule: " + "; ".join(
            f"{rule} {percent(share)}" for rule, share in sorted(quality.settled_rules.items())))
    replaced = overruled(record)
    if replaced:
        lines.append("Decisions the agents' rule took instead of the model (overrule, dropped sentences): " + "; ".join(
            f"{kind} {count}" for kind, count in sorted(replaced.items())))
    if quality.five_rejections.cases:
        lines.append("Ended by five rejected teams: " + (
            f"yes, in quest {quality.five_rejection_quests[0]}" if quality.five_rejection_quests else "no"))
    lines.append(f"Small-model aids of the model seats: {aids_of([record])} (docs/agents/aids.md)")
    return lines
