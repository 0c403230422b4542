"""Where roundtable keeps its data: checkpoints, records, caches; and what a game id may be.

The data directory is ``$ROUNDTABLE_HOME`` when set, otherwise ``.roundtable``
in the current working directory. Every path built from a game id stays inside
it: a game id is checked (`check_game_id`) before anything is created.
"""

from __future__ import annotations

import re
from pathlib import Path

from roundtable.settings import settings

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")
"""A game id: 1 to 80 characters, letters, digits, ``_``, ``.`` and ``-``, starting with a letter or digit
(so it is a plain file name: no separator, no ``..``, nothing absolute)."""


class GameIdError(ValueError):
    """A game id that is not of the documented form (`GAME_ID`)."""


def check_game_id(game_id: str) -> str:
    """``game_id`` if it is a valid game id.

    Raises:
        GameIdError: naming the rule it breaks.
    """
    if not GAME_ID.match(game_id or "") or ".." in game_id:
        raise GameIdError(
            f"invalid game id {game_id!r}: use 1 to 80 letters, digits, '_', '.' or '-', starting with a letter "
            "or digit, and no '..'")
    return game_id


def home_path() -> Path:
    """The data directory's absolute path, without creating it."""
    return (settings().home or Path(".roundtable")).expanduser().resolve()


def home() -> Path:
    """Return the data directory (created if missing).

    Returns:
        Absolute path of ``$ROUNDTABLE_HOME`` or ``./.roundtable``.
    """
    path = home_path()
    path.mkdir(parents=True, exist_ok=True)
    return path


def checkpoint_db() -> Path:
    """Path of the SQLite checkpoint database inside the data directory."""
    return home() / "checkpoints.sqlite"


def records_dir() -> Path:
    """Directory of the per-game JSON records (created if missing)."""
    path = home() / "records"
    path.mkdir(parents=True, exist_ok=True)
    return path


def inside(directory: Path, name: str) -> Path:
    """``directory / name``, checked to stay inside ``directory``.

    Raises:
        GameIdError: the path would leave the directory.
    """
    path = (directory / name).resolve()
    if path.parent != directory.resolve():
        raise GameIdError(f"{name!r} would leave {directory}")
    return path


def cache_dir() -> Path:
    """Directory for large derived files such as the assembled model (created if missing)."""
    path = home() / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path
