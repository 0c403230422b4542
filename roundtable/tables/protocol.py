"""A game's table: what a game tells the model-driven agent kinds about itself, so that a kind reads any game
through one description and compares no game's name (docs/architecture.md#a-games-table,
docs/games/protocol.md#a-games-table).

A game registers its table through its rules record: `roundtable.games.protocol.GameRules.table`, the import path
``"module:function"`` of its `TableMaker` (a string, since the games sit below the tables in the layers; a plugin
game names a function of its own package). `game_table` builds the table of one decision; `has_table` says whether
a game has one; `games_with_tables` lists the registered games that do (the games such a kind plays).

Avalon's table is `roundtable.tables.avalon.AvalonTable`, Werewolf's `roundtable.tables.werewolf.WerewolfTable`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, runtime_checkable

from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.rendering import PromptContext


@dataclass(frozen=True)
class PaperGame:
    """What AvalonBench's and Shi et al.'s prompts state of the game they played (docs/agents/react.md#paper-mode,
    docs/agents/codeact.md#paper-mode): a table whose game is theirs supplies it (`GameTable.paper_game`).

    Attributes:
        rules: the variables of the game's rules their prompts name (Avalon's ``players``, ``good``, ``evil``,
            ``roles_text``, ``role_set``, ``team_sizes``, ``fails``, ``rules``).
        leader: the round's leader (1-based).
        quests: each finished quest's public outcome (``round``, ``team``, ``fails``, ``fails_needed``,
            ``success``).
    """

    rules: dict[str, Any]
    leader: int
    quests: tuple[dict[str, Any], ...]


PromptFieldsHook = Callable[[list[str]], dict[str, tuple[str, list[str], str]]]
"""``prompt_fields(nodes) -> {field: (template, nodes, description)}``: a game's own templates a kind's context
makes editable (`roundtable.prompts.rendering.PromptFields`), read by ``nodes``."""


def own_name(name: str) -> str:
    """A kind's template for one of its own pieces, by default the piece's name itself."""
    return name


@dataclass(frozen=True)
class TableSettings:
    """How a kind sets a table for one decision.

    Attributes:
        response_words: the word limit of the player's words at the table.
        knowledge_lines: state beside the request what the player's knowledge settles about it, where the game
            has such lines (Avalon's team lines; the seat option ``knowledge_note``, docs/agents/checks.md#options).
        aids: the seat's aids are on (docs/agents/aids.md): a game with aids' texts of its own renders those
            (Avalon's role cards ``aids/avalon/roles/<role>``).
        strategy: the role's strategy on the role card, learned between games (Lan et al.'s experience learning,
            docs/agents/lga.md#experience-learning; ``""``: the card's own, where it has one).
        role_notes: what the player learned in earlier games about the other roles (``""``: none).
        prompt: ``prompt(piece) -> template name``: the kind's own template for a piece a game leaves to the kind
            (``"rules"``, ``"role"``, ``"instruction"``, ``"speech"``, a question set ``"questions/werewolf"``);
            cga's: ``cga/<piece>``, or ``aids/cga/<piece>`` with the aids on. A kind may word a piece for one game
            (its paper's text of that game): the template of the piece ``<game>/<piece>`` (cga's
            ``cga/werewolf/rules``, Xu et al.'s Werewolf rules) is rendered there in place of the piece's
            (`kind_template`).
    """

    response_words: int = 20
    knowledge_lines: bool = True
    aids: bool = False
    strategy: str = ""
    role_notes: str = ""
    prompt: Callable[[str], str] = own_name


@runtime_checkable
class GameTable(Protocol):
    """One decision's table, rendered through a kind's prompt context: what the model is told of the game.

    Every text is rendered through ``context``, so a kind's overrides of a template apply to it alone.
    """

    @property
    def view(self) -> PlayerView:
        """The player's view."""
        ...

    @property
    def request(self) -> Request:
        """The request in hand."""
        ...

    @property
    def context(self) -> PromptContext:
        """The kind's prompt context."""
        ...

    @property
    def game_title(self) -> str:
        """The game's name in prompts (`roundtable.games.protocol.GameRules.game_title`: ``"Avalon"``)."""
        ...

    def rules_text(self) -> str:
        """The system prompt: the game's rules for its role set and variants."""
        ...

    def role_card(self) -> str:
        """The player's role card: its role, side and goal (a strategy where the game's card has one)."""
        ...

    def knowledge_text(self) -> str:
        """What the player learned privately at the start, in words (``""``: nothing)."""
        ...

    @property
    def role_title(self) -> str:
        """The player's role in words (``"Seer"``, ``"Loyal Servant of Arthur"``)."""
        ...

    def narrate(self, event: dict[str, Any]) -> str | None:
        """One event of the player's record as a line, or ``None`` for an event the table says nothing of."""
        ...

    def instruction(self) -> str:
        """The Host's instruction for the request in hand."""
        ...

    def kind_text(self, piece: str, **variables: Any) -> str:
        """The kind's own text of ``piece`` at this game's table (`kind_template`) rendered with ``variables``, or
        ``""`` where the kind has no such template: a paper's sentence of one game (cga's ``think_tip``, Xu et
        al.'s Werewolf tip, ``cga/werewolf/think_tip``)."""
        ...

    def speech(self) -> str:
        """How the words of the request in hand are said: to whom and how long."""
        ...

    def request_variables(self) -> dict[str, Any]:
        """The request's fields for the answer templates (`roundtable.tables.answers.request_variables`)."""
        ...

    def choice_help(self, json: bool, reason: bool = False) -> str:
        """How the answer's choice is written (`roundtable.tables.answers.choice_help`)."""
        ...

    def retry_note(self, attempt: int) -> str:
        """What the Host says when asking again for players (`roundtable.tables.answers.retry_note`)."""
        ...

    def decided(self, action: dict[str, Any] | None) -> str:
        """The action already chosen, in words, when only the words are asked for again (``""``: none)."""
        ...

    @property
    def round_name(self) -> str:
        """What the game calls the moment of the request in prompts: its round (``quest``, ``day``), or a
        phase's own name (Werewolf's ``night``)."""
        ...

    @property
    def secret(self) -> bool:
        """Whether the request is made in secret, away from the table (Werewolf's night phases): no one hears
        the player, and Xu et al.'s question of whether one's role is exposed is not asked."""
        ...

    @property
    def refresh_key(self) -> str:
        """Which decisions share one refresh of a kind's per-round notes (cga's ``refresh=round``): Avalon's
        round (``"3"``), Werewolf's day (``"day 2"``, the next night's decisions included)."""
        ...

    def alive(self) -> list[int] | None:
        """The living players where the game removes players (Werewolf), else ``None``."""
        ...

    @property
    def probe_sides(self) -> tuple[str, str]:
        """The belief probe's two sides in the game's words, the side asked about first (Avalon's
        ``("good", "evil")``; docs/measures.md#deduction-accuracy): a kind's probe asks how likely each player is
        to be on the first."""
        ...

    @property
    def probe_roles(self) -> str:
        """The roles of the side the belief probe asks about, in words (Avalon's ``"Merlin, Percival or a Loyal
        Servant of Arthur"``, for its role set; ``""``: the game names none)."""
        ...

    @property
    def paper_game(self) -> PaperGame | None:
        """The facts AvalonBench's and Shi et al.'s prompts state, where the game is the one they played (Avalon's
        table gives them); ``None``: another game, whose table a kind renders its neutral pieces from
        (docs/agents/react.md#other-games)."""
        ...

    @property
    def question_set(self) -> str | None:
        """Xu et al.'s question step (docs/agents/cga.md#questions): the piece naming the game's own question sets
        among a kind's templates (``"questions/avalon"``, ``"questions/werewolf"``: `TableSettings.prompt` gives
        the template), rendered with ``part`` (``asked``, ``shared``, ``role``), ``role`` and ``day``; ``None``:
        the game has none."""
        ...


def kind_template(context: PromptContext, settings: TableSettings, game: str, piece: str) -> str | None:
    """The kind's template for ``piece`` in ``game`` (`TableSettings.prompt`): the piece worded for the game
    (``prompt("<game>/<piece>")``) where the kind's context has it, else the piece's own (``prompt(piece)``) where
    it has that, else ``None``. A lookup by the game's name, not a comparison: a kind words a game's piece by
    shipping its template, and every other game gets the piece's own."""
    for name in (settings.prompt(f"{game}/{piece}"), settings.prompt(piece)):
        if context.has(name):
            return name
    return None


def game_template(context: PromptContext, prompt: Callable[[str], str], game: str, piece: str) -> str:
    """The template of ``piece`` in ``game`` for a kind whose templates ``prompt`` names: `kind_template`'s (the
    piece worded for the game where the context has it), else ``prompt(piece)`` even where the context has none
    (rendering it then names what is missing)."""
    return kind_template(context, TableSettings(prompt=prompt), game, piece) or prompt(piece)


def render_kind_text(context: PromptContext, settings: TableSettings, game: str, piece: str,
                     **variables: Any) -> str:
    """`kind_template` rendered with ``variables`` (``""``: the kind has no template of the piece)."""
    name = kind_template(context, settings, game, piece)
    return context.render(name, **variables) if name is not None else ""


TableMaker = Callable[[PlayerView, Request, PromptContext, TableSettings], GameTable]
"""``maker(view, request, context, settings) -> GameTable``: a game's table for one decision."""


@cache
def _maker(path: str) -> TableMaker:
    module, _, name = path.partition(":")
    maker: TableMaker = getattr(importlib.import_module(module), name)
    return maker


def table_maker(game: str) -> TableMaker | None:
    """The table maker ``game`` registers (`roundtable.games.protocol.GameRules.table`), or ``None``: none.

    Raises:
        ConfigurationError: ``game`` is not a registered game, or its table's path does not import.
    """
    if game not in GAMES:
        raise ConfigurationError(f"unknown game {game!r}; valid games: {', '.join(sorted(GAMES))}")
    path = GAMES[game].table
    if path is None:
        return None
    try:
        return _maker(path)
    except (ImportError, AttributeError, ValueError) as e:
        raise ConfigurationError(f"{game}'s table {path!r} cannot be loaded: {e}") from e


def table_prompt_fields(nodes: list[str]) -> dict[str, tuple[str, list[str], str]]:
    """The templates of every registered game's table that a kind's context makes editable, read by ``nodes``:
    each table module's ``prompt_fields(nodes)`` (a `PromptFieldsHook`, Avalon's role cards), merged in game-name
    order; a table module without one adds none.

    Raises:
        ConfigurationError: a game's table path does not import.
    """
    fields: dict[str, tuple[str, list[str], str]] = {}
    for game in sorted(games_with_tables()):
        path = GAMES[game].table
        assert path is not None  # games_with_tables holds only games with a table
        try:
            module = importlib.import_module(path.partition(":")[0])
        except ImportError as e:
            raise ConfigurationError(f"{game}'s table {path!r} cannot be loaded: {e}") from e
        hook: PromptFieldsHook | None = getattr(module, "prompt_fields", None)
        fields |= hook(nodes) if hook is not None else {}
    return fields


def has_table(game: str) -> bool:
    """Whether ``game`` describes its table (`roundtable.games.protocol.GameRules.table`)."""
    return game in GAMES and GAMES[game].table is not None


def games_with_tables() -> frozenset[str]:
    """The registered games that describe their tables: the games a kind that reads only tables plays."""
    return frozenset(name for name in GAMES if has_table(name))


def game_table(view: PlayerView, request: Request, context: PromptContext,
               settings: TableSettings | None = None) -> GameTable:
    """The table of the decision on ``request`` under ``view``, through a kind's ``context``.

    Raises:
        ConfigurationError: the view's game describes no table (a kind that reads tables cannot play it).
    """
    maker = table_maker(view.game)
    if maker is None:
        raise ConfigurationError(f"{view.game} describes no table for the model-driven agents "
                                 "(roundtable.games.protocol.GameRules.table)")
    return maker(view, request, context, settings or TableSettings())
