"""A bound on concurrent model calls per endpoint, shared by every game of a process.

An experiment runs many games at once (`roundtable.experiments.runner`); each
game's agents call their endpoints from several threads (simultaneous votes).
`endpoint_slot` holds one of ``limit`` permits of the endpoint's semaphore for
the duration of one HTTP call, so no endpoint sees more than ``limit``
requests at once, whatever the number of games. With no limit set (the
default, and every single ``roundtable play``) calls are not held back.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_limit: int | None = None
_semaphores: dict[str, threading.BoundedSemaphore] = {}
_in_flight: dict[str, int] = {}
_peak: dict[str, int] = {}


def set_endpoint_limit(limit: int | None) -> None:
    """Allow at most ``limit`` concurrent calls per endpoint from now on (``None``: no bound).

    Raises:
        ValueError: ``limit`` below 1.
    """
    global _limit
    if limit is not None and limit < 1:
        raise ValueError(f"a bound on concurrent model calls is 1 or more, not {limit}")
    with _lock:
        _limit = limit
        _semaphores.clear()
        _peak.clear()


def endpoint_limit() -> int | None:
    """The current bound on concurrent calls per endpoint (``None``: none)."""
    return _limit


@contextmanager
def endpoint_slot(endpoint: str) -> Iterator[None]:
    """Hold one of the endpoint's permits while the block runs (waits for one when all are taken)."""
    with _lock:
        semaphore = _semaphores.get(endpoint)
        if semaphore is None and _limit is not None:
            semaphore = _semaphores[endpoint] = threading.BoundedSemaphore(_limit)
    if semaphore is not None:
        semaphore.acquire()
    try:
        with _lock:
            _in_flight[endpoint] = _in_flight.get(endpoint, 0) + 1
            _peak[endpoint] = max(_peak.get(endpoint, 0), _in_flight[endpoint])
        yield
    finally:
        with _lock:
            _in_flight[endpoint] -= 1
        if semaphore is not None:
            semaphore.release()


def peak_calls() -> dict[str, int]:
    """The most calls seen at once per endpoint since the limit was last set (for tests and benchmarks)."""
    with _lock:
        return dict(_peak)
