"""The secret links of a game served in the browser: one token per human seat and one for its spectators.

A game created through `roundtable serve` gets a token per human seat and a spectator token, kept in the data
directory (``<data dir>/web/<game id>.json``), so a restarted server honours the links it gave out. A token is
32 random bytes (`secrets.token_urlsafe`); it is compared in constant time and only with the tokens of the game
it is presented for, so a seat's token never opens another seat, a token of another game opens nothing, and a
guess is refused like any wrong token (docs/browser.md#links-and-tokens).
"""

from __future__ import annotations

import hmac
import json
import secrets
from collections.abc import Iterable
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from roundtable.store import paths

TOKEN_BYTES = 32
"""Random bytes in a token (43 characters in the link)."""


class TokenError(PermissionError):
    """A token that opens nothing in the game it is presented for (wrong, another game's, or guessed)."""


class TableLinks(BaseModel):
    """The tokens of one game: ``seats`` (``{player: token}``, its human seats) and ``spectator``."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    seats: dict[int, str]
    spectator: str


Viewer = int | None
"""Who holds a token: a human seat's player number, or ``None`` for a spectator."""


def links_dir() -> Path:
    """The directory of the served games' links, ``<data dir>/web`` (created)."""
    directory = paths.home_path() / "web"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _path(game_id: str) -> Path:
    return paths.inside(links_dir(), f"{paths.check_game_id(game_id)}.json")


def create_links(game_id: str, human_seats: Iterable[int]) -> TableLinks:
    """New tokens for ``game_id``'s human seats and its spectators, written to the data directory.

    Raises:
        GameIdError: a bad game id. FileExistsError: the game has links already.
    """
    links = TableLinks(game_id=game_id, seats={p: secrets.token_urlsafe(TOKEN_BYTES) for p in sorted(human_seats)},
                       spectator=secrets.token_urlsafe(TOKEN_BYTES))
    with _path(game_id).open("x", encoding="utf-8") as handle:
        handle.write(links.model_dump_json())
    return links


def read_links(game_id: str) -> TableLinks | None:
    """The links of ``game_id``, or ``None`` when it was not created in the browser (or the id is bad)."""
    try:
        return TableLinks.model_validate(json.loads(_path(game_id).read_text(encoding="utf-8")))
    except (OSError, ValueError, paths.GameIdError):
        return None


def served_games() -> list[str]:
    """The ids of the games created in the browser in this data directory, oldest first."""
    files = sorted(links_dir().glob("*.json"), key=lambda f: f.stat().st_mtime)
    return [f.stem for f in files]


def viewer_of(links: TableLinks, token: str) -> Viewer:
    """Who ``token`` opens ``links``'s game for: a seat's player number or ``None`` (its spectators).

    Every token of the game is compared, each in constant time, whichever matches.

    Raises:
        TokenError: the token opens nothing in this game.
    """
    given = token.encode()
    found: list[Viewer] = [p for p, t in links.seats.items() if hmac.compare_digest(t.encode(), given)]
    if hmac.compare_digest(links.spectator.encode(), given):
        found.append(None)
    if len(found) != 1:
        raise TokenError("this link does not open this game")
    return found[0]
