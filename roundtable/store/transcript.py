"""Readable transcript lines for a game's events, from the game's narrator (`roundtable.prompts.narrator`).

Public events read as the Host announces them to the players; private ones
are marked with who saw them (``[to 2]``) and hidden records (model
decisions) are left out unless asked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.markup import escape

from roundtable.prompts.narrator import narrate, variants_of


def lines(events: Iterable[dict[str, Any]], *, game: str = "avalon", rules: dict[str, str] | None = None,
          hidden: bool = False, markup: bool = True) -> list[str]:
    """Transcript lines for ``events``.

    Args:
        events: log entries (dicts with ``type`` and ``to``).
        game: the game's name (its narrator).
        rules: its rule variants (default: from a ``game_start`` event among ``events``).
        hidden: include analysis-only records (model decisions).
        markup: Rich markup (private lines dimmed) instead of plain text.

    Returns:
        One line per shown event.
    """
    events = list(events)
    if rules is None:
        rules = variants_of(events)
    out = []
    for e in events:
        to = e.get("to")
        if to == [] and not hidden:
            continue
        text = narrate(game, e, None, rules)
        if text is None:
            continue
        if to is None:
            out.append(escape(text) if markup else text)
            continue
        label = "record" if to == [] else "to " + ",".join(str(p) for p in to)
        line = f"  [{label}] {text}"
        out.append(f"[dim]{escape(line)}[/dim]" if markup else line)
    return out
