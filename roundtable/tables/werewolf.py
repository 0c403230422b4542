"""The Werewolf table: what the model-driven kinds are told of Werewolf (`roundtable.tables.protocol.GameTable`).

Werewolf leaves its rules, role cards, Host instructions and speech guidance to the kind (`PlainTable`: cga's are
Xu et al.'s game rules and Moderator's words, ``cga/rules``, ``cga/role``, ``cga/instruction``); what only the game
knows is here: its night (the phases `NIGHT`, in secret, a round called ``night``), its day (the refresh of a day's
notes, which the next night's decisions reuse), its living players and Xu et al.'s question sets
(``questions/werewolf``: the paper's Table 2, docs/agents/cga.md#questions). The narrator is the game's
(``werewolf/narration``). Rules: docs/games/werewolf.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from roundtable.games.protocol import PlayerView, Request
from roundtable.games.werewolf import WerewolfView
from roundtable.prompts.rendering import PromptContext
from roundtable.tables.plain import PlainTable
from roundtable.tables.protocol import TableMaker, TableSettings

NIGHT = frozenset({"night", "werewolves", "guard", "witch", "seer"})
"""The phases that are night: requests made in secret (docs/games/werewolf.md)."""


@dataclass(frozen=True)
class WerewolfTable(PlainTable):
    """One Werewolf decision's table (`PlainTable` with Werewolf's night, day, living players and question sets).

    Attributes:
        view: the player's Werewolf view (`roundtable.games.werewolf.WerewolfView`).
    """

    view: WerewolfView

    @property
    def secret(self) -> bool:
        """Whether the request is a night's (`NIGHT`): the werewolves', the Guard's, the Witch's, the Seer's."""
        return self.request.phase in NIGHT

    @property
    def round_name(self) -> str:
        """``night`` in a night phase, else ``day`` (`roundtable.games.protocol.GameRules.round_name`)."""
        return "night" if self.secret else "day"

    @property
    def refresh_key(self) -> str:
        """The day's (``"day 2"``), which the next night's decisions reuse, so the day's talk and vote are reasoned
        on notes written by day, after the night's deaths (the first night, with no day before it, has its own:
        ``"night 1"``; docs/agents/cga.md#the-modules)."""
        round_ = self.view.round
        if self.secret:
            return f"day {round_ - 1}" if round_ > 1 else f"night {round_}"
        return f"day {round_}"

    def alive(self) -> list[int] | None:
        """The living players, in seat order."""
        return list(self.view.alive) or None

    @property
    def question_set(self) -> str | None:
        """Xu et al.'s question sets for Werewolf (2023, Table 2): ``questions/werewolf``."""
        return "questions/werewolf"


def werewolf_table(view: PlayerView, request: Request, context: PromptContext,
                   settings: TableSettings) -> WerewolfTable:
    """Werewolf's table maker (`roundtable.tables.protocol.TableMaker`, registered as
    `roundtable.games.protocol.GameRules.table`).

    Raises:
        TypeError: the view is another game's.
    """
    if not isinstance(view, WerewolfView):
        raise TypeError(f"the Werewolf table serves Werewolf views, not {view.game!r}'s")
    return WerewolfTable(view=view, request=request, context=context, settings=settings)


_MAKER: TableMaker = werewolf_table  # the type checker holds the table to the protocol (GameTable)
