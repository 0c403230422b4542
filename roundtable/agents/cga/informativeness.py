"""Informativeness of a message, by the rules of docs/agents/cga.md#informativeness (Xu et al. 2023).

Each message gets a score: 5 the agent learns its role; 4 someone is
eliminated; 3 a role is revealed or guessed; 2 a potion is used; 1 otherwise
(the highest rule that applies). The rules read the event's type and the
message's words, so they serve every game: Werewolf's deaths and potions,
Avalon's role claims and guesses (Merlin, Morgana, ...).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

OWN_ROLE = 5
ELIMINATION = 4
ROLE_REVEALED = 3
POTION = 2
OTHER = 1

ROLE_EVENTS = frozenset({"role", "knowledge"})
ELIMINATION_EVENTS = frozenset({"death", "deaths", "died", "elimination", "eliminated", "killed"})
POTION_EVENTS = frozenset({"save", "saved", "poison", "poisoned", "potion", "antidote"})

_ELIMINATED = re.compile(r"\b(died|dies|dead|killed|eliminated|voted out|poisoned to death)\b", re.IGNORECASE)
_POTION = re.compile(r"\b(potions?|antidote|poison(?:ed|s)?)\b", re.IGNORECASE)
_ROLE_WORDS = ("werewolf", "werewolves", "villager", "seer", "witch", "guard")


def role_pattern(roles: Iterable[str]) -> re.Pattern[str]:
    """A pattern matching any of ``roles`` (a game's role names; ``_`` read as a space) or Werewolf's role words."""
    names = {r.replace("_", " ").lower() for r in roles} | set(_ROLE_WORDS)
    alternatives = sorted((re.escape(n) + "s?" for n in names if n), key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(alternatives) + r")\b", re.IGNORECASE)


def informativeness(text: str, event_type: str | None, roles: re.Pattern[str]) -> int:
    """The score of one message (docs/agents/cga.md#informativeness).

    Args:
        text: the message as the agent reads it.
        event_type: the type of the game event it narrates (``None``: a message the agent wrote itself).
        roles: `role_pattern` of the game's roles.

    Returns:
        5, 4, 3, 2 or 1.
    """
    if event_type in ROLE_EVENTS:
        return OWN_ROLE
    if event_type in ELIMINATION_EVENTS or _ELIMINATED.search(text):
        return ELIMINATION
    if roles.search(text):
        return ROLE_REVEALED
    if event_type in POTION_EVENTS or _POTION.search(text):
        return POTION
    return OTHER
