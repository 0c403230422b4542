"""The checkpoint saver of the store in use: the data directory's SQLite file, or the shared database's
``PostgresSaver`` while one is in use (`roundtable.store.database.use_database`). Whoever runs games opens it
here (`open_checkpointer`) and never asks which it is."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from roundtable.store import database, paths


@contextmanager
def open_checkpointer() -> Iterator[BaseCheckpointSaver]:
    """The checkpoint saver for the block: the active database's (left open: the database owns it), else a
    `SqliteSaver` on ``<data dir>/checkpoints.sqlite`` (set up at once, `set_up`; closed at the end)."""
    shared = database.active()
    if shared is not None and shared.saver is not None:
        yield shared.saver
        return
    with SqliteSaver.from_conn_string(str(paths.checkpoint_db())) as saver:
        set_up(saver)
        yield saver


SETUP_TRIES = 100
"""How many times `set_up` tries before it gives up (at `SETUP_PAUSE` apart: 10 seconds in all)."""
SETUP_PAUSE = 0.1
"""Seconds between two tries of `set_up`."""


def set_up(saver: SqliteSaver) -> None:
    """Create the saver's tables and switch its file to WAL now, waiting while another process does the same.

    Processes opening a new data directory at once (the workers of one experiment) race to set it up, and
    SQLite refuses the journal-mode change at once with "database is locked", its busy timeout unused
    (docs/experiments.md). Once one of them has set the file up, the others' setup only checks it.

    Raises:
        sqlite3.OperationalError: any other error, or the file still locked after `SETUP_TRIES` tries.
    """
    for attempt in range(SETUP_TRIES):
        try:
            saver.setup()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == SETUP_TRIES - 1:
                raise
            time.sleep(SETUP_PAUSE)
