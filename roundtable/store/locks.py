"""One process drives a game at a time: a per-game lock that dies with its process.

The lock is an advisory ``flock`` on ``<data dir>/locks/<game id>.lock``; the
kernel releases it when the process ends however it ends (``kill -9``
included), so a stale lock never blocks a resume, and whether a game is being
played now is a question about the lock, never about a process id that may
belong to another process by then. The file holds the holder's process id,
for the message that refuses a second driver.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from roundtable.store import paths


class GameBusyError(RuntimeError):
    """Another process is driving this game now (the message names its process id)."""


def lock_path(game_id: str, *, create: bool = True) -> Path:
    """The lock file of ``game_id`` (its directory created when ``create``).

    Raises:
        GameIdError: an invalid game id.
    """
    directory = (paths.home() if create else paths.home_path()) / "locks"
    if create:
        directory.mkdir(parents=True, exist_ok=True)
    return paths.inside(directory, f"{paths.check_game_id(game_id)}.lock")


@contextmanager
def game_lock(game_id: str) -> Iterator[None]:
    """Hold the lock of ``game_id`` for the ``with`` block.

    Raises:
        GameBusyError: another process holds it.
    """
    path = lock_path(game_id)
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(handle, 32, 0).decode(errors="replace").strip() or "another process"
            raise GameBusyError(f"game {game_id} is being played by process {holder} now; "
                                "wait for it, or stop it first") from None
        os.ftruncate(handle, 0)
        os.pwrite(handle, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(handle)  # releases the lock


def is_driven(game_id: str) -> bool:
    """Whether a process holds the lock of ``game_id`` now (nothing is created to find out)."""
    try:
        path = lock_path(game_id, create=False)
    except paths.GameIdError:
        return False
    if not path.exists():
        return False
    handle = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(handle)
    return False
