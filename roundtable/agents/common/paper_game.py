"""The facts of the game AvalonBench and Shi et al. played (Avalon) that their prompts state, for the ``react`` and
``cot``/``codeact`` kinds, which read a game only through its table (docs/architecture.md#a-games-table).

Those papers' prompts (AvalonBench's Rules and Role, Shi et al.'s global prompt and leader memory) state Avalon's
quest sizes, the fails a quest needs, the sides of the role set, the leader and the quests played: facts no
`roundtable.tables.protocol.GameTable` carries yet. `paper_game` tells the games apart here, not in the kinds, as
`roundtable.aids.interface.table_settled` does for the aids: a kind renders its paper's pieces where the table gives
these facts, and its neutral ones where it gives none (docs/agents/react.md#other-games,
docs/agents/codeact.md#other-games). A stopgap until the game's table carries them (issue 60).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roundtable.tables.avalon import AvalonTable, role_card_prompts
from roundtable.tables.avalon_rules import rules_variables
from roundtable.tables.protocol import GameTable

__all__ = ["PaperGame", "paper_game", "role_card_prompts"]


@dataclass(frozen=True)
class PaperGame:
    """What the papers' prompts state of the game at the table.

    Attributes:
        rules: the variables of the game's rules (``players``, ``good``, ``evil``, ``roles_text``, ``role_set``,
            ``team_sizes``, ``fails``, ``rules``: `roundtable.tables.avalon_rules.rules_variables`).
        leader: the round's leader.
        quests: each finished quest's public outcome (``round``, ``team``, ``fails``, ``fails_needed``,
            ``success``).
    """

    rules: dict[str, Any]
    leader: int
    quests: tuple[dict[str, Any], ...]


def paper_game(table: GameTable) -> PaperGame | None:
    """The papers' facts of the game at ``table``, or ``None`` at another game's table (the kinds' neutral pieces)."""
    if not isinstance(table, AvalonTable):
        return None
    view = table.view
    return PaperGame(rules=rules_variables(view), leader=view.leader, quests=tuple(view.quests))
