"""The checkpoint saver of the store in use: the data directory's SQLite file, or the shared database's
``PostgresSaver`` while one is in use (`roundtable.store.database.use_database`). Whoever runs games opens it
here (`open_checkpointer`) and never asks which it is."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from roundtable.store import database, paths


@contextmanager
def open_checkpointer() -> Iterator[BaseCheckpointSaver]:
    """The checkpoint saver for the block: the active database's (left open: the database owns it), else a
    `SqliteSaver` on ``<data dir>/checkpoints.sqlite`` (closed at the end)."""
    shared = database.active()
    if shared is not None and shared.saver is not None:
        yield shared.saver
        return
    with SqliteSaver.from_conn_string(str(paths.checkpoint_db())) as saver:
        yield saver
