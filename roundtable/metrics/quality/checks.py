"""The agents' own checks as the record shows them: how often each kind of check asked again, and how often that
fixed what it found (`Decision.checks`, docs/measures.md#play-quality)."""

from __future__ import annotations

from typing import Any

from roundtable.metrics.quality.result import Share

CHECK_KINDS = (("near copy", "near copy"), ("words name players", "words and team"),
               ("to kill, the vote names", "words and kill vote"),
               ("words vote out", "words and vote"),
               ("words expose", "self-exposure"), ("tactic said aloud", "tactic said aloud"),
               ("stance against", "words and team vote"), ("against knowledge", "vote against knowledge"),
               ("against rules", "vote against rules"), ("against record", "vote against record"),
               ("against words", "vote against own words"))
"""How a `Decision.checks` entry starts or what it contains, and the kind of check it is counted under."""


def check_kind(check: str) -> str:
    """The kind of check (`CHECK_KINDS`) of one `Decision.checks` entry, or ``other``."""
    return next((kind for mark, kind in CHECK_KINDS if mark in check), "other")


def agent_checks(record: dict[str, Any]) -> dict[str, Share]:
    """How often each kind of the agent's own checks asked again, and how often that fixed the problem.

    A decision's entry ending ``asked again`` is a re-ask (a case); it is a hit
    unless the same decision also has an entry of the same kind ending ``kept
    after asking again`` or ``sentences dropped`` (the second answer had the problem too).

    Args:
        record: a game record with ``decisions`` (a list of `Decision` dicts).

    Returns:
        ``{kind: Share(fixed, asked)}`` for the kinds that asked at least once.
    """
    shares: dict[str, Share] = {}
    for decision in record.get("decisions") or []:
        checks = list(decision.get("checks") or [])
        kept = {check_kind(c) for c in checks if c.endswith(("kept after asking again", "sentences dropped"))}
        for check in checks:
            if check.endswith(": asked again"):
                kind = check_kind(check)
                shares[kind] = shares.get(kind, Share()).add(Share(int(kind not in kept), 1))
    return shares


def overruled(record: dict[str, Any]) -> dict[str, int]:
    """How many decisions of each kind of check the agent's rule replaced (entries ending ``overruled``: the seat
    option ``overrule``, docs/agents/checks.md#knowledge-settled-decisions; or ``sentences dropped``: the seat
    option ``drop_sentences``, docs/agents/checks.md#dropping-sentences; or ``restated``: a leader's final word
    said anew by the same option), so a reader sees how many of the
    knowledge-settled decisions and words the model did not give itself.

    Returns:
        ``{kind: decisions}`` for the kinds that overruled at least once.
    """
    counts: dict[str, int] = {}
    for decision in record.get("decisions") or []:
        for check in decision.get("checks") or []:
            if check.endswith((": overruled", ": sentences dropped", ": restated")):
                counts[check_kind(check)] = counts.get(check_kind(check), 0) + 1
    return counts
