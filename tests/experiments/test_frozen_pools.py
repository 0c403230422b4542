"""Frozen experience pools of an experiment (docs/experiments.md#frozen-pools): Xu et al.'s pools of the first N
games of a growing pool, each frozen before the condition that reads it plays."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agents"))
from lga_fakes import FAKE_MODEL, Script, ScriptedModels  # noqa: E402

from roundtable.agents.cga.experience import ExperiencePool  # noqa: E402
from roundtable.experiments.config import ExperimentConfigError, parse_config, resolve_games  # noqa: E402
from roundtable.experiments.pools import PoolPlan, build_frozen_pool, pool_plan  # noqa: E402
from roundtable.experiments.runner import run_experiment  # noqa: E402

CONFIG = f"""
name = "pools"
game = "werewolf"
games_per_condition = 1
seed_start = 100
parallel_games = 2

[defaults]
agents = "cga"
models = "{FAKE_MODEL}"
rules = {{ max_days = "1" }}
agent_options = ["refresh=round", "merge_answers=true", "questions=1", "own_questions=0"]

[[conditions]]
name = "build"
games = 2
seed_start = 0
agent_options = ["pool=grown", "experience=false"]

[[conditions]]
name = "pool-1"
frozen_pool = {{ source = "build", games = 1 }}
agent_options = ["village:pool=pool-1", "village:learn=false"]
"""


def test_a_condition_plays_its_own_games_and_seeds_and_the_pool_comes_from_the_sources_first_games():
    config = parse_config(CONFIG)
    build, frozen = config.conditions
    assert config.seeds_of(build) == [0, 1] and config.seeds_of(frozen) == [100]
    assert pool_plan(config, frozen) == PoolPlan("pool-1", "grown", ("build-s0000",))
    assert pool_plan(config, build) is None
    assert [g.game_id for g in resolve_games(config)] == ["build-s0000", "build-s0001", "pool-1-s0100"]


@pytest.mark.parametrize(("change", "message"), [
    (('source = "build"', 'source = "nobody"'), "not another condition"),
    (("games = 1 }", "games = 3 }"), "games = 3, but 'build' plays 2"),
    (('["pool=grown", "experience=false"]', '["experience=false"]'), "must write exactly one pool"),
    (('"village:pool=pool-1", ', ""), "no seat reads the pool"),
    (("seed_start = 100\n", "seeds = [100]\n"), "need the experiment's seed_start"),
])
def test_a_frozen_pool_that_cannot_be_built_is_refused_before_any_game(change, message):
    with pytest.raises(ExperimentConfigError, match=message):
        parse_config(CONFIG.replace(*change))


def tuples(game: str, n: int) -> list[dict]:
    return [{"reflection": f"As the seer in {game} I saw player {i} lie.", "response": "vote", "score": 990,
             "role": "seer", "side": "village", "game": "werewolf", "player": 1, "n": i} for i in range(n)]


def test_the_pool_holds_the_first_games_frozen_and_a_rerun_keeps_it(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    grown = ExperiencePool("grown")
    for game, n in (("b-0", 2), ("b-1", 3), ("b-2", 1)):
        grown.add_game(game, tuples(game, n))
    plan = PoolPlan("p2", "grown", ("b-0", "b-1"))
    assert build_frozen_pool(plan)
    pool = ExperiencePool("p2")
    assert pool.frozen and pool.info()["games"] == ["b-0", "b-1"] and pool.count() == 5
    found = pool.similar("As the seer in b-1 I saw player 2 lie.", game="werewolf", role="seer", epsilon=0.9, limit=5)
    assert found and found[0].reflection == "As the seer in b-1 I saw player 2 lie."
    assert not build_frozen_pool(plan), "built once"
    assert build_frozen_pool(PoolPlan("p2", "grown", ("b-0",))) and ExperiencePool("p2").count() == 2
    with pytest.raises(ValueError, match="holds no game b-9"):
        build_frozen_pool(PoolPlan("p3", "grown", ("b-0", "b-9")))


def test_an_experiment_builds_the_frozen_pool_from_the_source_games_before_the_condition_reads_it(tmp_path):
    (tmp_path / "pools.toml").write_text(CONFIG)
    summary = run_experiment(tmp_path / "pools.toml", tmp_path / "exp", models=ScriptedModels(Script()))
    assert sorted(summary.finished) == ["build-s0000", "build-s0001", "pool-1-s0100"] and not summary.failed
    grown = json.loads((tmp_path / "exp" / "pools" / "grown" / "pool.json").read_text())
    frozen = json.loads((tmp_path / "exp" / "pools" / "pool-1" / "pool.json").read_text())
    assert sorted(grown["games"]) == ["build-s0000", "build-s0001"] and not grown["frozen"]
    assert frozen["games"] == ["build-s0000"] and frozen["frozen"]
    record = json.loads((tmp_path / "exp" / "records" / "pool-1-s0100.json").read_text())
    starts = [e for e in record["events"] if e["type"] == "experience_pool"]
    village = [e for e in starts if e["pool"] == "pool-1"]
    assert village and all(e["reads"] and e["games"] == 1 for e in village)
    assert all(e["pool"] is None for e in starts if e not in village), "the werewolves play without experience"
