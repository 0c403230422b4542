"""``benchmarks/bench_play_quality.py``: which games it plays, resumes or skips, and the table it prints from
their records (no model: the CLI processes it would start are recorded, not run)."""

from __future__ import annotations

import json
import subprocess
import threading

import pytest
from benchmark_scripts import load_script
from typer.testing import CliRunner

from roundtable.cli.main import app
from roundtable.experiments.retention import checkpoint_count
from roundtable.play.runner import open_runner
from roundtable.settings import data_home
from roundtable.store.locks import GameBusyError, game_lock

bench = load_script("bench_play_quality")
CGA = next(e for e in bench.SUITE if e.name == "cga-xu7")


def werewolf_record(game_id: str, status: str = "finished") -> dict:
    roles = {"1": "werewolf", "2": "werewolf", "3": "witch", "4": "villager", "5": "villager", "6": "guard",
             "7": "seer"}
    events = [{"type": "utterance", "to": None, "day": 1, "speaker": 3, "text": "I think Player 5 is quiet today."},
              {"type": "utterance", "to": None, "day": 1, "speaker": 4, "text": "I think Player 5 is quiet today."}]
    return {"game_id": game_id, "game": "werewolf", "status": status, "roles": roles, "events": events,
            "decisions": [], "usage": {"game": {"calls": 30, "decisions": 20, "fallbacks": 1}}}


def test_a_finished_game_is_skipped_a_stopped_one_resumed_and_a_new_one_played(tmp_path, monkeypatch):
    runs = []
    monkeypatch.setattr(subprocess, "run", lambda command, **kw: runs.append(command) or subprocess.CompletedProcess(
        command, 0))
    (tmp_path / "records").mkdir()
    for seed, status in ((1, "finished"), (2, "running")):
        gid = bench.game_id(CGA, seed)
        (tmp_path / "records" / f"{gid}.json").write_text(json.dumps(werewolf_record(gid, status)))
    for seed in (1, 2, 3):
        bench.play(tmp_path, CGA, seed, "", ["--agent-option=dry=false"], "local")
    assert [c[3:5] for c in runs] == [["resume", "pq-cga-xu7-s2"], ["play", "werewolf"]]
    assert runs[1][5:] == ["--preset", "xu7", "--agents", "cga", "--seed", "3", "--game-id", "pq-cga-xu7-s3",
                           "--model", "local", "--quiet", "--agent-option=dry=false"]
    times = json.loads((tmp_path / bench.TIMES).read_text())
    assert set(times) == {"pq-cga-xu7-s2", "pq-cga-xu7-s3"}


def test_the_table_pools_the_finished_games_of_each_entry_with_calls_per_decision_and_wall_time(tmp_path):
    (tmp_path / "records").mkdir()
    for seed in (1, 2):
        gid = bench.game_id(CGA, seed, "off")
        (tmp_path / "records" / f"{gid}.json").write_text(json.dumps(werewolf_record(gid)))
    (tmp_path / bench.TIMES).write_text(json.dumps({"pq-cga-xu7-off-s1": 300.0, "pq-cga-xu7-off-s2": 420.0}))
    table = bench.table(tmp_path, [CGA], "off")
    header, _, row = table.splitlines()
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")], strict=True))
    assert cells["kind and game"] == "cga-xu7 (off)" and cells["games"] == "2/4"
    assert cells["parroting"] == "2/4 = 50%", "each game's second statement copies its first"
    assert cells["calls per decision"] == "1.50" and cells["wall min (median)"] == "6.0"
    assert bench.table(tmp_path, [CGA], "").count("\n") == 1, "no finished game without the tag: header only"


def test_an_experiment_conditions_games_of_the_same_configuration_count_in_the_entrys_row(tmp_path):
    experiment = tmp_path / "exp"
    (experiment / "records").mkdir(parents=True)
    seats = [{"kind": "cga", "model": "local", "options": {}}] * 7
    config = {"preset": "xu7", "rules": {"werewolf_night": "sequential"}}
    for seed, status in ((0, "finished"), (1, "running")):
        gid = f"pool-0-s{seed:04d}"
        (experiment / "records" / f"{gid}.json").write_text(json.dumps(
            werewolf_record(gid, status) | {"seats": seats, "config": config}))
    (experiment / "runs.jsonl").write_text(json.dumps({"game_id": "pool-0-s0000", "seconds": 600.0}) + "\n")
    borrowed = [bench.parse_borrowed(f"cga-xu7={experiment}:pool-0")]
    header, _, row = bench.table(tmp_path, [CGA], "", borrowed).splitlines()
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")], strict=True))
    assert cells["games"] == "0/4 + 1 of experiments", "the running game is left out"
    assert cells["wall min (median)"] == "10.0"
    other = experiment / "records" / "pool-0-s0000.json"
    other.write_text(json.dumps(werewolf_record("pool-0-s0000") | {"seats": [seats[0] | {"options": {"pool": "p"}}] * 7,
                                                                    "config": config}))
    with pytest.raises(ValueError, match="not a game of cga-xu7: seat 1"):
        bench.table(tmp_path, [CGA], "", borrowed)


def test_a_setting_entry_checks_the_settings_preset_and_rules():
    cot = next(e for e in bench.SUITE if e.name == "cot-avalonplay")
    seats = [{"kind": "cot", "model": "local", "options": {}}] * 7
    rules = {"fifth_rejection": "auto_approve", "two_fail_quests": "four_and_five", "evil_quest_card": "must_fail",
             "discussion": "leader_first", "vote_visibility": "tally_only", "assassination": "end_only"}
    record = {"game": "avalon", "seats": seats, "config": {"preset": "play7", "rules": rules}}
    assert bench.configuration_problem(cot, record, "local") is None
    shown = record | {"config": {"preset": "play7", "rules": rules | {"vote_visibility": "public"}}}
    assert bench.configuration_problem(cot, shown, "local") == "rule vote_visibility='public', not 'tally_only'"
    with pytest.raises(ValueError, match="ENTRY=DIR:CONDITION"):
        bench.parse_borrowed("cot-avalonplay")


def test_a_game_finished_now_is_kept_in_the_archive_and_an_archived_game_is_neither_played_nor_missing(
        tmp_path, monkeypatch):
    home, archive = tmp_path / "home", tmp_path / "archive"
    (home / "records").mkdir(parents=True)

    def finish(command, **kw):
        gid = command[command.index("--game-id") + 1]
        (home / "records" / f"{gid}.json").write_text(json.dumps(werewolf_record(gid)))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(subprocess, "run", finish)
    bench.play(home, CGA, 1, "", [], "local", archive)
    kept = json.loads((archive / "records" / "pq-cga-xu7-s1.json").read_text())
    assert kept["status"] == "finished" and "pq-cga-xu7-s1" in json.loads((archive / bench.TIMES).read_text())
    (commit,) = json.loads((archive / bench.CODE).read_text())["pq-cga-xu7-s1"]  # the code it played on
    assert commit == bench.code_version() and commit != "unknown"
    fresh = tmp_path / "fresh"       # a new data directory, as on a new machine
    monkeypatch.setattr(subprocess, "run", lambda command, **kw: pytest.fail(f"played {command}"))
    bench.play(fresh, CGA, 1, "", [], "local", archive)
    header, _, row = bench.table(fresh, [CGA], "", archive=archive).splitlines()
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in row.split("|")], strict=True))
    assert cells["games"] == "1/4" and cells["wall min (median)"] != "-"
    assert bench.table(fresh, [CGA], "").count("\n") == 1, "without the archive the fresh directory has none"


def test_the_reproductions_kept_in_git_are_borrowed_by_default_when_they_hold_records(tmp_path):
    (tmp_path / "avalonplay-table3" / "records").mkdir(parents=True)
    (tmp_path / "xu-fig3-pools").mkdir()    # no records yet
    found = bench.kept_borrowed(tmp_path)
    assert [(b.entry, b.directory.name, b.condition) for b in found] == [
        ("codeact-avalonplay", "avalonplay-table3", "codeact"), ("cot-avalonplay", "avalonplay-table3", "cot")]


def test_the_code_of_each_run_of_a_game_is_noted_once_in_order(tmp_path):
    bench.note_code(tmp_path, "g", ["a1b2c3d"])
    bench.note_code(tmp_path, "g", ["a1b2c3d"])  # resumed on the same code
    bench.note_code(tmp_path, "g", ["e4f5a6b+"])  # then on later, uncommitted code
    bench.note_code(tmp_path, "h", ["e4f5a6b+"])
    assert json.loads((tmp_path / bench.CODE).read_text()) == {"g": ["a1b2c3d", "e4f5a6b+"], "h": ["e4f5a6b+"]}


def test_again_forgets_a_stopped_game_so_that_it_is_played_from_the_start_but_never_one_being_played(
        tmp_path, monkeypatch):
    gid = bench.game_id(CGA, 2)
    played = CliRunner().invoke(app, ["play", "werewolf", "--preset", "xu7", "--agents", "naive", "--seed", "2",
                                      "--game-id", gid, "--quiet"], env={"ROUNDTABLE_HOME": str(tmp_path)})
    assert played.exit_code == 0, played.output
    (tmp_path / "records" / f"{gid}.json").write_text(json.dumps(werewolf_record(gid, "running")))  # stopped
    (tmp_path / bench.TIMES).write_text(json.dumps({gid: 60.0}))
    runs = []
    monkeypatch.setattr(subprocess, "run", lambda command, **kw: runs.append(command) or subprocess.CompletedProcess(
        command, 0))
    archive = tmp_path / "archive"
    refused = []

    def elsewhere() -> None:  # another process holds the game's lock: this thread stands for it
        try:
            bench.forget(tmp_path, CGA, gid, archive)
        except GameBusyError as error:
            refused.append(error)

    with data_home(tmp_path), game_lock(gid):
        worker = threading.Thread(target=elsewhere)
        worker.start()
        worker.join()
    assert refused and (tmp_path / "records" / f"{gid}.json").exists(), "nothing deleted while it is played"
    with data_home(tmp_path), open_runner("werewolf") as runner:
        assert checkpoint_count(runner.saver, gid) > 0
    bench.forget(tmp_path, CGA, gid, archive)
    with data_home(tmp_path), open_runner("werewolf") as runner:
        assert checkpoint_count(runner.saver, gid) == 0
    assert not (tmp_path / "records" / f"{gid}.json").exists() and gid not in json.loads(
        (tmp_path / bench.TIMES).read_text())
    bench.play(tmp_path, CGA, 2, "", [], "local")
    assert [c[3:5] for c in runs] == [["play", "werewolf"]]  # from the start, not resumed
    (archive / "records").mkdir(parents=True)
    (archive / "records" / f"{gid}.json").write_text(json.dumps(werewolf_record(gid)))
    with pytest.raises(ValueError, match="new --tag"):
        bench.forget(tmp_path, CGA, gid, archive)


def test_keeping_a_finished_game_again_leaves_its_code_as_played(tmp_path):
    home, archive = tmp_path / "home", tmp_path / "archive"
    (home / "records").mkdir(parents=True)
    (home / "records" / "pq-cga-xu7-s1.json").write_text(json.dumps(werewolf_record("pq-cga-xu7-s1")))
    bench.note_code(home, "pq-cga-xu7-s1", ["a1b2c3d", "e4f5a6b"])  # played, then resumed on later code
    for _ in range(3):  # each later pass of the suite skips it and keeps it again
        bench.keep(home, archive, "pq-cga-xu7-s1")
    assert json.loads((archive / bench.CODE).read_text()) == {"pq-cga-xu7-s1": ["a1b2c3d", "e4f5a6b"]}
