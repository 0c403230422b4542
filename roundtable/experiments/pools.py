"""Frozen experience pools of an experiment: a condition's pool built from the first games of another condition's
growing pool, then frozen, before the condition plays (Xu et al. 2023, Figure 3: pools of 10, 20, 30 and 40 games,
each evaluated over fresh games; docs/experiments.md#frozen-pools).

The source condition's ``cga`` seats write one pool as they play (``pool=NAME``); a condition with
``frozen_pool = { source, games }`` gets the pool named after it, holding the source's first ``games`` games in
seed order, frozen, so its games read it and write nothing. Built once per experiment directory (a rerun finds it
frozen with the same games and keeps it) with `roundtable.agents.cga.experience.ExperiencePool.copy_games`.
"""

from __future__ import annotations

from dataclasses import dataclass

from roundtable.agents.cga.experience import ExperiencePool
from roundtable.experiments.config import Condition, ExperimentConfig, game_id


@dataclass(frozen=True)
class PoolPlan:
    """What a condition's frozen pool is built from: the pool ``name`` (the condition's), the ``source`` pool the
    source condition writes, and the source ``games`` (ids in seed order)."""

    name: str
    source: str
    games: tuple[str, ...]


def pool_plan(config: ExperimentConfig, condition: Condition) -> PoolPlan | None:
    """The frozen pool ``condition`` plays with, or ``None`` when it has no ``frozen_pool`` (the configuration
    check guarantees the source writes exactly one pool)."""
    frozen = condition.frozen_pool
    if frozen is None:
        return None
    source = next(c for c in config.conditions if c.name == frozen.source)
    seeds = config.seeds_of(source)[: frozen.games]
    return PoolPlan(condition.name, config.pool_names(source)[0],
                    tuple(game_id(source.name, seed) for seed in seeds))


def build_frozen_pool(plan: PoolPlan) -> bool:
    """Build and freeze ``plan``'s pool in the current data directory, unless it is already frozen with exactly
    ``plan.games`` (a rerun); a pool left half-built or built from other games is rebuilt.

    Returns:
        Whether the pool was (re)built.

    Raises:
        ValueError: the source pool does not hold one of the games (they must have finished), or was written with
            another embedder.
    """
    source = ExperiencePool(plan.source)
    pool = ExperiencePool(plan.name, source.embeddings)
    info = pool.info()
    if info.get("frozen") and tuple(info.get("games") or ()) == plan.games:
        return False
    pool.clear()
    pool.copy_games(source, plan.games)
    pool.freeze()
    return True
