"""Secret Hitler's table: what roundtable's model-driven kinds are told of the game
(`roundtable.tables.protocol.GameTable`; docs/games/secret-hitler.md#the-table).

Registered as ``GameRules.table = "roundtable_secret_hitler.table:secret_hitler_table"``, so every kind that reads
games only through their tables (``cga`` today) plays Secret Hitler with no edit of roundtable. Every text is a
template of this package, served under the ``roundtable.prompts`` entry point ``secret_hitler`` and rendered
through the kind's prompt context (so a kind's override of one applies to it alone):

| piece | template | source |
|---|---|---|
| `SecretHitlerTable.rules_text` | ``secret_hitler/rules`` | the rulebook for the table's player count and board |
| `SecretHitlerTable.role_card` | ``secret_hitler/role`` | *Secret Role*: the role, side and goal |
| `SecretHitlerTable.knowledge_text` | ``secret_hitler/knowledge`` | *Set Up*'s eyes-closed reveal |
| `SecretHitlerTable.narrate` | ``secret_hitler/narration`` | the game's narrator |
| `SecretHitlerTable.instruction` | ``secret_hitler/instruction`` | the request, with the board's status |
| `SecretHitlerTable.speech` | ``secret_hitler/speech`` | to whom the words go, and how many |
| `SecretHitlerTable.decided` | ``secret_hitler/decided`` | the action chosen, in words |

How an answer is written and the Host's note on a retry are every game's (`roundtable.tables.answers`). Source of
every fact: the Secret Hitler rulebook (Goat, Wolf & Cabbage, 2016), as built by this package
(docs/games/secret-hitler.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.narrator import narrate
from roundtable.prompts.rendering import PromptContext
from roundtable.tables.plain import PlainTable, with_role_notes
from roundtable.tables.protocol import TableMaker, TableSettings
from roundtable_secret_hitler.deck import FASCIST, FULL_DECK, LIBERAL
from roundtable_secret_hitler.powers import (
    FASCIST_WIN,
    HITLER_ZONE,
    LIBERAL_WIN,
    TRACKER_CHAOS,
    TRACKS,
    VETO_FROM,
)
from roundtable_secret_hitler.requests import TERM_LIMIT_RELAXED
from roundtable_secret_hitler.roles import FASCISTS, HITLER_KNOWS_MAX
from roundtable_secret_hitler.view import SecretHitlerView

SECRET_KINDS = frozenset({"discard", "enact"})
"""The requests made away from the table: the legislative session's discards (rulebook, *Legislative Session*:
"discards one policy in secret", the Chancellor "discards one ... in secret"). The President's peek asks nothing
(its three policies are a private line of the record) and an investigation's target is named aloud (only its
result is private), so neither is secret."""

ROUND_NAME = "round"
"""The rulebook's word for one presidency (*Gameplay*: "Secret Hitler is played in rounds")."""


def board(players: int) -> list[dict[str, Any]]:
    """The Fascist track of a table of ``players``: ``[{"policy": n, "power": "policy_peek" | ...}]`` for the
    squares with a power, in order (rulebook, the three Fascist track boards; `roundtable_secret_hitler.powers`)."""
    return [{"policy": n, "power": power.value} for n, power in sorted(TRACKS[players].items())]


@dataclass(frozen=True)
class SecretHitlerTable(PlainTable):
    """One Secret Hitler decision's table (`roundtable.tables.protocol.GameTable`; the module docstring lists the
    templates).

    Attributes:
        view: the player's Secret Hitler view (`roundtable_secret_hitler.view.SecretHitlerView`).
        request: the request in hand. context: the kind's prompt context.
        settings: how the kind sets the table: the word limit of words, a learned ``strategy`` and ``role_notes``
            for the role card (`roundtable.tables.protocol.TableSettings`).
    """

    view: SecretHitlerView

    def facts(self) -> dict[str, Any]:
        """The game's facts every template of the table may read: ``me``, ``players``, ``liberals``, ``fascists``
        (besides Hitler), ``hitler_knows`` (Hitler sees the Fascist in the reveal: 5 or 6 players), ``board``
        (`board`), ``talk`` (the ``discussion`` variant asks for words), the thresholds ``liberal_win``,
        ``fascist_win``, ``hitler_zone``, ``veto_from``, ``tracker_chaos``, ``relaxed`` (players alive at which only
        the last Chancellor is term-limited) and the deck (``deck_liberal``, ``deck_fascist``)."""
        view = self.view
        players = view.players
        return {
            "me": view.player, "players": players, "fascists": FASCISTS[players],
            "liberals": players - FASCISTS[players] - 1, "hitler_knows": players <= HITLER_KNOWS_MAX,
            "board": board(players), "talk": view.rules.get("discussion", "after_nomination") != "none",
            "liberal_win": LIBERAL_WIN, "fascist_win": FASCIST_WIN, "hitler_zone": HITLER_ZONE,
            "veto_from": VETO_FROM, "tracker_chaos": TRACKER_CHAOS, "relaxed": TERM_LIMIT_RELAXED,
            "deck_liberal": FULL_DECK.count(LIBERAL), "deck_fascist": FULL_DECK.count(FASCIST),
        }

    def status(self) -> dict[str, Any]:
        """The public board and the player's own private facts, for the instruction: ``president``,
        ``chancellor``, ``liberal_policies``, ``fascist_policies``, ``tracker``, ``alive``, ``dead``,
        ``term_limited``, ``investigated``, ``veto``, ``hand`` and ``passed`` (the player's own),
        ``investigations`` (what its own investigations found)."""
        view = self.view
        return {
            "president": view.president, "chancellor": view.chancellor,
            "liberal_policies": view.liberal_policies, "fascist_policies": view.fascist_policies,
            "tracker": view.tracker, "alive": list(view.alive), "dead": list(view.dead),
            "term_limited": list(view.term_limited), "investigated": list(view.investigated), "veto": view.veto,
            "hand": list(view.hand), "passed": list(view.passed),
            "investigations": [dict(i) for i in view.investigations],
        }

    def rules_text(self) -> str:
        """The system prompt: the rulebook for this table's player count, its board and the talk variant
        (template ``secret_hitler/rules`` with `facts`)."""
        return self.context.render("secret_hitler/rules", **self.facts())

    def role_card(self) -> str:
        """The player's role card: role, side, goal, and a learned strategy (`TableSettings.strategy`), then what it
        learned of the other roles (`TableSettings.role_notes`; template ``secret_hitler/role``)."""
        view = self.view
        card = self.context.render("secret_hitler/role", **self.facts(), role=view.role, side=view.side,
                                   title=self.role_title, strategy=self.settings.strategy)
        return with_role_notes(card, self.settings.role_notes)

    def knowledge_text(self) -> str:
        """What the player saw in the eyes-closed reveal, in words (template ``secret_hitler/knowledge``): a Fascist
        its fellow Fascists and Hitler; Hitler the Fascist at 5 or 6 players, and at 7 or more that he saw nobody;
        a Liberal nothing (``""``)."""
        view = self.view
        return self.context.render("secret_hitler/knowledge", **self.facts(), role=view.role,
                                   knowledge=[dict(k) for k in view.knowledge if k.get("player") != view.player])

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as the player's record line (the game's narrator, template ``secret_hitler/narration``,
        through the kind's context)."""
        return narrate(self.view.game, event, self.view.player, self.view.rules,
                       source=self.context.template("secret_hitler/narration"))

    def instruction(self) -> str:
        """The Host's instruction for the request in hand (template ``secret_hitler/instruction``): the request's
        fields (`request_variables`), ``round``, ``subject``, ``details``, the board's status (`status`) and the
        game's facts (`facts`)."""
        r = self.request
        return self.context.render("secret_hitler/instruction", **self.facts(), **self.status(),
                                   **self.request_variables(), round=r.round, subject=list(r.subject),
                                   details=dict(r.details))

    def speech(self) -> str:
        """How the words of the request in hand are said (template ``secret_hitler/speech``): to the table, at most
        `TableSettings.response_words` words."""
        r = self.request
        return self.context.render("secret_hitler/speech", words=self.settings.response_words, kind=r.kind,
                                   audience=list(r.audience) if r.audience is not None else None)

    def decided(self, action: dict[str, Any] | None) -> str:
        """The chosen action in words, when only the words are asked for again (template
        ``secret_hitler/decided``; ``""`` when there is none): ``{"players": [...]}`` or ``{"choice": bool}``."""
        if not action:
            return ""
        return self.context.render("secret_hitler/decided", kind=self.request.kind, players=action.get("players"),
                                   choice=action.get("choice"), options=list(self.request.options))

    @property
    def round_name(self) -> str:
        """The rulebook's ``round`` (`ROUND_NAME`): one presidency."""
        return ROUND_NAME

    @property
    def secret(self) -> bool:
        """Whether the request is one of the legislative session's secret discards (`SECRET_KINDS`)."""
        return self.request.kind in SECRET_KINDS

    @property
    def refresh_key(self) -> str:
        """The round (``"3"``): every decision of one presidency shares one refresh of per-round notes."""
        return str(self.view.round)

    def alive(self) -> list[int] | None:
        """The living players, in seat order (the executed removed)."""
        return list(self.view.alive) or None

    @property
    def probe_sides(self) -> tuple[str, str]:
        """``("liberal", "fascist")``: the belief probe asks how likely each player is to be a Liberal."""
        return ("liberal", "fascist")

    @property
    def probe_roles(self) -> str:
        """``"a Liberal"``: the one role of the side the probe asks about."""
        return "a Liberal"

    @property
    def question_set(self) -> str | None:
        """No paper gives Secret Hitler a question set: ``None``."""
        return None


def secret_hitler_table(view: PlayerView, request: Request, context: PromptContext,
                        settings: TableSettings) -> SecretHitlerTable:
    """Secret Hitler's table maker (`roundtable.tables.protocol.TableMaker`, registered as
    `roundtable.games.protocol.GameRules.table`): the table of one decision under ``settings``.

    Raises:
        TypeError: the view is another game's.
    """
    if not isinstance(view, SecretHitlerView):
        raise TypeError(f"the Secret Hitler table serves Secret Hitler views, not {view.game!r}'s")
    return SecretHitlerTable(view=view, request=request, context=context, settings=settings)


_MAKER: TableMaker = secret_hitler_table  # the type checker holds the table to the protocol (GameTable)
