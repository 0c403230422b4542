"""A bot tournament end to end: ``experiment run``, then ``roundtable leaderboard`` and ``experiment report``; and
the command's refusals."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from typer.testing import CliRunner

from roundtable.cli.main import app
from roundtable.experiments.runner import run_experiment

TOURNAMENT = """
name = "tour"
games_per_condition = 6
parallel_games = 2

[defaults]
preset = "bench5"
rules = { fifth_rejection = "auto_approve", discussion = "none" }

[[conditions]]
name = "bench5"

[tournament]
resamples = 100

[[tournament.entrants]]
name = "naive"
agent = "naive"

[[tournament.entrants]]
name = "bench"
agent = "naive"
options = { flavour = "avalonbench" }

[[tournament.entrants]]
name = "random"
agent = "random"
"""

runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament of three bot entrants, two blocks of its rotation (6 games), played once."""
    tmp = tmp_path_factory.mktemp("tour")
    (tmp / "tour.toml").write_text(TOURNAMENT)
    summary = run_experiment(tmp / "tour.toml", tmp / "exp")
    assert len(summary.finished) == 6 and not summary.failed
    return tmp / "exp"


def test_the_leaderboard_ranks_every_entrant_per_side_and_writes_its_files(played: Path, tmp_path: Path):
    done = runner.invoke(app, ["leaderboard", str(played), "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "| rank | entrant | side | games | win rate | OpenSkill μ |" in done.stdout
    rows = list(csv.DictReader(io.StringIO((tmp_path / "leaderboard.csv").read_text())))
    assert {(r["entrant"], r["side"]) for r in rows} == {
        (e, side) for e in ("naive", "bench", "random") for side in ("all", "good", "evil")}
    assert all(int(r["games"]) >= 1 and float(r["bt_low"]) <= float(r["bt"]) <= float(r["bt_high"]) for r in rows)
    assert sum(int(r["games"]) for r in rows if r["side"] == "all") >= 6
    assert "Roles held: even, each entrant held assassin 2, merlin 2, minion 2, servant 4" in done.stdout
    assert (tmp_path / "leaderboard.png").read_bytes().startswith(b"\x89PNG")
    again = runner.invoke(app, ["leaderboard", str(played), "--out", str(tmp_path / "again")])
    assert (tmp_path / "again" / "leaderboard.csv").read_bytes() == (tmp_path / "leaderboard.csv").read_bytes()
    assert (tmp_path / "again" / "leaderboard.md").read_bytes() == (tmp_path / "leaderboard.md").read_bytes()
    assert again.stdout == done.stdout


def test_the_report_of_a_tournament_holds_its_leaderboard(played: Path, tmp_path: Path):
    done = runner.invoke(app, ["experiment", "report", str(played), "--out", str(tmp_path / "report")])
    assert done.exit_code == 0, done.output
    report = (tmp_path / "report" / "report.md").read_text()
    assert report.index("## Leaderboard") < report.index("## Win rate per side")
    board = runner.invoke(app, ["leaderboard", str(played), "--out", str(tmp_path / "board")])
    assert board.exit_code == 0
    written = [(tmp_path / where / "leaderboard.csv").read_bytes() for where in ("report", "board")]
    assert written[0] == written[1]  # the report's board is the command's: the tournament's resamples, seed 0
    assert (tmp_path / "report" / "leaderboard.png").is_file()


def test_a_directory_that_is_no_experiment_is_refused(tmp_path: Path):
    done = runner.invoke(app, ["leaderboard", str(tmp_path)])
    assert done.exit_code == 2 and "is not an experiment directory" in done.output


def test_several_directories_need_a_place_to_write(played: Path):
    done = runner.invoke(app, ["leaderboard", str(played), str(played)])
    assert done.exit_code == 2 and "--out" in done.output


def test_the_same_directory_twice_is_refused(played: Path, tmp_path: Path):
    done = runner.invoke(app, ["leaderboard", str(played), str(played), "--out", str(tmp_path)])
    assert done.exit_code == 2 and "given twice" in done.output
