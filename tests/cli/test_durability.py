"""Kills at the worst moments, a second driver, and a damaged data directory (the command line as a subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "roundtable.cli.main"]
GAME = ["play", "avalon", "--preset", "lan6", "--seed", "21"]


def env(home: Path) -> dict[str, str]:
    return os.environ | {"ROUNDTABLE_HOME": str(home)}


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, env=env(home),
                          stdin=subprocess.DEVNULL)


def record(home: Path, game_id: str) -> dict:
    return json.loads((home / "records" / f"{game_id}.json").read_text())


def _default_sigint() -> None:
    """In the child: SIGINT's default action, whatever the test runner inherited (a shell's background job
    starts with SIGINT ignored, and a Python started so never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started(home: Path, game_id: str, until: str, pace: str = "0.02") -> subprocess.Popen[str]:
    """A game played in the background, returned once its transcript shows ``until``."""
    proc = subprocess.Popen([*CLI, *GAME, "--game-id", game_id, "--pace", pace], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env(home), stdin=subprocess.DEVNULL,
                            preexec_fn=_default_sigint)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(until):
            return proc
    proc.wait(timeout=30)
    raise AssertionError(f"the game ended before {until!r}: {proc.stderr.read() if proc.stderr else ''}")


@pytest.fixture
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict:
    home = tmp_path_factory.mktemp("reference")
    assert run(home, *GAME, "--game-id", "straight", "--quiet").returncode == 0
    return record(home, "straight")


@pytest.mark.parametrize(("sig", "status", "word"),
                         [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")],
                         ids=["SIGTERM", "SIGINT"])
def test_sigterm_and_sigint_stop_cleanly_and_the_game_resumes(tmp_path: Path, reference: dict, sig, status,
                                                              word) -> None:
    proc = started(tmp_path, "termed", "Quest 2 begins")
    proc.send_signal(sig)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == status
    assert word in stderr and "roundtable resume termed" in stderr
    assert record(tmp_path, "termed")["status"] == "interrupted"
    assert "termed                 interrupted" in run(tmp_path, "list").stdout
    assert run(tmp_path, "resume", "termed", "--quiet").returncode == 0
    assert record(tmp_path, "termed")["events"] == reference["events"]


def test_a_second_driver_is_refused_naming_the_first(tmp_path: Path) -> None:
    proc = started(tmp_path, "busy", "Quest 1 begins", pace="0.3")
    try:
        second = run(tmp_path, "resume", "busy", "--quiet")
        assert second.returncode == 1 and f"being played by process {proc.pid}" in second.stderr
        assert "busy                   running" in run(tmp_path, "list").stdout
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert "busy                   interrupted" in run(tmp_path, "list").stdout, "the lock died with its process"
    assert run(tmp_path, "resume", "busy", "--quiet").returncode == 0


def test_a_record_lost_after_the_last_checkpoint_is_rewritten_from_the_checkpoints(tmp_path: Path) -> None:
    assert run(tmp_path, *GAME, "--game-id", "done", "--quiet").returncode == 0
    finished = record(tmp_path, "done")
    # what a kill between the game_over checkpoint and the record write leaves behind
    path = tmp_path / "records" / "done.json"
    path.write_text(json.dumps({**finished, "status": "running", "events": [], "winner": None}))
    listed = run(tmp_path, "list")
    assert "done                   finished" in listed.stdout
    assert record(tmp_path, "done")["events"] == finished["events"]
    path.write_text(json.dumps({**finished, "status": "running", "events": []}))
    again = run(tmp_path, "resume", "done")
    assert again.returncode == 1 and "rewritten" in again.stderr and "already over" in again.stderr
    assert record(tmp_path, "done")["status"] == "finished"


def test_a_game_killed_before_its_first_checkpoint_resumes_from_its_record(tmp_path: Path, reference: dict) -> None:
    from roundtable.store.records import build_record

    inputs = {key: reference[key] for key in ("config", "seed", "seats")}
    (tmp_path / "records").mkdir(parents=True)
    (tmp_path / "records" / "early.json").write_text(json.dumps(build_record("early", inputs, "running")))
    assert "early                  interrupted" in run(tmp_path, "list").stdout
    resumed = run(tmp_path, "resume", "early", "--quiet")
    assert resumed.returncode == 0, resumed.stderr
    data = record(tmp_path, "early")
    assert data["status"] == "finished" and data["seed"] == 21 and data["events"] == reference["events"]


def test_list_names_unreadable_records_and_lists_the_rest(tmp_path: Path) -> None:
    assert run(tmp_path, *GAME, "--game-id", "good", "--quiet").returncode == 0
    records = tmp_path / "records"
    (records / "garbled.json").write_text("{not json")
    (records / "array.json").write_text("[1, 2]")
    (records / "typed.json").write_text(json.dumps({"game_id": 5, "status": "finished"}))
    (records / "binary.json").write_bytes(b"\xff\xfe\x00bad")
    listed = run(tmp_path, "list")
    assert listed.returncode == 0, listed.stderr
    assert "good                   finished" in listed.stdout
    for name in ("garbled", "array", "typed", "binary"):
        assert f"{name}" in listed.stdout and f"{name}.json" in listed.stdout
    assert sum(1 for line in listed.stdout.splitlines() if line.split()[1:2] == ["unreadable"]) == 4


def test_a_damaged_checkpoint_database_is_named(tmp_path: Path) -> None:
    assert run(tmp_path, *GAME, "--game-id", "g", "--quiet").returncode == 0
    database = tmp_path / "checkpoints.sqlite"
    for damage in (b"this is not a database at all" * 100, database.read_bytes()[:1000]):
        database.write_bytes(damage)
        for wal in tmp_path.glob("checkpoints.sqlite-*"):
            wal.unlink()
        for command in (["show", "g"], ["resume", "g"], ["history", "g"], [*GAME, "--game-id", "h", "--quiet"]):
            result = run(tmp_path, *command)
            assert result.returncode == 1, (command, result.stderr)
            assert "checkpoints.sqlite is not a usable checkpoint database" in result.stderr
            assert "Traceback" not in result.stderr


def test_a_data_directory_that_is_a_file_or_unreadable_records_are_named(tmp_path: Path) -> None:
    home_file = tmp_path / "home"
    home_file.write_text("not a directory")
    for command in (["list"], [*GAME, "--quiet"], ["show", "g"]):
        result = run(home_file, *command)
        assert result.returncode in (1, 2) and "Traceback" not in result.stderr, (command, result.stderr)
    home = tmp_path / "data"
    assert run(home, *GAME, "--game-id", "g", "--quiet").returncode == 0
    (home / "records" / "g.json").write_text("[1, 2]")
    shown = run(home, "show", "g")
    assert shown.returncode == 1 and "g.json is not a readable record" in shown.stderr
    (home / "records" / "g.json").write_bytes(b"\xff\xfe")
    assert "g.json is not a readable record" in run(home, "resume", "g").stderr
    records = tmp_path / "other"
    records.mkdir()
    (records / "records").write_text("a file where the records directory goes")
    result = run(records, *GAME, "--quiet")
    assert result.returncode == 1 and "data directory cannot be used" in result.stderr and "records" in result.stderr


@pytest.fixture
def read_only_home(tmp_path: Path):
    """A data directory holding one finished game, then made read-only (a tmpfs remounted ``ro``: root
    ignores file modes). Skipped where mounting is not allowed."""
    home = tmp_path / "ro"
    home.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(home)], capture_output=True).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        assert run(home, *GAME, "--game-id", "g", "--quiet").returncode == 0
        assert subprocess.run(["mount", "-o", "remount,ro", str(home)], capture_output=True).returncode == 0
        yield home
    finally:
        subprocess.run(["umount", "-l", str(home)], capture_output=True)


def test_a_read_only_data_directory_is_named(read_only_home: Path) -> None:
    for command in ([*GAME, "--game-id", "new", "--quiet"], ["resume", "g"], ["list"], ["show", "g"]):
        result = run(read_only_home, *command)
        assert "Traceback" not in result.stderr, (command, result.stderr)
        if result.returncode:
            assert str(read_only_home) in result.stderr and ("read-only" in result.stderr.lower()
                                                             or "readonly" in result.stderr.lower()), result.stderr


def test_a_version_1_record_loads_with_the_current_names(tmp_path, monkeypatch):
    """Records written before the renaming pass (version 1) still load, with today's names."""
    import json

    from roundtable.store.records import RECORD_VERSION, read_record

    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    (tmp_path / "records").mkdir()
    old = {"version": 1, "game_id": "old", "game": "avalon", "status": "finished", "events": [
        {"type": "vote", "to": None, "round": 1, "attempt": 1, "player": 2, "approve": True},
        {"type": "decision", "to": [], "player": 2, "request": "r1.a1.vote_team.p2", "kind": "vote_team",
         "agent": "lga", "approve": True, "fallback": "vote_team unclear: counted as approve"}]}
    (tmp_path / "records" / "old.json").write_text(json.dumps(old))
    record = read_record("old")
    assert record["version"] == RECORD_VERSION
    assert [e["type"] for e in record["events"]] == ["vote_team", "decision"]
    assert record["decisions"] == [{"player": 2, "request": "r1.a1.vote_team.p2", "kind": "vote_team", "agent": "lga",
                                    "approve": True, "fallback": "vote_team unclear: counted as approve"}]
    assert record["votes"] == [{"round": 1, "attempt": 1, "player": 2, "approve": True}]
    wolves = {"version": 1, "game_id": "w", "game": "werewolf", "status": "finished", "events": [
        {"type": "kill_vote", "to": [1, 2], "day": 1, "by": 1, "target": 5},
        {"type": "vote", "to": None, "day": 1, "player": 3, "target": 1}]}
    (tmp_path / "records" / "w.json").write_text(json.dumps(wolves))
    record = read_record("w")
    assert [e["type"] for e in record["events"]] == ["kill", "eliminate"]
    assert record["votes"] == [{"day": 1, "player": 3, "target": 1}]
    assert record["night_actions"] == [{"day": 1, "action": "kill", "by": 1, "target": 5}]
