"""Chroma clients shared by parallel agent threads (`roundtable.tools.vectors`)."""

from __future__ import annotations

import threading

from chromadb.api.shared_system_client import SharedSystemClient

from roundtable.tools import vectors


def _create_from_threads(threads: int) -> list[BaseException]:
    """Start ``threads`` threads at once, each creating a collection on the process's memory client."""
    vectors._memory_client.cache_clear()
    SharedSystemClient.clear_system_cache()
    barrier, errors = threading.Barrier(threads), []

    def work(n: int) -> None:
        barrier.wait()
        try:
            vectors.collection(vectors.memory_client(), f"race-{n}")
        except BaseException as error:  # noqa: BLE001 - the test reports whatever a thread raised
            errors.append(error)

    workers = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return errors


def test_parallel_seats_share_one_memory_client_without_racing() -> None:
    # Two werewolves' night votes run as parallel Send tasks; each cga seat opens its memory index at once.
    # Unguarded, Chroma's constructor failed in most such trials ("Could not connect to tenant default_tenant").
    for _ in range(10):
        assert _create_from_threads(4) == []
    assert vectors.memory_client() is vectors.memory_client()
