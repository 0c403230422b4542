"""Reading programs from model replies and teams from program output (no model, no sandbox).

A program is the first fenced code block of a reply (```python ... ```, or
any fence); a reply without a fence counts as a program when it calls
``print(``. A team is read from the last printed line that names players.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from roundtable.games.fallbacks import clean_pick
from roundtable.tools.extraction import parse_players

_FENCE = re.compile(r"```[ \t]*(?:python|py)?[ \t]*\n(.*?)(?:```|$)", re.DOTALL | re.IGNORECASE)
_SPECIAL = re.compile(r"<\|[^|>]{1,40}\|>")


def program_of(reply: str) -> str | None:
    """The program in ``reply``, or ``None`` when it holds none."""
    text = _SPECIAL.sub("", reply or "")
    match = _FENCE.search(text)
    if match and match.group(1).strip():
        return match.group(1).strip() + "\n"
    if "print(" in text:
        return text.strip() + "\n"
    return None


def team_of(output: str, count: int, candidates: Sequence[int]) -> tuple[list[int] | None, str | None]:
    """The team a program printed: ``(players, None)``, or ``(None, problem)`` when the output is unusable.

    The last line naming players must name exactly ``count`` different players among ``candidates``.
    """
    lines = [line for line in (output or "").splitlines() if parse_players(line)]
    if not lines:
        return None, f"the program printed no player numbers; print a list of {count} players, e.g. print([1, 4])"
    named = parse_players(lines[-1]) or []
    players, problems = clean_pick(named, count, candidates)
    if problems or len(players) != count:
        why = "; ".join(problems) or f"it names {len(players)} players"
        return None, (f"the program printed {lines[-1].strip()[:80]!r}: {why}; print exactly {count} different "
                      f"players from {min(candidates)} to {max(candidates)}")
    return players, None
