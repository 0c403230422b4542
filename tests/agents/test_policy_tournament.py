"""The ``policy`` kind enters a tournament against the rule bots and is rated on the leaderboard
(docs/envs.md#in-a-tournament): two blocks of the rotation on ``bench5``, no model, then ``roundtable leaderboard``
over the finished records."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from roundtable.cli.main import app
from roundtable.experiments.runner import run_experiment

TOURNAMENT = """
name = "policy-tournament"
games_per_condition = 6
parallel_games = 2
durability = "exit"

[defaults]
preset = "bench5"
rules = { fifth_rejection = "auto_approve", discussion = "none" }

[[conditions]]
name = "bench5"

[tournament]
resamples = 100

[[tournament.entrants]]
name = "policy"
agent = "policy"

[[tournament.entrants]]
name = "naive"
agent = "naive"

[[tournament.entrants]]
name = "avalonbench"
agent = "naive"
options = { flavour = "avalonbench" }
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tournament's six games (two blocks of three entrants), played once."""
    tmp = tmp_path_factory.mktemp("policy_tour")
    (tmp / "tour.toml").write_text(TOURNAMENT)
    summary = run_experiment(tmp / "tour.toml", tmp / "exp")
    assert len(summary.finished) == 6 and not summary.failed
    return tmp / "exp"


def test_the_policy_kind_sits_at_every_role_place_of_the_tournament(played: Path):
    held: Counter[str] = Counter()
    for path in sorted((played / "records").glob("*.json")):
        record = json.loads(path.read_text())
        assert record["status"] == "finished"
        for seat, spec in enumerate(record["seats"], start=1):
            if spec["kind"] == "policy":
                held[record["roles"][str(seat)]] += 1
    assert held == {"merlin": 2, "servant": 4, "assassin": 2, "minion": 2}  # each role place once per block


def test_the_leaderboard_rates_the_policy_kind_beside_the_rule_bots(played: Path, tmp_path: Path):
    done = CliRunner().invoke(app, ["leaderboard", str(played), "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    rows = list(csv.DictReader(io.StringIO((tmp_path / "leaderboard.csv").read_text())))
    assert {(r["entrant"], r["side"]) for r in rows} == {
        (e, side) for e in ("policy", "naive", "avalonbench") for side in ("all", "good", "evil")}
    policy = {r["side"]: r for r in rows if r["entrant"] == "policy"}
    assert int(policy["all"]["games"]) == 6 and int(policy["good"]["games"]) >= 1 and int(policy["evil"]["games"]) >= 1
    assert all(float(r["bt_low"]) <= float(r["bt"]) <= float(r["bt_high"]) for r in policy.values())
    assert float(policy["all"]["calls_per_game"]) == 0.0  # no model
    assert "Roles held: even" in done.stdout
