"""How large an experience pool each game was played with, from its record (Xu et al. 2023).

See docs/agents/cga.md#experience-pool and docs/experiments.md#werewolf-experience-pools.

A ``cga`` seat records, when its game is dealt, the pool it plays with
(`roundtable.agents.cga.experience.pool_at_start`): an analysis-only log entry
``{"type": "experience_pool", "player", "pool", "reads", "games", "experiences"}``.
A game's pool size is counted, as Xu et al. count theirs, in the finished
games the pool was built from (their ``merge_memory.py`` merges the
experiences of a range of games; the paper's pools come from 0, 10, 20, 30
and 40 games): the largest pool any seat of the game read at decision time,
0 when no seat read one (a game without ``cga`` seats, or whose seats have
no pool). Pools are binned in the paper's steps of 10 games (`pool_bin`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roundtable.store.records import pools_at_start

STEP = 10
"""Xu et al.'s step between pool sizes, in games (0, 10, 20, 30, 40)."""


def pool_size(record: Mapping[str, Any]) -> int | None:
    """The number of games the largest experience pool read in the game was built from (see the module
    docstring); 0 when no seat read a pool.

    Returns:
        ``None`` when the record cannot say: a ``cga`` seat named a pool to read (seat option ``pool``, with
        ``experience`` not off) but the record holds no pool entry for it (recorded before pools were).
    """
    pools = pools_at_start(record)
    for player, seat in enumerate(record.get("seats") or [], start=1):
        options = (seat or {}).get("options") or {}
        if (seat or {}).get("kind") == "cga" and options.get("pool") and options.get("experience", True) \
                and str(player) not in pools:
            return None
    return max([int(p["games"] or 0) for p in pools.values() if p.get("reads") and p.get("pool")] + [0])


def pool_bin(size: int, step: int = STEP) -> int:
    """The bin of a pool of ``size`` games: its lower end in steps of ``step`` (``0..9 -> 0``, ``10..19 -> 10``).

    Raises:
        ValueError: a negative size or a step below 1.
    """
    if size < 0 or step < 1:
        raise ValueError(f"a pool size is 0 or more and a step 1 or more, not {size} and {step}")
    return size // step * step


def bin_label(low: int, step: int = STEP) -> str:
    """``"0-9"``, ``"10-19"``, ... (``"0"`` for a step of 1)."""
    return str(low) if step == 1 else f"{low}-{low + step - 1}"
