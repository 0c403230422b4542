"""Chroma for vector retrieval: the clients and the cosine collections the ``cga`` agent uses.

- `memory_client`: Chroma's in-process (ephemeral) client, for each agent's
  message memory during a game. The memory itself lives in the agent's pool in
  the game's checkpointed state; the collection is its index, rebuilt from the
  pool when a process resumes a game (`roundtable.agents.cga.memory`), so
  nothing on disk can disagree with a checkpoint.
- `persistent_client`: Chroma's embedded persistent client on a directory of
  the data directory (the experience pools, `roundtable.agents.cga.experience`).
  Chroma's embedded client is not safe for several processes writing one
  directory: each pool has its own directory, and its writers take the pool's
  file lock (`write_lock`) around every write, so parallel games of an
  experiment append to one pool one at a time.

Clients are created once per process under a lock: the ``cga`` seats of one
game run in parallel threads (the day's elimination votes, and the werewolves'
night votes under ``werewolf_night=simultaneous``, are fanned out with
``Send``), and Chroma's client constructor is not safe to call from two
threads at once (the second tears down the shared system the first is
building: "Could not connect to tenant default_tenant").

Collections are created without an embedding function and use cosine
distance: vectors come from `roundtable.tools.embeddings` and are passed in.
"""

from __future__ import annotations

import fcntl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

_CREATING = threading.Lock()
"""Held while a Chroma client or collection is created (Chroma's constructors race between threads)."""

COSINE = {"hnsw:space": "cosine"}
"""Collection metadata selecting cosine distance (distance = 1 - cosine similarity)."""


def _settings() -> Any:
    from chromadb.config import Settings  # here: Chroma takes most of a second to import

    return Settings(anonymized_telemetry=False, allow_reset=False)


def memory_client() -> Any:
    """The process's in-memory Chroma client (created once, thread-safe)."""
    with _CREATING:
        return _memory_client()


@cache
def _memory_client() -> Any:
    import chromadb  # here: Chroma takes most of a second to import

    return chromadb.EphemeralClient(settings=_settings())


def persistent_client(directory: str) -> Any:
    """The embedded persistent Chroma client of ``directory`` (created with its parents; one per process,
    thread-safe)."""
    with _CREATING:
        return _persistent_client(directory)


@cache
def _persistent_client(directory: str) -> Any:
    import chromadb  # here: Chroma takes most of a second to import

    Path(directory).mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=directory, settings=_settings())


def collection(client: Any, name: str) -> Any:
    """The cosine collection ``name`` of ``client`` (created when missing, thread-safe; no embedding function)."""
    with _CREATING:
        return client.get_or_create_collection(name=name, metadata=COSINE, embedding_function=None)


@contextmanager
def write_lock(directory: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``<directory>/write.lock`` (the kernel releases it with the process)."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "write.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
