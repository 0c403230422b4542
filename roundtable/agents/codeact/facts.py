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

At another game's table (no Shi et al.'s facts, `GameTable.paper_game`), the same in the game's own
terms: ``self`` (the table's role title), ``known`` (each line of the player's private knowledge, its
``label``: ``Player 3 is werewolf``), and ``record``: each Host line of the public record in the player's
memory (the game's outcomes, as its narrator words them), where Avalon's quests and team votes would be.
"""

from __future__ import annotations

import re
from typing import Any

from roundtable.games.protocol import PlayerView
from roundtable.tables.protocol import GameTable, PaperGame

_PLAYER = re.compile(r"\bPlayers? (\d+)")


def leader_facts(view: PlayerView, memory: dict[str, Any], table: GameTable,
                 paper: PaperGame | None) -> list[dict[str, Any]]:
    """The facts its player may know, in the order above.

    Args:
        view: the player's view (its ``knowledge``; events are not needed).
        memory: the player's pool (`roundtable.agents.codeact.memory`), for the votes it saw and its record.
        table: the decision's table (the role's title).
        paper: Shi et al.'s facts of the game (its counts and quests), or ``None`` at another game's table.
    """
    self_fact = {"kind": "self", "player": view.player, "role": table.role_title, "side": view.side}
    if paper is None:
        known = [{"kind": "known", "players": [int(k["player"])], "label": str(k["is"]).replace("_", " ")}
                 for k in view.knowledge if k.get("player") != view.player]
        record = [{"kind": "record", "text": line.removeprefix("Host: "), "players": _players(line)}
                  for line in memory.get("key") or [] if line.startswith("Host: ")]
        return [self_fact, *known, *record]
    evil = int(paper.rules["evil"])
    facts: list[dict[str, Any]] = [
        self_fact,
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
    for quest in paper.quests:
        facts.append({"kind": "quest", "round": quest["round"], "team": list(quest["team"]),
                      "fails": quest["fails"], "success": bool(quest["success"]), "exact": exact})
    for vote in memory.get("votes") or []:
        approvers = vote.get("approvers")
        rejecters = None if approvers is None else [p for p in range(1, view.players + 1) if p not in approvers]
        facts.append({"kind": "vote_team", **vote, "rejecters": rejecters})
    return facts


def _players(line: str) -> list[int]:
    """The players a record line names (``Player 3``, ``Players 2, 5``: the first number of each)."""
    return sorted({int(n) for n in _PLAYER.findall(line)})


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
