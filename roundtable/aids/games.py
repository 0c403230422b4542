"""Each game's part of the small-model aids (docs/agents/aids.md#each-games-aids), declared under the entry-point
group ``roundtable.aids`` as a game's judge and report parts are, so the aids' generic checks (copies, tactics,
teams named against the choice, words cleaning) tell no game apart: what only a game knows (what its player's
knowledge settles, which words give its roles away, the notes beside its requests) is the game's `GameAids`.
Avalon's is `roundtable.aids.avalon.AIDS`, Werewolf's `roundtable.aids.werewolf.AIDS`; a game that declares none
gets `NO_AIDS`: the generic checks alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from roundtable.games.protocol import PlayerView, Request
from roundtable.plugins import load_plugins
from roundtable.prompts.rendering import PromptContext

if TYPE_CHECKING:
    from roundtable.aids.settled import Settled
    from roundtable.tables.protocol import GameTable


def _nothing(*_: Any) -> None:
    return None


def _no_note(*_: Any) -> str:
    return ""


def _keep(known: Mapping[str, bool], events: Iterable[Mapping[str, Any]], me: int) -> dict[str, bool]:
    return dict(known)


def _no_stance(view: PlayerView, request: Request) -> bool:
    return False


@dataclass(frozen=True)
class GameAids:
    """One game's part of the aids; each hook has a do-nothing default.

    Attributes:
        name: the game's name (the entry point's).
        settled: ``settled(table, checked, statement, action) -> Settled | None``: what the player's own knowledge
            (and its own words) settle for the decision at ``table``
            (docs/agents/checks.md#knowledge-settled-decisions); ``checked``: the player's remembered private
            results (`remember`), ``statement``: its last words at the table (None: none), ``action``: the answer
            in hand (None: none yet).
        exposure: ``exposure(view, words, heard) -> str | None``: why public ``words`` give their speaker away
            (``heard``: ``[(speaker, text)]``), or None.
        stance: ``stance(view, request, words) -> (stance, Settled) | None``: the stance ``words`` state on what
            is on the table and the settled decision it goes against, or None.
        states_stance: ``states_stance(view, request) -> bool``: whether the request's words may state a stance
            on something on the table (a dropped sentence's stance is then kept, `roundtable.aids.review`).
        vote_out: ``vote_out(view, request, words, checked) -> (player, why) | None``: the player the words say
            the speaker will vote out and why its own knowledge rules that out, or None.
        leader: ``leader(view) -> int | None``: the player "the leader" stands for in words, or None.
        knowledge_note: ``knowledge_note(context, view, request, checked) -> str``: the Host's lines beside the
            request restating what the player's knowledge settles (``""``: none).
        remember: ``remember(known, events, me) -> {str(player): bool}``: ``known`` with the player's private
            results among newly delivered ``events`` added (a Werewolf Seer's checks), JSON-ready.
        proposes_teams: the game's talk is about teams proposed for a mission (Avalon's quests): the Host's notes
            on words speak of the team.
    """

    name: str
    settled: Callable[[GameTable, Mapping[int, bool], str | None, Mapping[str, Any] | None], Settled | None] = _nothing
    exposure: Callable[[PlayerView, str, Sequence[tuple[str, str]]], str | None] = _nothing
    stance: Callable[[PlayerView, Request, str], tuple[bool, Settled] | None] = _nothing
    states_stance: Callable[[PlayerView, Request], bool] = _no_stance
    vote_out: Callable[[PlayerView, Request, str, Mapping[int, bool] | None], tuple[int, str] | None] = _nothing
    leader: Callable[[PlayerView], int | None] = _nothing
    knowledge_note: Callable[[PromptContext, PlayerView, Request, Mapping[int, bool]], str] = _no_note
    remember: Callable[[Mapping[str, bool], Iterable[Mapping[str, Any]], int], dict[str, bool]] = _keep
    proposes_teams: bool = False


NO_AIDS = GameAids("")
"""The aids of a game that declares none: every hook does nothing."""


@lru_cache(maxsize=1)
def declared_aids() -> dict[str, GameAids]:
    """Every game's `GameAids`, by game name (the ``roundtable.aids`` entry points).

    Raises:
        PluginError: a declared part that does not load, is not a `GameAids` or names another game.
    """
    return load_plugins("roundtable.aids", GameAids)


def game_aids(game: str) -> GameAids:
    """``game``'s aids, or `NO_AIDS` where it declares none."""
    return declared_aids().get(game, NO_AIDS)
