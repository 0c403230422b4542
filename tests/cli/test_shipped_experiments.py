"""Every configuration shipped under experiments/ checks (every game resolved)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roundtable.experiments.config import load_config, resolve_games

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "experiments").glob("*.toml"))


def test_one_configuration_per_experiment_of_the_spec():
    assert {p.stem for p in SHIPPED} >= {"tiny_bots", "avalonbench_naive", "avalonbench_llm", "lan_table2",
                                         "lan_learning_ablations", "avalonplay", "werewolf_pool", "model_comparison"}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_a_shipped_configuration_checks(path: Path):
    config, _ = load_config(path)
    games = resolve_games(config)
    assert len(games) == config.games_per_condition * len(config.conditions)


def test_a_named_setting_gives_its_preset_and_variants_and_a_condition_may_override_them():
    config, _ = load_config(Path(__file__).resolve().parents[2] / "experiments" / "avalonplay.toml")
    games = {g.condition: g for g in resolve_games(config)}
    rules = games["codeact"].inputs["config"]["rules"]
    assert games["codeact"].inputs["config"]["preset"] == "play7"
    assert (rules["fifth_rejection"], rules["two_fail_quests"], rules["evil_quest_card"]) == (
        "auto_approve", "four_and_five", "must_fail")
    assert (rules["discussion"], rules["vote_visibility"]) == ("leader_first", "tally_only")
    assert games["codeact-silent"].inputs["config"]["rules"]["discussion"] == "none"
