"""What happens to a finished game's checkpoints once its record is written (a retention policy).

Every superstep of a game is a checkpoint (about 1 MiB per all-``naive`` game
on SQLite, docs/measurements.md#experiments-without-a-model), which a thousand-game experiment does not
need once each game's record (`roundtable.store.records`) holds its event log:

- ``keep_all``: keep every checkpoint (``history``, ``fork`` at any step keep working);
- ``keep_last``: replace the thread by one checkpoint holding the final state
  (``show``, ``replay`` keep working). The event log is a `DeltaChannel`, so
  the last checkpoint alone does not hold the log: the final values are
  written afresh as one checkpoint (as if by the ``game_over`` node);
- ``delete`` (the default): delete the thread; the record is what is left.

`compact` then gives the freed pages back to the file system (``VACUUM``).
Bytes per finished game under each policy: docs/measurements.md#experiments-without-a-model.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from roundtable.play.runner import GameRunner, thread_config

POLICIES = ("keep_all", "keep_last", "delete")


def apply_retention(runner: GameRunner, game_id: str, policy: str) -> None:
    """Apply ``policy`` to the checkpoints of the finished game ``game_id`` (idempotent).

    Raises:
        ValueError: an unknown policy.
    """
    if policy not in POLICIES:
        raise ValueError(f"unknown retention policy {policy!r}; available: {', '.join(POLICIES)}")
    saver: Any = runner.saver  # SqliteSaver: delete_thread and its connection
    if policy == "keep_all" or not runner.exists(game_id):
        return
    if policy == "delete":
        saver.delete_thread(game_id)
        return
    if checkpoint_count(saver, game_id) <= 1:
        return
    values, finished = runner.state(game_id)
    if not finished:
        return
    saver.delete_thread(game_id)
    runner.graph.update_state(thread_config(game_id), values, as_node="game_over")


def checkpoint_count(saver: Any, game_id: str) -> int:
    """How many checkpoints the thread ``game_id`` has in a `SqliteSaver`."""
    with saver.cursor(transaction=False) as cur:
        cur.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (game_id,))
        return int(cur.fetchone()[0])


def compact(database: Path) -> None:
    """``VACUUM`` the SQLite file at ``database`` (no other connection may write to it meanwhile)."""
    if not database.is_file():
        return
    con = sqlite3.connect(database)
    try:
        con.execute("VACUUM")
    finally:
        con.close()


def database_bytes(database: Path) -> int:
    """Bytes on disk of the SQLite database and its ``-wal``/``-shm`` files."""
    return sum(p.stat().st_size for p in (database, Path(f"{database}-wal"), Path(f"{database}-shm")) if p.exists())
