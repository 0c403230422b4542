"""The variables of the rules template (``avalon/rules``) from an Avalon view, shared by every agent kind's prompts."""

from __future__ import annotations

from collections import Counter
from typing import Any

from roundtable.games.avalon import AvalonView, Role, fails_needed, team_size

PLURAL_TITLES = {Role.SERVANT: "Loyal Servants of Arthur", Role.MINION: "Minions of Mordred"}


def rules_variables(view: AvalonView) -> dict[str, Any]:
    """``players, good, evil, roles_text, role_set, team_sizes, fails, rules`` for ``avalon/rules``.

    ``fails`` follows the game's ``two_fail_quests`` variant (docs/games/avalon.md#two_fail_quests).
    """
    roles = [Role(r) for r in view.role_set]
    counts = Counter(roles)
    titled = []
    for role in Role:
        n = counts[role]
        if n == 1:
            titled.append(role.title)
        elif n > 1:
            titled.append(f"{n} {PLURAL_TITLES.get(role, role.title + 's')}")
    evil = sum(1 for r in roles if r.side.value == "evil")
    two_fail = view.rules.get("two_fail_quests", "official")
    return {
        "players": view.players,
        "good": view.players - evil,
        "evil": evil,
        "roles_text": ", ".join(titled),
        "role_set": list(view.role_set),
        "team_sizes": [team_size(view.players, q) for q in range(1, 6)],
        "fails": [fails_needed(view.players, q, two_fail) for q in range(1, 6)],
        "rules": dict(view.rules),
    }
