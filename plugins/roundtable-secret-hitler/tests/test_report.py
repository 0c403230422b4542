"""Secret Hitler's part of ``roundtable experiment report`` and its lines of ``roundtable show``
(`roundtable_secret_hitler.report`, `roundtable_secret_hitler.summary`), reached through the ``roundtable.reports``
and ``roundtable.summaries`` entry points: a small experiment of rule-bot games run and reported from the CLI in
a temporary data directory, and the measures on hand-made records."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from sh_records import bot_game, judge_replies, lying_chancellor, record_of, store
from typer.testing import CliRunner

from roundtable.experiments.report import game_report
from roundtable.experiments.runner import run_experiment
from roundtable.metrics.summaries import game_summary
from roundtable_secret_hitler import outcomes, report

EXPERIMENT = """
name = "sh-bots"
game = "secret_hitler"
games_per_condition = 3
parallel_games = 2

[defaults]
players = 5
agents = "naive"

[[conditions]]
name = "talk"

[[conditions]]
name = "silent7"
players = 7
setting = "silent"
"""


@pytest.fixture(scope="module")
def experiment(tmp_path_factory) -> tuple[Path, str, list[dict]]:
    """The experiment run and reported by ``roundtable experiment report``: its directory, report.md, records."""
    root = tmp_path_factory.mktemp("sh-experiment")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ROUNDTABLE_HOME", str(root / "home"))
        (root / "sh.toml").write_text(EXPERIMENT)
        run_experiment(root / "sh.toml", root / "exp")
        from roundtable.cli.main import app

        result = CliRunner().invoke(app, ["experiment", "report", str(root / "exp")])
    assert result.exit_code == 0, result.output
    records = [json.loads(p.read_text()) for p in sorted((root / "exp" / "records").glob("*.json"))]
    return root / "exp", (root / "exp" / "report" / "report.md").read_text(), records


def section(text: str, heading: str) -> str:
    return text.split(f"## {heading}")[1].split("\n## ")[0]


def test_the_entry_points_declare_the_report_and_the_summary():
    assert game_report("secret_hitler") is report.REPORT


def test_experiment_report_gives_the_secret_hitler_sections(experiment):
    directory, text, records = experiment
    assert len(records) == 6 and all(r["status"] == "finished" and r["game"] == "secret_hitler" for r in records)
    for heading in ("Secret Hitler outcomes", "How the games ended", "Win rate per role, agent kind and model",
                    "Deduction accuracy of the Liberals", "Play quality", "Model cost per condition"):
        assert f"## {heading}" in text, heading
    assert "AvalonBench" not in text and "Werewolf" not in text  # no other game's tables
    for condition in ("talk", "silent7"):
        mine = [r for r in records if r["game_id"].startswith(f"{condition}-")]
        liberal = sum(r["winner"] == "liberal" for r in mine)
        row = next(line for line in section(text, "Secret Hitler outcomes").splitlines()
                   if line.startswith(f"| {condition} |"))
        assert row.startswith(f"| {condition} | 3 | {100 * liberal / 3:.1f}% ["), row
        ended = next(line for line in section(text, "How the games ended").splitlines()
                     if line.startswith(f"| {condition} |"))
        for reason, cell in zip(outcomes.REASONS, ended.split(" | ")[2:6], strict=True):
            assert cell.startswith(f"{100 * sum(r['end_reason'] == reason for r in mine) / 3:.1f}% ["), (reason, cell)
    assert "knowledge-settled decisions right" in section(text, "Play quality")
    assert "| talk | liberal discard |" in section(text, "Play quality")
    assert "No beliefs recorded" in section(text, "Deduction accuracy of the Liberals")
    for name in ("win_rate.png", "end_reasons.png", "measures.csv", "cost.csv"):
        assert (directory / "report" / name).is_file(), name
    rows = {(r["metric"], r["condition"], r["group_by"], r["group"]): r
            for r in csv.DictReader((directory / "report" / "measures.csv").open())}
    assert rows[("liberal_win_rate", "talk", "all", "all")]["n"] == "3"
    assert rows[("WR", "silent7", "role", "liberal")]["n"] == "12"  # four Liberals in each of three games
    assert rows[("settled_decisions", "talk", "all", "all")]["k"] == rows[("settled_decisions", "talk", "all",
                                                                            "all")]["n"]  # rule bots play clean


def test_the_measures_follow_the_records():
    games = [record_of(bot_game(5, seed), f"c-s{seed}") for seed in range(4)]
    running = dict(games[0], status="running", game_id="c-running")
    rows = outcomes.outcome_table({"c": [*games, running]})

    def find(metric: str, group_by: str = "all", group: str = "all"):
        return next(r for r in rows if (r.metric, r.group_by, r.group) == (metric, group_by, group))

    assert find("liberal_win_rate").n == 4 and find("liberal_win_rate").k == sum(
        g["winner"] == "liberal" for g in games)
    assert find("liberal_win_rate").k + find("fascist_win_rate").k == 4
    assert sum(find(reason).k for reason in outcomes.REASONS) == 4
    rounds = [max(e["round"] for e in g["events"] if "round" in e) for g in games]
    assert find("rounds_per_game").value == pytest.approx(sum(rounds) / 4)
    assert find("WR", "role", "hitler").n == 4 and find("WR", "side", "liberal").n == 12
    assert find("deduction_accuracy").n == 0


def test_the_liberals_deduction_from_their_beliefs():
    record = record_of(bot_game(5, 1))
    roles = record["roles"]
    first = next(p for p, r in roles.items() if r == "liberal")
    # one Liberal right about everyone (1.0 for Liberals, 0.0 for the others); a Fascist's belief is not scored
    record["beliefs"] = {first: {p: 1.0 if r == "liberal" else 0.0 for p, r in roles.items() if p != first},
                         next(p for p, r in roles.items() if r == "fascist"): {first: 0.0}}
    rows = outcomes.outcome_table({"c": [record]})
    found = {(r.metric, r.group_by, r.group): (r.k, r.n) for r in rows}
    assert found[("deduction_accuracy", "all", "all")] == (4, 4)
    assert found[("deduction_baseline", "all", "all")] == (2, 4)  # two of the four others are Liberals
    text = report.deduction_section(["c"], rows)
    assert "| c | all | 4 | 100.0% [" in text and "| c | kind=naive | 4 |" in text


def test_the_summary_of_one_game():
    state = bot_game(7, 2)
    record = record_of(state)
    lines = game_summary("secret_hitler", record, True)
    over = next(e for e in state.events if e["type"] == "game_over")
    assert lines[0].startswith(f"Secret Hitler measures: {over['winner']} win (")
    assert f"{over['round']} rounds" in lines[0]
    assert any(line.startswith("Play quality, decisions:") for line in lines)
    assert game_summary("secret_hitler", dict(record, events=[]), False) == []


def test_the_report_adds_the_judges_tables_once_the_records_are_judged(experiment, tmp_path):
    from roundtable.experiments.config import load_config, resolve_games
    from roundtable.experiments.report import write_report
    from roundtable.judge.graph import judge_game
    from roundtable.testing.scripted import Script, ScriptedModels

    directory, _, records = experiment

    def fields(call) -> list[str]:
        schema = call.schema if isinstance(call.schema, dict) else call.schema.model_json_schema()
        return list(schema["properties"])

    script = Script(replies={"stance": lambda call: json.dumps(dict.fromkeys(fields(call), "trust")),
                             "camouflage": lambda call: json.dumps({"claim": "liberal"})})
    for record in [r for r in records if r["game_id"].startswith("talk-")][:2]:
        out = judge_game(record["game_id"], "local", home=directory, models=ScriptedModels(script))
        assert out["judged"]["deception"]["items"] == 0  # the rule bot claims no cards
    assert script.calls and {c.module for c in script.calls} == {"stance", "camouflage"}
    config, _ = load_config(directory / "experiment.toml")
    text = write_report(directory, config, resolve_games(config), tmp_path / "judged").read_text()
    judged = section(text, "Social behaviour judged by `local`")
    assert "### Camouflage per role" in judged and "### Trust and confrontation per role pair" in judged
    assert "| talk | 3 | 2 | 2 | 2 |" in judged and "| silent7 | 3 | 0 | 0 | 0 |" in judged  # judged per behaviour
    assert (tmp_path / "judged" / "judge-local.csv").is_file()
    assert "### False card claims" not in judged  # no card claim to set against the cards held


def test_the_report_shows_the_false_card_claims_per_role_and_side(tmp_path):
    from roundtable.experiments.reports.judge import judge_report
    from roundtable.judge.graph import judge_game
    from roundtable.testing.scripted import Script, ScriptedModels

    record = store(tmp_path, lying_chancellor("c-1"))
    judge_game("c-1", "local", home=tmp_path, models=ScriptedModels(Script(replies=judge_replies())))
    found = judge_report(tmp_path, "secret_hitler", {"c": [record]})
    assert found is not None
    text = "\n".join(found.sections())
    per_role, per_side = (text.split(f"### False card claims per {by}\n")[1].split("\n### ")[0]
                          for by in ("role", "side"))
    # the Fascist Chancellor's claim contradicts the cards it was passed; the Liberal President's does not
    for table in (per_role, per_side):
        assert "| c | liberal | 0.0% [0.0, 79.3] | 1 |" in table, table
        assert "| c | fascist | 100.0% [20.7, 100.0] | 1 |" in table, table
    assert "| c | hitler |" not in per_role  # Hitler claimed no cards
    found.plots(tmp_path)
    assert (tmp_path / "judge-local-false_card_claims.png").is_file()
    assert not (tmp_path / "judge-local-false_card_claims_side.png").exists()  # a table, no plot
