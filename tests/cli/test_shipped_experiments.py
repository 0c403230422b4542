"""Every configuration shipped under experiments/ checks (every game resolved)."""

from __future__ import annotations

from pathlib import Path

import pytest

from roundtable.experiments.config import load_config, resolve_games
from roundtable.experiments.published.load import select

SHIPPED = sorted((Path(__file__).resolve().parents[2] / "experiments").glob("*.toml"))


PAPERS = {"lan": "lan2024", "avalonbench": "light2023", "avalonplay": "shi2023", "xu": "xu2023"}
"""A paper's configurations (file name prefix) and the key of its published figures."""


def test_one_configuration_per_table_or_figure_of_the_papers():
    assert {p.stem for p in SHIPPED} >= {
        "tiny_bots", "tiny_werewolf", "model_comparison", "avalonbench_naive", "avalonbench_table3", "lan_table2",
        "lan_tables6_8", "lan_table7", "lan_table9", "avalonplay_table3", "xu_fig3_pools"}


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_a_shipped_configuration_checks(path: Path):
    config, _ = load_config(path)
    games = resolve_games(config)
    assert len(games) == sum(len(config.seeds_of(c)) for c in config.conditions)


@pytest.mark.parametrize("path", [p for p in SHIPPED if p.stem.split("_")[0] in PAPERS],
                         ids=[p.stem for p in SHIPPED if p.stem.split("_")[0] in PAPERS])
def test_a_papers_configuration_names_its_paper_and_only_its_figures(path: Path):
    config, text = load_config(path)
    key = PAPERS[path.stem.split("_")[0]]
    header = "\n".join(line for line in text.splitlines() if line.startswith("#"))
    assert "What the paper varied" in header and "Scaled down here" in header, "the header says what was changed"
    figures = {f.id for c in config.conditions for f in select(config.published_for(c.name))}
    assert figures and all(f.startswith(key + ".") for f in figures)


def test_a_named_setting_gives_its_preset_and_variants_and_a_condition_may_override_them():
    config, _ = load_config(Path(__file__).resolve().parents[2] / "experiments" / "avalonplay_table3.toml")
    games = {g.condition: g for g in resolve_games(config)}
    rules = games["codeact"].inputs["config"]["rules"]
    assert games["codeact"].inputs["config"]["preset"] == "play7"
    assert (rules["fifth_rejection"], rules["two_fail_quests"], rules["evil_quest_card"]) == (
        "auto_approve", "four_and_five", "must_fail")
    assert (rules["discussion"], rules["vote_visibility"]) == ("leader_first", "tally_only")
    assert games["codeact-silent"].inputs["config"]["rules"]["discussion"] == "none"
