"""One process drives a game at a time: a per-game lock that dies with its process.

The lock is an advisory ``flock`` on ``<data dir>/locks/<game id>.lock``; the
kernel releases it when the process ends however it ends (``kill -9``
included), so a stale lock never blocks a resume, and whether a game is being
played now is a question about the lock, never about a process id that may
belong to another process by then. The file holds the holder's process id,
for the message that refuses a second driver.

While a shared database is in use (`roundtable.store.database`), the lock is
instead a PostgreSQL advisory lock keyed by the game id, which the server
releases when the holder's connection ends, so workers on several machines
never drive the same game. Either lock is re-entrant within one thread: whoever
holds a game's lock (an experiment checking the game is still to play) may
start or resume it under the same lock.
"""

from __future__ import annotations

import fcntl
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from roundtable.store import database, paths

_held: dict[tuple[str, str], tuple[int, int]] = {}
"""``(store, game id) -> (thread id, depth)`` of the locks this process holds, for re-entry by the same thread."""
_held_lock = threading.Lock()


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


def _store_key() -> str:
    shared = database.active()
    return f"db:{shared.namespace}" if shared is not None else str(paths.home_path())


@contextmanager
def game_lock(game_id: str) -> Iterator[None]:
    """Hold the lock of ``game_id`` for the ``with`` block (already held by this thread: held on).

    Raises:
        GameBusyError: another process (or another thread of this one) holds it.
    """
    key = (_store_key(), paths.check_game_id(game_id))
    me = threading.get_ident()
    with _held_lock:
        holder = _held.get(key)
        if holder is not None and holder[0] == me:
            _held[key] = (me, holder[1] + 1)
            reentered = True
        else:
            reentered = False
    if reentered:
        try:
            yield
        finally:
            with _held_lock:
                _held[key] = (me, _held[key][1] - 1)
        return
    with _acquire(game_id):
        with _held_lock:
            _held[key] = (me, 1)
        try:
            yield
        finally:
            with _held_lock:
                _held.pop(key, None)


@contextmanager
def _acquire(game_id: str) -> Iterator[None]:
    shared = database.active()
    if shared is not None:
        conn = shared.acquire(game_id)
        if conn is None:
            holder = shared.holder(game_id) or "another worker"
            raise GameBusyError(f"game {game_id} is being played by {holder} now; wait for it, or stop it first")
        try:
            yield
        finally:
            conn.close()  # releases the lock
        return
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
    shared = database.active()
    if shared is not None:
        return shared.holder(game_id) is not None
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
