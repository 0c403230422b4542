"""``benchmarks/keep_experiment.py``: an experiment's finished games kept, then put back into a new directory,
where the run plays only what is missing and the report counts them all (bots, no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from benchmark_scripts import load_script

from roundtable.experiments.runner import run_experiment

keep = load_script("keep_experiment")

BOTS = """
name = "tiny-kept"
games_per_condition = 3
parallel_games = 1

[defaults]
preset = "bench5"
agents = "naive"

[[conditions]]
name = "naive"
"""


def test_kept_games_go_back_into_a_new_directory_and_the_run_plays_only_the_rest(tmp_path: Path):
    config = tmp_path / "tiny.toml"
    config.write_text(BOTS)
    first = tmp_path / "first"
    run_experiment(config, first, first=2)
    (first / "records" / "torn.json").write_text("{")
    kept = tmp_path / "results" / keep.experiment_name(first)
    assert keep.copy_games(first, kept) == ["naive-s0000", "naive-s0001"]
    assert keep.copy_games(first, kept) == [], "kept once"
    assert len(keep.run_lines(kept)) == 2 and (kept / "experiment.toml").is_file()

    second = tmp_path / "second"       # a new machine's directory
    assert keep.copy_games(kept, second) == ["naive-s0000", "naive-s0001"]
    summary = run_experiment(config, second)
    assert summary.skipped == 2 and summary.finished == ["naive-s0002"]
    records = {p.stem: json.loads(p.read_text()) for p in (second / "records").glob("*.json")}
    assert {gid: r["status"] for gid, r in records.items()} == {f"naive-s000{i}": "finished" for i in range(3)}


def test_a_game_played_again_replaces_the_kept_one_only_when_named(tmp_path: Path):
    config = tmp_path / "tiny.toml"
    config.write_text(BOTS)
    first, again = tmp_path / "first", tmp_path / "again"
    run_experiment(config, first, first=2)
    kept = tmp_path / "results" / "tiny-kept"
    keep.copy_games(first, kept)
    run_experiment(config, again, first=1)  # naive-s0000 played again, on another machine
    replayed = json.loads((again / "records" / "naive-s0000.json").read_text())
    replayed["updated"] = "played again"
    (again / "records" / "naive-s0000.json").write_text(json.dumps(replayed))
    assert keep.copy_games(again, kept) == [], "a kept game is not replaced unasked"
    assert keep.copy_games(again, kept, replace=["naive-s0000"]) == ["naive-s0000"]
    assert json.loads((kept / "records" / "naive-s0000.json").read_text())["updated"] == "played again"
    assert [run["game_id"] for run in keep.run_lines(kept)] == ["naive-s0000", "naive-s0001"], \
        "its run lines too, where the old ones stood"
    assert keep.copy_games(again, kept, replace=["naive-s0000"]) == ["naive-s0000"]
    assert [run["game_id"] for run in keep.run_lines(kept)] == ["naive-s0000", "naive-s0001"], "twice: same order"
    with pytest.raises(ValueError, match="nothing to replace with: naive-s0001"):
        keep.copy_games(again, kept, replace=["naive-s0001"])


def test_another_configuration_is_refused(tmp_path: Path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "experiment.toml").write_text('name = "a"\n')
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "experiment.toml").write_text('name = "b"\n')
    with pytest.raises(ValueError, match="another configuration"):
        keep.copy_games(tmp_path / "a", tmp_path / "b")
    with pytest.raises(ValueError, match="not an experiment directory"):
        keep.experiment_name(tmp_path)


def test_an_experiments_pools_are_kept_and_put_back(tmp_path: Path, monkeypatch):
    from roundtable.agents.cga.experience import ExperiencePool

    first, kept, second = tmp_path / "first", tmp_path / "kept", tmp_path / "second"
    monkeypatch.setenv("ROUNDTABLE_HOME", str(first))
    ExperiencePool("grown").add_game("build-s1000", [{
        "reflection": "Player 2 accused the Seer.", "response": "vote 2", "score": 996, "role": "villager",
        "side": "village", "game": "werewolf", "player": 4, "n": 0}])
    assert keep.copy_pools(first, kept, kept=True) == ["grown"]
    assert keep.copy_pools(kept, second, kept=False) == ["grown"]
    monkeypatch.setenv("ROUNDTABLE_HOME", str(second))
    assert ExperiencePool("grown").info()["games"] == ["build-s1000"] and ExperiencePool("grown").count() == 1


def test_what_learners_learned_is_kept_and_put_back_without_replacing(tmp_path: Path):
    from roundtable.experiments.learning import Learning

    first, kept, second = tmp_path / "first", tmp_path / "kept", tmp_path / "second"
    assert keep.copy_learning(first, kept, kept=True) == 0 and not (kept / "learning.json").exists()
    learned = [{"namespace": ["lga", "lga-good", "seat1"], "key": "merlin",
                "value": {"strategy": "Hide what you see.", "games": ["lga-good-s0000"]}},
               {"namespace": ["lga", "lga-good", "seat2"], "key": "servant",
                "value": {"strategy": "Follow the quests.", "games": ["lga-good-s0000"]}}]
    first.mkdir()
    Learning(first).restore(learned)
    kept.mkdir()
    assert keep.copy_learning(first, kept, kept=True) == 2
    assert json.loads((kept / "learning.json").read_text()) == learned

    newer = {**learned[1], "value": {"strategy": "learned on this machine", "games": ["lga-good-s0001"]}}
    second.mkdir()
    Learning(second).restore([newer])    # a learner already at work in the new directory
    assert keep.copy_learning(kept, second, kept=False) == 1
    assert Learning(second).export() == [learned[0], newer]
    assert keep.copy_learning(tmp_path / "nothing-kept", second, kept=False) == 0
