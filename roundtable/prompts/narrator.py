"""The one narrator of each game: an event as one line of text, from its template ``<game>/narration``.

Used by the transcript (``me=None``: the whole table, private events included)
and by every agent (``me``: the player whose memory records the event; public
events read the same for every player, so prompts share a prefix).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from roundtable.prompts.registry import PromptNotFoundError, registry


def narrate(game: str, event: dict[str, Any], me: int | None = None, rules: dict[str, str] | None = None,
            source: str | None = None) -> str | None:
    """One event of ``game`` as text, or ``None`` when the narrator says nothing of it.

    Args:
        game: the game's name (``avalon``): the template is ``<game>/narration``.
        event: a log entry.
        me: the reading player, or ``None`` for the transcript.
        rules: the game's rule variants (some lines depend on them).
        source: replacement template text for this run (a context override).

    Raises:
        PromptNotFoundError: the game has no narrator template.
    """
    text = registry.render(f"{game}/narration", source=source, e=event, me=me, rules=rules or {})
    return text or None


def narrate_or_plain(game: str, event: dict[str, Any], me: int | None = None,
                     rules: dict[str, str] | None = None) -> str | None:
    """`narrate`, or, for a game with no narrator template, a plain line: the event's type and its fields
    (``"policy peek: player 3"``)."""
    try:
        return narrate(game, event, me, rules)
    except PromptNotFoundError:
        return plain_line(event)


def plain_line(event: dict[str, Any]) -> str:
    """An event as a plain line, its type and its fields (``"policy peek: player 3"``), for a game or a record the
    narrator cannot tell."""
    fields = ", ".join(f"{k} {v}" for k, v in event.items() if k not in ("type", "to") and v is not None)
    return f"{str(event.get('type', 'event')).replace('_', ' ')}: {fields}"


def variants_of(events: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The rule variants a log's ``game_start`` entry states, as `narrate` takes them (``{}`` when it has none)."""
    return next((dict(e.get("rules") or {}) for e in events if e.get("type") == "game_start"), {})
