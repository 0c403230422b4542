"""`experiment report` sets the published figures a configuration names beside ours
(docs/experiments.md#published-figures): on a small bot experiment whose counterpart is AvalonBench's naive
baseline, and on hand-built rows."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from roundtable.experiments.config import load_config, parse_config, resolve_games
from roundtable.experiments.report import render_markdown, write_report
from roundtable.experiments.runner import run_experiment
from roundtable.metrics.intervals import wilson
from roundtable.metrics.tables import Measure

BOTS = """
name = "tiny-published"
games_per_condition = 3
parallel_games = 2

[defaults]
preset = "bench5"
agents = "naive"
rules = { fifth_rejection = "auto_approve", discussion = "leader_first_and_last" }

[[conditions]]
name = "naive"
published = "light2023.baseline.good-win-rate"
"""


def section(report: str) -> str:
    return report.split("## Published figures beside ours")[1].split("\n## ")[0]


def test_a_bot_experiment_reports_the_avalonbench_baseline_beside_ours(tmp_path: Path):
    path = tmp_path / "tiny.toml"
    path.write_text(BOTS)
    run_experiment(path, tmp_path / "exp")
    config, _ = load_config(path)
    report = write_report(tmp_path / "exp", config, resolve_games(config)).read_text()

    records = [json.loads(p.read_text()) for p in sorted((tmp_path / "exp" / "records").glob("naive-*.json"))]
    assert len(records) == 3 and all(r["status"] == "finished" for r in records)
    wins = sum(r["winner"] == "good" for r in records)
    low, high = wilson(wins, 3)
    ours = f"{100 * wins / 3:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
    within = "yes" if low <= 0.382 <= high else "no"
    found = section(report)
    assert (f"| naive | good_win_rate | 38.2% | {ours} | 3 | {within} | Light et al. 2023 (AvalonBench), Table 3 "
            "(SERVANT bot row); abstract | none (rule bots) | 1000 |") in found
    assert "- naive: naive (no model)" in found  # our side's players; theirs is the table's model column
    assert "`light2023.baseline.good-win-rate` (Light et al. 2023 (AvalonBench)" in found

    rows = list(csv.DictReader((tmp_path / "exp" / "report" / "published.csv").open()))
    assert [(r["figure"], r["condition"], r["published"], r["k"], r["n"], r["within"]) for r in rows] == [
        ("light2023.baseline.good-win-rate", "naive", "0.382000", str(wins), "3", within)]
    assert float(rows[0]["low"]) == round(low, 6) and float(rows[0]["high"]) == round(high, 6)


def test_a_report_without_published_figures_has_no_such_section(tmp_path: Path):
    config = parse_config('name = "p"\ngames_per_condition = 1\n[[conditions]]\nname = "a"\n')
    assert "Published figures" not in render_markdown(config, {"a": []}, [])


def test_a_figure_without_a_number_a_mean_and_a_missing_group():
    config = parse_config('name = "w"\ngame = "werewolf"\ngames_per_condition = 5\n[[conditions]]\nname = "a"\n'
                          'published = "xu2023.figure3.pool-0"\n[[conditions]]\nname = "b"\n')
    records = {"a": [{"seats": [{"kind": "cga", "model": "local"}, {"kind": "naive"}]}], "b": []}
    rows = [Measure("days_per_game", "a", "pool_games", "0", 20, 5, 4.0, 3.5, 4.5, 5, "bootstrap")]
    found = section(render_markdown(config, records, rows))
    assert "| a | days_per_game (pool_games=0) | not given | 4.00 [3.50, 4.50] | 5 | - | Xu et al. 2023, " \
           "Figure 3(b) | gpt-3.5-turbo-0301 | 50 |" in found
    assert "| a | village_win_rate (pool_games=0) | not given | - | 0 | - |" in found  # no row of ours
    assert "- a: cga on local; naive (no model)" in found
    assert "| b |" not in found and "- b:" not in found  # a condition that names no published figure has no row
