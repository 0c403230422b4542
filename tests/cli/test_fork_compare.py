"""``roundtable fork`` and ``roundtable compare`` on a bot game (the command line as a subprocess): a fork
continues on a new game id recorded as a fork, reproduces the original where nothing changed, stops after
one decision point when asked, is marked by ``history``; bad forks are refused before anything is made."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "roundtable.cli.main"]


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env=os.environ | {"ROUNDTABLE_HOME": str(home)})


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("forks")
    played = run(home, "play", "avalon", "--preset", "bench5", "--seed", "3", "--game-id", "orig", "--quiet")
    assert played.returncode == 0
    return home


def record(home: Path, game_id: str) -> dict:
    return json.loads((home / "records" / f"{game_id}.json").read_text())


def test_a_fork_replays_the_rest_of_a_bot_game_and_is_marked(home: Path) -> None:
    done = run(home, "fork", "orig", "--at", "9", "--game-id", "branch", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "Fork branch of orig at step 9" in done.stdout
    fork, orig = record(home, "branch"), record(home, "orig")
    assert fork["status"] == "finished" and fork["fork_of"]["game_id"] == "orig" and fork["fork_of"]["step"] == 9
    assert fork["events"] == orig["events"]
    compared = run(home, "compare", "orig", "branch")
    assert compared.returncode == 0 and "0 different" in compared.stdout
    assert "No decision made in both differs" in compared.stdout
    marked = run(home, "history", "orig").stdout
    assert "<- forked: branch" in [line for line in marked.splitlines() if line.lstrip().startswith("9 ")][0]
    assert run(home, "history", "branch").stdout.startswith("Fork of orig at step 9")


def test_until_decision_stops_after_one_decision_point_and_resumes(home: Path) -> None:
    done = run(home, "fork", "orig", "--at", "9", "--game-id", "one", "--until-decision", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["status"] == "interrupted"
    decided = [e for e in record(home, "one")["events"] if e["type"] == "decision"]
    assert len(decided) == 1 + len([e for e in record(home, "orig")["events"][:18] if e["type"] == "decision"])
    compared = run(home, "compare", "orig", "one")
    assert "0 different" in compared.stdout and "0 only in B" in compared.stdout
    assert run(home, "resume", "one", "--quiet").returncode == 0
    assert record(home, "one")["status"] == "finished"


@pytest.mark.parametrize(("args", "problem"), [
    (["--at", "999"], "no checkpoint or step '999'"),
    (["--at", "3", "--context", "bogus=1"], "bogus"),
    (["--at", "3", "--prompt", "nope_prompt=/dev/null"], "no prompt 'nope_prompt'"),
    (["--at", "3", "--prompt", "act_prompt=/no/such/file"], "cannot read"),
    (["--at", "3", "--context", "lga.temperature"], "KEY=VALUE"),
])
def test_bad_forks_are_refused(home: Path, args: list[str], problem: str) -> None:
    before = sorted(p.name for p in (home / "records").iterdir())
    done = run(home, "fork", "orig", *args)
    assert done.returncode == 2 and problem in done.stderr
    assert sorted(p.name for p in (home / "records").iterdir()) == before


def test_play_keeps_its_context_overrides_and_refuses_unknown_ones(tmp_path: Path) -> None:
    done = run(tmp_path, "play", "--seed", "1", "--game-id", "ctx", "--quiet", "--context", "seeded_calls=false")
    assert done.returncode == 0, done.stderr
    assert record(tmp_path, "ctx")["context"] == {"seeded_calls": False}
    refused = run(tmp_path, "play", "--seed", "1", "--quiet", "--context", "nope=1")
    assert refused.returncode == 2 and "nope" in refused.stderr


def test_a_fork_with_other_agents_plays_on_from_the_checkpoint_with_the_changed_seats_reading_the_game_so_far(
        home: Path) -> None:
    done = run(home, "fork", "orig", "--at", "9", "--game-id", "reseated", "--agents", "naive,2=random", "--json")
    assert done.returncode == 0, done.stderr
    fork, orig = record(home, "reseated"), record(home, "orig")
    assert fork["status"] == "finished" and [s["kind"] for s in fork["seats"]] == ["naive", "random", *["naive"] * 3]
    assert [s["kind"] for s in orig["seats"]] == ["naive"] * 5, "the original keeps its seats"
    decided = [e for e in fork["events"] if e["type"] == "decision"]
    before = len([e for e in orig["events"][:18] if e["type"] == "decision"])
    assert {e["agent"] for e in decided[before:] if e["player"] == 2} == {"random"}
    assert all(e["agent"] == "naive" for e in decided[before:] if e["player"] != 2)
    assert {e["agent"] for e in decided[:before]} == {"naive"}, "the game before the checkpoint is the original's"
    from roundtable.play.runner import open_runner

    os.environ["ROUNDTABLE_HOME"] = str(home)  # the runner reads the test's data directory
    try:
        with open_runner("avalon") as runner:
            history = list(runner.history("reseated"))
    finally:
        del os.environ["ROUNDTABLE_HOME"]
    assert history, "the fork has its own checkpoints"


@pytest.mark.parametrize(("args", "message"), [
    (("--agents", "naive,naive"), None),  # an assignment list naming fewer seats is a default, not a count
    (("--agents", "naive,2=nosuchkind"), "unknown agent kind"),
    (("--model", "local"), "need --agents"),
])
def test_a_fork_with_bad_seats_is_refused_before_anything_is_made(home: Path, args, message) -> None:
    game_id = f"seats-{abs(hash(args)) % 10**6}"
    done = run(home, "fork", "orig", "--at", "9", "--game-id", game_id, *args, "--quiet")
    if message is None:
        assert done.returncode == 0, done.stderr
        return
    assert done.returncode != 0 and message in done.stderr, done.stderr
    assert not (home / "records" / f"{game_id}.json").exists()


def test_fork_game_refuses_seats_of_another_count_or_a_model_the_seat_cannot_use(home: Path, monkeypatch) -> None:
    from roundtable.play.forks import ForkError, fork_game

    monkeypatch.setenv("ROUNDTABLE_HOME", str(home))
    with pytest.raises(ForkError, match="4 seats given for a game of 5 players"):
        fork_game("orig", 9, seats=[{"kind": "naive"}] * 4, new_id="short", run=False)
    with pytest.raises(ForkError, match="model of player 1"):
        fork_game("orig", 9, seats=[{"kind": "lga", "model": "not a spec#"}] + [{"kind": "naive"}] * 4,
                  new_id="badmodel", run=False)
    assert not (home / "records" / "short.json").exists() and not (home / "records" / "badmodel.json").exists()
