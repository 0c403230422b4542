"""The papers' published figures shipped as data (docs/published.md): every file loads and validates, the figures
agree with one another where the papers' tables fix them, bad data is refused, and references resolve."""

from __future__ import annotations

import fnmatch
import tomllib
from importlib.resources import files
from pathlib import Path

import pytest
from pydantic import ValidationError

from roundtable.experiments.config import ExperimentConfigError, load_config, parse_config
from roundtable.experiments.published.load import paper_of, published_figures, published_files, select
from roundtable.experiments.published.model import MEASURES, PublishedFile
from roundtable.metrics.tables import measure_table
from roundtable.metrics.werewolf import werewolf_measure_table

ROOT = Path(__file__).resolve().parents[2]


def value(figure_id: str) -> float:
    found = published_figures()[figure_id].value
    assert found is not None, figure_id
    return found


def test_every_paper_ships_a_file_that_validates():
    loaded = published_files()
    assert set(loaded) == {"lan2024", "light2023", "shi2023", "xu2023"}
    for key, data in loaded.items():
        assert data.figures and all(f.id.startswith(key + ".") for f in data.figures)
        assert all(f.metric in MEASURES[data.paper.game] for f in data.figures)
    folder = files("roundtable.experiments.published")
    shipped = sorted(e.name for e in folder.iterdir() if e.name.endswith(".toml"))
    assert shipped == ["lan2024.toml", "light2023.toml", "shi2023.toml", "xu2023.toml"]
    for name in shipped:  # each file alone, as the model reads it
        PublishedFile.model_validate(tomllib.loads((folder / name).read_text(encoding="utf-8")))


def test_the_files_are_package_data():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "roundtable.experiments.published"]
    for entry in files("roundtable.experiments.published").iterdir():
        if entry.name.endswith(".toml"):
            assert any(fnmatch.fnmatch(entry.name, p) for p in patterns), entry.name


def test_the_headline_figures_as_printed():
    baseline = published_figures()["light2023.baseline.good-win-rate"]
    assert (baseline.value, baseline.games, baseline.metric, baseline.model) == (
        0.382, 1000, "good_win_rate", "none (rule bots)")
    assert value("lan2024.table2.full.good") == 0.9 and value("lan2024.table2.full.evil") == 1.0
    assert published_figures()["lan2024.table2.full.good"].model == "gpt-3.5-turbo-16k"
    assert value("lan2024.table6.no-ao.qer-assassin") == 0.083
    assert value("shi2023.table3.codeact.team-acc") == 0.83
    assert published_figures()["shi2023.table3.codeact.team-acc"].model == "gpt-4-1106-preview"
    assert value("lan2024.table9.llama2.average") == 0.599


def test_the_figures_agree_where_the_papers_tables_fix_them():
    # AvalonBench: evil's total win rate is its wins by quests plus by assassination, good's is the rest
    for row in ("baseline", "table2.gpt35.no-discussion", "table2.gpt35.discussion", "table2.llama2.discussion",
                "arena"):
        base = f"light2023.{row}"
        assert value(f"{base}.evil-win-rate") == pytest.approx(
            value(f"{base}.mission-win-rate") + value(f"{base}.assassination-win-rate"), abs=0.0011)
    assert value("light2023.baseline.good-win-rate") + value("light2023.baseline.evil-win-rate") == pytest.approx(1)
    assert value("light2023.arena.good-win-rate") + value("light2023.arena.evil-win-rate") == pytest.approx(1)
    # Lan et al.: Table 7's full row is Table 8's; Table 9's average is close to the mean of its roles
    for part in ("wr", "qer-morgana", "qer-assassin", "fvr-morgana", "fvr-assassin"):
        assert value(f"lan2024.table7.all-modules.{part}") == value(f"lan2024.table8.all-players.{part}")
    for model in ("llama2", "gpt35"):
        roles = [value(f"lan2024.table9.{model}.{r}") for r in ("servant", "merlin", "percival", "morgana",
                                                                 "assassin")]
        assert sum(roles) / 5 == pytest.approx(value(f"lan2024.table9.{model}.average"), abs=0.001)
    # AvalonPlay: Game Win is a whole number of its 30 games (printed cut to three decimals)
    for figure in published_figures().values():
        if figure.metric == "game_win":
            assert figure.games == 30
            assert (figure.value * 30) % 1 < 0.03 or (figure.value * 30) % 1 > 0.97, figure.id


def test_a_figure_without_a_number_is_approximate_and_says_why():
    xu = [f for f in published_figures().values() if paper_of(f).key == "xu2023"]
    assert len(xu) == 10 and all(f.value is None and f.approximate and f.note for f in xu)
    assert {f.group for f in xu} == {"0", "10", "20", "30", "40"} and {f.group_by for f in xu} == {"pool_games"}
    assert all(f.value is not None for f in published_figures().values() if paper_of(f).key != "xu2023")


def test_the_werewolf_measure_names_are_those_its_report_gives():
    assert {r.metric for r in werewolf_measure_table({"c": []})} == MEASURES["werewolf"]
    assert {r.metric for r in measure_table({"c": []})} <= MEASURES["avalon"]


PAPER = {"key": "p2000", "name": "P 2000", "citation": "Someone (2000). A paper.", "game": "avalon"}
GOOD = {"id": "p2000.t1.x", "source": "Table 1", "condition": "bots", "model": "none", "metric": "good_win_rate",
        "value": 0.5}


@pytest.mark.parametrize(("change", "message"), [
    ({"value": 38.2}, "a share lies in 0..1"),
    ({"metric": "win_rate"}, "'win_rate' is no avalon measure"),
    ({"id": "other.t1.x"}, "starts with its paper's key"),
    ({"id": "p2000"}, "is not a figure id"),
    ({"value": None}, "without a value is approximate"),
    ({"group_by": "role"}, "group_by and group"),
    ({"low": 0.6, "high": 0.7}, "interval must hold the value"),
    ({"colour": "red"}, "colour"),
])
def test_bad_figures_are_refused(change: dict, message: str):
    figure = {k: v for k, v in (GOOD | change).items() if v is not None}
    with pytest.raises(ValidationError, match=message):
        PublishedFile.model_validate({"paper": PAPER, "figures": [figure]})
    with pytest.raises(ValidationError, match="repeated"):
        PublishedFile.model_validate({"paper": PAPER, "figures": [GOOD, GOOD]})


def test_a_reference_names_an_id_or_its_leading_parts():
    assert [f.id for f in select(["lan2024.table2.full"])] == ["lan2024.table2.full.good", "lan2024.table2.full.evil"]
    assert len(select(["light2023.baseline", "light2023.baseline.good-win-rate"])) == 6  # each once
    with pytest.raises(ValueError, match="unknown published figure 'light2023.base'"):
        select(["light2023.base"])  # a part must be whole


def test_an_unknown_or_foreign_reference_in_a_configuration_is_refused_naming_the_field():
    head = 'name = "p"\ngames_per_condition = 1\n'
    with pytest.raises(ExperimentConfigError, match=r"conditions\.0\.published: unknown published figure 'nope'"):
        parse_config(head + '[[conditions]]\nname = "a"\npublished = ["nope"]\n', "p.toml")
    with pytest.raises(ExperimentConfigError, match=r"published: unknown published figure 'light2023\.x'"):
        parse_config(head + 'published = "light2023.x"\n[[conditions]]\nname = "a"\n', "p.toml")
    with pytest.raises(ExperimentConfigError, match="another game than 'werewolf'"):
        parse_config(head + 'game = "werewolf"\n[[conditions]]\nname = "a"\npublished = "light2023.baseline"\n')
    config = parse_config(head + 'published = "light2023.baseline"\n[[conditions]]\nname = "a"\n'
                                 'published = ["light2023.arena", "light2023.baseline"]\n')
    assert config.published_for("a") == ["light2023.baseline", "light2023.arena"]
    assert "published" not in config.spec_of(config.conditions[0]).model_dump()


def test_the_shipped_configurations_name_their_papers_figures():
    naive, _ = load_config(ROOT / "experiments" / "avalonbench_naive.toml")
    assert all(c == ["light2023.baseline"] for c in map(naive.published_for, [c.name for c in naive.conditions]))
    lan, _ = load_config(ROOT / "experiments" / "lan_table2.toml")
    assert [f.id for f in select(lan.published_for("good-no-plan"))] == ["lan2024.table2.no-plan.good"]
    pool, _ = load_config(ROOT / "experiments" / "xu_fig3_pools.toml")
    assert [f.id for f in select(pool.published_for("pool-20"))] == [
        "xu2023.figure3.pool-20.village-win-rate", "xu2023.figure3.pool-20.days-per-game"]
