"""What the kinds that keep a memory of the game share: which events are new to a player, and the game's key facts."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from roundtable.games import GAMES
from roundtable.games.protocol import PlayerView

T = TypeVar("T")

Narrate = Callable[[dict[str, Any]], "str | None"]
"""``narrate(event) -> text or None``: the game's narrator for this player (`roundtable.prompts.narrator`)."""


def key_events(view: PlayerView) -> frozenset[str]:
    """The view's game's key Host facts: the log entries a memory keeps beyond the round they happened in
    (`roundtable.games.protocol.GameRules.key_events`; Avalon's vote results, teams sent, quest results, the
    assassination and the game's end)."""
    return GAMES[view.game].key_events


def identity_words(view: PlayerView) -> tuple[str, ...]:
    """The words by which talk in the view's game reveals or deduces an identity
    (`roundtable.games.protocol.GameRules.identity_words`)."""
    return GAMES[view.game].identity_words


def window(lines: Sequence[T], keep: int, step: int) -> list[T]:
    """The newest of ``lines`` a memory of ``keep`` lines shows when its oldest leave ``step`` at a time
    (the ``memory_step`` of `cot`/`codeact`, the ``freshness_step`` of `cga`; docs/agents/paper-values.md).

    Between ``keep`` and ``keep + step - 1`` lines are shown once there are that many: new lines are appended,
    and when ``keep + step`` are reached the oldest ``step`` leave together. ``step`` 1 is a sliding window of the
    last ``keep`` (Shi et al.'s last k messages, Xu et al.'s last K). The result depends only on ``len(lines)``
    modulo ``step``, so a window of a window is the same window (a pool may store it trimmed). Between drops the
    lines shown grow only by appending, so a prompt holding them keeps its prefix for a server's prompt cache.

    Args:
        lines: the lines so far, oldest first.
        keep: the fewest lines shown once there are that many (0: none).
        step: lines that leave at once (at least 1).
    """
    if keep <= 0:
        return []
    if len(lines) <= keep:
        return list(lines)
    return list(lines)[-(keep + (len(lines) - keep) % step):]


def new_events(memory: dict[str, Any], view: PlayerView) -> tuple[tuple[dict[str, Any], ...], int]:
    """The view's events not read before, and the new read count.

    A view may hold the whole visible log (``first_event`` 0) or only the
    entries not delivered before; either way the events at visible-log index
    ``memory["seen"]`` and later are new.
    """
    seen = int(memory.get("seen") or 0)
    start = max(0, seen - view.first_event)
    return view.events[start:], max(seen, view.first_event + len(view.events))
