"""The command line, run as a real subprocess against a temporary data directory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "roundtable.cli.main"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return tmp_path / "data"


def run(home: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"ROUNDTABLE_HOME": str(home)}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          stdin=subprocess.DEVNULL)


def record(home: Path, game_id: str) -> dict:
    return json.loads((home / "records" / f"{game_id}.json").read_text())


def test_play_prints_the_game_id_first_and_a_final_json_line(home: Path) -> None:
    result = run(home, "play", "avalon", "--preset", "lan6", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["winner"] in ("good", "evil")
    assert summary["end_reason"]
    assert summary["status"] == "finished"
    data = record(home, summary["game_id"])
    assert data["winner"] == summary["winner"]
    assert sorted(data["roles"].values()) == sorted(["merlin", "percival", "servant", "servant", "morgana", "assassin"])
    assert data["proposals"] and data["votes"] and data["quests"]
    assert all({"round", "player", "success"} <= set(card) for card in data["quest_cards"])
    assert len(data["decisions"]) >= len(data["votes"])


def test_transcript_names_the_game_and_the_result(home: Path) -> None:
    result = run(home, "play", "avalon", "--seed", "8", "--game-id", "avalon-t1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Game avalon-t1 (seed 8)")
    assert any(line.startswith("Game over:") for line in lines)
    assert "Quest 1" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--preset", "lan7"], "unknown preset 'lan7'"),
        (["--preset", "lan6", "--players", "7"], "is for 6 players, not 7"),
        (["--players", "11"], "5 to 10 players"),
        (["--agents", "wizard"], "unknown agent kind 'wizard'"),
        (["--agents", "naive,wizard=random"], "unknown side or role 'wizard'"),
        (["--agents", "naive,9=random"], "seat 9"),
        (["--rule", "discussion=loud"], "rule discussion cannot be 'loud'"),
        (["--rule", "speed=fast"], "unknown rule variant 'speed'"),
        (["--rule", "discussion"], "KEY=VALUE"),
        (["--agents", "lga", "--agent-option", "bogus=1"], "invalid lga options (bogus"),
        (["--agents", "lga", "--agent-option", "evil:analysis_scope=friends"], "analysis_scope"),
        (["--agent-option", "no_plan=true"], "invalid naive options (no_plan: Extra inputs are not permitted)"),
        (["--agents", "lga", "--model", "http://127.0.0.1:9/v1"], "names a server but no model"),
        (["--agents", "lga", "--model", "local,evil=bad model"], "invalid model name"),
        (["--agents", "naive,-1=random"], "seat -1 in assignment '-1=random' does not exist"),
        (["--agents", "lga", "--agent-option", ":no_plan=true"], "empty target before ':'"),
        (["--seed", str(2**64)], "out of range"),
        (["--seed", "-1"], "out of range"),
        (["--pace", "-1"], "--pace must be"),
        (["--pace", "nan"], "--pace must be"),
    ],
)
def test_invalid_options_are_refused_before_the_game_starts(home: Path, args: list[str], message: str) -> None:
    result = run(home, "play", "avalon", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert not home.exists(), "nothing is created before the options are checked"


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        ({"ROUNDTABLE_MODEL": "http://127.0.0.1:9/v1"}, "default model ($ROUNDTABLE_MODEL)"),
        ({"ROUNDTABLE_JSON_SCHEMA": "maybe", "ROUNDTABLE_MODEL": "http://127.0.0.1:9/v1#m"}, "ROUNDTABLE_JSON_SCHEMA"),
        ({"OPENAI_API_KEY": "", "ROUNDTABLE_MODEL": "gpt-4o-mini"}, "cannot use hosted model 'gpt-4o-mini'"),
    ],
)
def test_bad_environment_settings_are_refused_before_the_game_starts(home: Path, variables: dict, message: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"} | {"ROUNDTABLE_HOME": str(home)}
    env |= {k: v for k, v in variables.items() if v}
    result = subprocess.run([*CLI, "play", "avalon", "--agents", "naive,merlin=lga"], capture_output=True,
                            text=True, timeout=120, env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert not home.exists()


def test_unknown_game_is_refused(home: Path) -> None:
    result = run(home, "play", "chess")
    assert result.returncode == 2 and "unknown game 'chess'" in result.stderr


def test_kill_minus_nine_then_resume_matches_an_uninterrupted_game(home: Path) -> None:
    """A game killed mid-way with SIGKILL resumes to exactly the uninterrupted run's events and result."""
    env = os.environ | {"ROUNDTABLE_HOME": str(home)}
    args = ["play", "avalon", "--preset", "lan6", "--seed", "21", "--rule", "discussion=before_proposal"]
    proc = subprocess.Popen([*CLI, *args, "--game-id", "killed", "--pace", "0.01"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    seen = []
    for line in proc.stdout:
        seen.append(line)
        if line.startswith("Quest 2 begins"):
            break
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    assert any(line.startswith("Quest 2 begins") for line in seen), "the game ended before it could be killed"

    assert "killed                 interrupted" in run(home, "list").stdout
    shown = run(home, "show", "killed")
    assert shown.returncode == 0 and "roundtable resume killed" in shown.stdout

    resumed = run(home, "resume", "killed", "--json")
    assert resumed.returncode == 0, resumed.stderr
    straight = run(home, "play", *args[1:], "--game-id", "straight", "--json")
    assert straight.returncode == 0, straight.stderr

    killed, reference = record(home, "killed"), record(home, "straight")
    assert killed["status"] == reference["status"] == "finished"
    assert killed["events"] == reference["events"]
    assert (killed["winner"], killed["end_reason"]) == (reference["winner"], reference["end_reason"])

    again = run(home, "resume", "killed")
    assert again.returncode == 1 and "already over" in again.stderr


def test_history_show_and_list(home: Path) -> None:
    assert run(home, "play", "avalon", "--seed", "2", "--game-id", "g-hist", "--quiet").returncode == 0
    history = run(home, "history", "g-hist")
    assert history.returncode == 0
    rows = history.stdout.splitlines()
    assert any("next=setup" in row for row in rows)
    assert any("Game over" in row for row in rows)
    listed = run(home, "list")
    assert "g-hist" in listed.stdout and "finished" in listed.stdout
    assert run(home, "show", "nope").returncode == 2
    from roundtable.metrics import deductions

    shown = run(home, "show", "g-hist").stdout  # the naive good players' deduction accuracy, as the record has it
    found = deductions(record(home, "g-hist"))
    assert found and all(f"player {p} ({record(home, 'g-hist')['roles'][str(p)]}, naive) {d.right}/{d.guesses} "
                         f"(0.5 baseline {d.baseline}/{d.guesses})" in shown for p, d in found.items())


def test_step_mode_pauses_after_each_phase_and_q_stops_resumably(home: Path) -> None:
    env = os.environ | {"ROUNDTABLE_HOME": str(home)}
    result = subprocess.run([*CLI, "play", "avalon", "--seed", "5", "--game-id", "stepped", "--step"],
                            input="\n\nq\n", capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 3, result.stderr  # stopped unfinished: resumable, not a success
    assert result.stdout.count("-- Enter: next phase") == 3
    assert "Game over" not in result.stdout
    assert record(home, "stepped")["status"] == "interrupted"
    assert run(home, "resume", "stepped", "--quiet").returncode == 0
    assert record(home, "stepped")["status"] == "finished"


@pytest.mark.parametrize("game_id", ["../../escape_rel", "/tmp/roundtable-abs", "a/b", "..", ".hidden", "x" * 81,
                                     "a\\b", "id with space"])
def test_hostile_game_ids_are_refused_before_anything_is_created(tmp_path: Path, game_id: str) -> None:
    home = tmp_path / "data"
    result = run(home, "play", "avalon", "--seed", "1", "--game-id", game_id, "--quiet")
    assert result.returncode == 2 and "invalid game id" in result.stderr
    assert not home.exists(), "nothing is created for a refused id"
    assert not (tmp_path / "escape_rel.json").exists() and not Path("/tmp/roundtable-abs.json").exists()


@pytest.mark.parametrize("command", ["show", "resume", "history"])
def test_unknown_games_are_refused_without_creating_a_data_directory(tmp_path: Path, command: str) -> None:
    home = tmp_path / "data"
    result = run(home, command, "nope")
    assert result.returncode == 2 and "no game 'nope'" in result.stderr
    assert not home.exists()
    bad = run(home, command, "../nope")
    assert bad.returncode == 2 and "invalid game id" in bad.stderr and not home.exists()
