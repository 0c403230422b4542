"""A plain table: a game's table whose texts are a kind's own templates (`roundtable.tables.protocol.GameTable`).

For a game that leaves its rules, role cards, Host instructions and speech guidance to each kind (Werewolf today:
the kinds that play it speak Xu et al.'s Moderator's words, cga's ``cga/rules``, ``cga/role``,
``cga/instruction``, ``aids/cga/speech``), the table renders `TableSettings.prompt` of each piece through the
kind's context with the view's and the request's fields; the rules are the game's own ``<game>/rules`` where the
game ships that template. A game subclasses it for what only it knows (`roundtable.tables.werewolf.WerewolfTable`:
its night, its day, its living players, its question sets).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roundtable.games import GAMES
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.narrator import narrate_or_plain
from roundtable.prompts.rendering import PromptContext
from roundtable.tables import answers
from roundtable.tables.protocol import PaperGame, TableSettings, game_template, render_kind_text


def with_role_notes(card: str, role_notes: str) -> str:
    """A role card with what the player learned in earlier games about the other roles appended (Lan et al.'s
    other-role strategies, `TableSettings.role_notes`; ``""``: the card as it is)."""
    if not role_notes:
        return card
    return f"{card.rstrip()}\nWhat you learned in earlier games about the other roles: {role_notes}\n"


@dataclass(frozen=True)
class PlainTable:
    """One decision's table in the kind's own words (`roundtable.tables.protocol.GameTable`).

    Attributes:
        view: the player's view. request: the request in hand. context: the kind's prompt context.
        settings: how the kind sets the table (its templates: `TableSettings.prompt`).
    """

    view: PlayerView
    request: Request
    context: PromptContext
    settings: TableSettings = field(default_factory=TableSettings)

    def prompt(self, piece: str) -> str:
        """The kind's template for ``piece`` in this game (`roundtable.tables.protocol.kind_template`: the piece
        worded for the game where the kind has it, else the piece's own)."""
        return game_template(self.context, self.settings.prompt, self.view.game, piece)

    def kind_text(self, piece: str, **variables: Any) -> str:
        """The kind's own text of ``piece`` at this game's table, ``""`` without one
        (`roundtable.tables.protocol.render_kind_text`)."""
        return render_kind_text(self.context, self.settings, self.view.game, piece, **variables)

    @property
    def game_title(self) -> str:
        """The game's name in prompts (`roundtable.games.protocol.GameRules.game_title`)."""
        return GAMES[self.view.game].game_title

    def rules_text(self) -> str:
        """The rules: the kind's own wording of this game's (``<kind>/<game>/rules``, a paper's text of it: cga's
        Xu et al. Werewolf rules) where it has one, else the game's ``<game>/rules`` where it renders with the view's
        fields, else the kind's neutral ``rules`` template; variables ``game``, ``title``, ``players``,
        ``role_set``, ``rules``, ``me``, ``role``."""
        view = self.view
        variables = {"game": view.game, "title": self.game_title, "players": view.players,
                     "role_set": list(view.role_set), "rules": dict(view.rules), "me": view.player, "role": view.role}
        worded = self.settings.prompt(f"{view.game}/rules")
        if self.context.has(worded):
            return self.context.render(worded, **variables)
        try:
            return self.context.render(f"{view.game}/rules", **variables)
        except Exception:  # noqa: BLE001 - no such template, or one asking for other variables: the kind's rules
            pass
        return self.context.render(self.prompt("rules"), **variables)

    def role_card(self) -> str:
        """The kind's ``role`` template with ``game``, ``role``, ``title``, ``side``, ``players``, ``strategy``
        (`TableSettings.strategy`), then what the player learned of the other roles (`TableSettings.role_notes`)."""
        view = self.view
        card = self.context.render(self.prompt("role"), game=view.game, role=view.role, title=self.role_title,
                                   side=view.side, players=view.players, strategy=self.settings.strategy)
        return with_role_notes(card, self.settings.role_notes)

    def knowledge_text(self) -> str:
        """What the player learned at the start: ``Player 3 is werewolf.`` a line of knowledge, itself left out."""
        view = self.view
        return " ".join(f"Player {k['player']} is {str(k['is']).replace('_', ' ')}." for k in view.knowledge
                        if k.get("player") != view.player)

    @property
    def role_title(self) -> str:
        """The player's role in words (`roundtable.games.protocol.GameRules.role_title`)."""
        return GAMES[self.view.game].role_title(self.view.role)

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event as the player's record line (the game's narrator ``<game>/narration``); a game without a
        narrator gets a plain line: the event's type and fields."""
        return narrate_or_plain(self.view.game, event, self.view.player, self.view.rules)

    def instruction(self) -> str:
        """The kind's ``instruction`` template with the request's fields: ``kind``, ``answer``, ``me``, ``round``,
        ``count``, ``candidates``, ``may_pass``, ``options``, ``allowed``, ``subject``, ``audience``, ``details``."""
        r = self.request
        return self.context.render(
            self.prompt("instruction"), kind=r.kind, answer=r.answer, me=self.view.player, round=r.round,
            count=r.count, candidates=list(r.candidates), may_pass=r.may_pass, options=list(r.options),
            allowed=[r.word(c) for c in r.allowed], subject=list(r.subject),
            audience=list(r.audience) if r.audience is not None else None, details=dict(r.details))

    def speech(self) -> str:
        """The kind's ``speech`` template with ``words``, ``side``, ``role``, ``audience``."""
        r = self.request
        return self.context.render(self.prompt("speech"), words=self.settings.response_words, side=self.view.side,
                                   role=self.view.role, audience=list(r.audience) if r.audience is not None else None)

    def request_variables(self) -> dict[str, Any]:
        """The request's fields for the answer templates (`roundtable.tables.answers.request_variables`)."""
        return answers.request_variables(self.request)

    def choice_help(self, json: bool, reason: bool = False) -> str:
        """How the answer's choice is written (`roundtable.tables.answers.choice_help`)."""
        return answers.choice_help(self.context, self.request_variables(), json, reason)

    def retry_note(self, attempt: int) -> str:
        """What the Host says when asking again for players (`roundtable.tables.answers.retry_note`)."""
        return answers.retry_note(self.context, self.request, self.view.players, attempt)

    def decided(self, action: dict[str, Any] | None) -> str:
        """No words for a chosen action: ``""``."""
        return ""

    @property
    def round_name(self) -> str:
        """What the game calls a round (`roundtable.games.protocol.GameRules.round_name`)."""
        return GAMES[self.view.game].round_name

    @property
    def secret(self) -> bool:
        """No request is made away from the table: ``False``."""
        return False

    @property
    def refresh_key(self) -> str:
        """The round (``"3"``)."""
        return str(self.view.round)

    def alive(self) -> list[int] | None:
        """The game's living players where its view has them (``alive``), else ``None``."""
        alive = getattr(self.view, "alive", None)
        return list(alive) if alive else None

    @property
    def probe_sides(self) -> tuple[str, str]:
        """``("good", "evil")``; a game whose sides have other names overrides it."""
        return ("good", "evil")

    @property
    def probe_roles(self) -> str:
        """No roles named: ``""``."""
        return ""

    @property
    def paper_game(self) -> PaperGame | None:
        """Not the papers' game: ``None``."""
        return None

    @property
    def question_set(self) -> str | None:
        """No question set of the game's own: ``None``."""
        return None
