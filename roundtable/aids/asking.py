"""Asking a checked answer again, once: the state update every kind's checks share (docs/agents/checks.md).

No model call. A check that found a problem in an answer (its words: `roundtable.aids.review`; its
choice against what is settled: `roundtable.aids.settled`) asks for it once more with the Host's note;
the second answer is kept whatever it says, and `Decision.checks` names what each answer had.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def ask_again(reasons: Sequence[str], note: Callable[[], str], reviewed: bool, **update: Any) -> dict[str, Any]:
    """The state update of a step whose answer was checked: ask again once with the Host's note, or record what
    the second answer still had.

    Args:
        reasons: the problems found (`Decision.checks` lines without their ending; empty: none).
        note: renders the Host's note (called only when asking again).
        reviewed: this answer is already the second one (the state's ``reviewed``).
        update: more of the update when asking again (``copied=True``, ``action=None``).

    Returns:
        ``{"recheck": note, "reviewed": True, "checks": [...: asked again], **update}`` when a first answer had a
        problem; after a re-ask, ``{"recheck": None, "checks": [...: kept after asking again]}`` (no problem:
        an empty list); ``{}`` when a first answer had none.
    """
    if reviewed:
        return {"recheck": None, "checks": [f"{reason}: kept after asking again" for reason in reasons]}
    if not reasons:
        return {}
    return {"recheck": note(), "reviewed": True, "checks": [f"{reason}: asked again" for reason in reasons]} | update
