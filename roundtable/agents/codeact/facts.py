"""The leader's facts (Shi et al. 2023, leader memory; docs/agents/codeact.md#memory), derived from the player's view
only.

Each fact is a dict with a ``kind``, rendered as a plain statement by the
template ``codeact/facts``:

- ``self``: its own seat, role and side; ``counts``: players, good, evil;
- its role's private knowledge: ``evil`` (Merlin: these players are evil),
  ``evil_team`` (an evil player's teammates), ``merlin`` / ``one_good_one_evil``
  (Percival: with Morgana in play, one of the two is good and one evil);
- ``quest``: each finished quest's team, fails and result (``exact``: under
  ``evil_quest_card=must_fail`` the fails are exactly the evil members);
- ``vote``: each team vote's leader, team, result and, where votes are public, who approved.
"""

from __future__ import annotations

from typing import Any

from roundtable.games.avalon import AvalonView, Role


def leader_facts(view: AvalonView, memory: dict[str, Any]) -> list[dict[str, Any]]:
    """The facts its player may know, in the order above.

    Args:
        view: the player's view (its ``knowledge`` and ``quests``; events are not needed).
        memory: the player's pool (`roundtable.agents.codeact.memory`), for the votes it saw.
    """
    roles = [Role(r) for r in view.role_set]
    evil = sum(1 for r in roles if r.side.value == "evil")
    facts: list[dict[str, Any]] = [
        {"kind": "self", "player": view.player, "role": Role(view.role).title, "side": view.side},
        {"kind": "counts", "total": view.players, "good": view.players - evil, "evil": evil},
    ]
    labels = {k["is"] for k in view.knowledge}
    seen = sorted(int(k["player"]) for k in view.knowledge)
    if seen:
        if labels == {"merlin_or_morgana"}:
            facts.append({"kind": "one_good_one_evil", "players": seen})
        elif labels == {"merlin"}:
            facts.append({"kind": "merlin", "players": seen})
        elif view.side == "evil":
            facts.append({"kind": "evil_team", "players": seen})
        else:
            facts.append({"kind": "evil", "players": seen})
    exact = view.rules.get("evil_quest_card") == "must_fail"
    for quest in view.quests:
        facts.append({"kind": "quest", "round": quest["round"], "team": list(quest["team"]),
                      "fails": quest["fails"], "success": bool(quest["success"]), "exact": exact})
    for vote in memory.get("votes") or []:
        approvers = vote.get("approvers")
        rejecters = None if approvers is None else [p for p in range(1, view.players + 1) if p not in approvers]
        facts.append({"kind": "vote_team", **vote, "rejecters": rejecters})
    return facts


def fact_players(fact: dict[str, Any]) -> set[int]:
    """The players a fact names (for a ReAct ``Check[players]`` observation)."""
    named: set[int] = set()
    for key in ("players", "team", "approvers", "rejecters"):
        named |= set(fact.get(key) or [])
    if fact.get("player") is not None:
        named.add(int(fact["player"]))
    if fact.get("leader") is not None:
        named.add(int(fact["leader"]))
    return named
