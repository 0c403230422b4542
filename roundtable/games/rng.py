"""Deterministic randomness derived from the game seed.

Every random choice (the deal, the first leader, a bot's tie-break, a fallback
fill) draws from a generator seeded by the game seed and a key naming the
choice, e.g. ``rng_for(seed, "setup")`` or ``rng_for(seed, request.id)``.
Because the key is derived from the game's own position (the request id is
unique within a game), a game resumed from a checkpoint makes exactly the same
choices as an uninterrupted one, whatever ran in between, and parallel
branches never share a generator.
"""

from __future__ import annotations

import random


def rng_for(seed: int | str, *key: object) -> random.Random:
    """A `random.Random` seeded by ``seed`` and ``key``.

    String seeds are hashed with SHA-512 by `random.Random`, so the stream is
    the same across processes and Python runs (unlike ``hash()``).
    """
    return random.Random("|".join([str(seed), *map(str, key)]))
