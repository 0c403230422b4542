"""Experiments in a shared PostgreSQL database (issue 37 part 2): a real server, started here from the installed
binaries (initdb into a temporary directory, pg_ctl on a Unix socket there, as an unprivileged user), runs bot
experiments with --database: every game recorded once, status and report read it, a killed run resumed gives the
results of an uninterrupted one, two runs at once never play a game twice, and bad databases are refused before
any game."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from roundtable.store.database import DatabaseError, namespace_of, redact
from roundtable.testing.postgres import NoPostgresError, database_url, local_postgres

pytestmark = pytest.mark.server
psycopg = pytest.importorskip("psycopg", reason="the 'postgres' extra is not installed: pip install -e '.[postgres]'")

CLI = [sys.executable, "-m", "roundtable.cli.main", "experiment"]
TINY = """
name = "tiny-db"
games_per_condition = {games}
parallel_games = 3
retention = "{retention}"

[defaults]
preset = "bench5"
agents = "naive"
rules = {{ fifth_rejection = "auto_approve" }}

[[conditions]]
name = "naive"

[[conditions]]
name = "random-evil"
agents = "naive,evil=random"
"""
GAMES = 8
REPORT_FILES = ("report.md", "measures.csv", "cost.csv", "win_rate.png", "evil_qer_fvr.png", "role_lar_srr.png")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A PostgreSQL server of its own on a Unix socket in a temporary directory; yields the socket directory."""
    try:
        with local_postgres() as socket:
            yield socket
    except NoPostgresError as error:
        pytest.skip(str(error))


@pytest.fixture
def url(server: str, request: pytest.FixtureRequest) -> str:
    """A fresh database of its own for each test."""
    return database_url(server, "t_" + "".join(c if c.isalnum() else "_" for c in request.node.name.lower())[:50])


def write_config(path: Path, games: int = GAMES // 2, retention: str = "delete") -> Path:
    path.write_text(TINY.format(games=games, retention=retention))
    return path


def cli(*args: str, home: Path, timeout: float = 300, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != "ROUNDTABLE_DATABASE_URL"}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                          env=environ | {"ROUNDTABLE_HOME": str(home)} | env)


def query(url: str, sql: str) -> list[tuple]:
    """Rows of ``sql`` in the tiny experiment's namespace ([] while its tables do not exist yet)."""
    with psycopg.connect(url, autocommit=True, options=f"-c search_path={namespace_of('tiny-db')}") as conn:
        try:
            return conn.execute(sql).fetchall()
        except psycopg.errors.UndefinedTable:
            return []


def finished_runs(url: str) -> list[str]:
    return [json.loads(line)["game_id"] for (line,) in query(url, "SELECT line FROM roundtable_runs ORDER BY id")
            if json.loads(line)["status"] == "finished"]


def outcomes(url: str) -> dict[str, tuple]:
    out = {}
    for game_id, text in query(url, "SELECT game_id, record FROM roundtable_records ORDER BY game_id"):
        record = json.loads(text)
        out[game_id] = (record["status"], record["winner"], record["end_reason"], len(record["events"]))
    return out


def report_bytes(directory: Path) -> dict[str, bytes]:
    return {name: (directory / "report" / name).read_bytes() for name in REPORT_FILES}


@pytest.fixture(scope="module")
def files_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same experiment in files (no database), run straight through, and its report."""
    tmp = tmp_path_factory.mktemp("files")
    done = cli("run", str(write_config(tmp / "tiny.toml")), "--out", str(tmp / "exp"), "--quiet", home=tmp / "home")
    assert done.returncode == 0, done.stderr
    assert cli("report", str(tmp / "exp"), home=tmp / "home").returncode == 0
    return tmp / "exp"


def test_a_bot_experiment_in_a_database_records_each_game_once_and_status_and_report_read_it(
        url: str, tmp_path: Path, files_run: Path) -> None:
    out = tmp_path / "exp"
    done = cli("run", str(write_config(tmp_path / "tiny.toml")), "--out", str(out), "--quiet", "--database", url,
               home=tmp_path / "home")
    assert done.returncode == 0, done.stderr
    assert f"{GAMES} games finished now, 0 before" in done.stdout
    # records, run log and checkpoints are in the database, not in the directory
    assert not (out / "records").exists() and not (out / "runs.jsonl").exists()
    assert not (out / "checkpoints.sqlite").exists()
    assert json.loads((out / "store.json").read_text()) == {"database": url}
    runs = Counter(finished_runs(url))
    assert len(runs) == GAMES and set(runs.values()) == {1}, runs
    assert {s for s, *_ in outcomes(url).values()} == {"finished"} and len(outcomes(url)) == GAMES
    assert query(url, "SELECT count(*) FROM checkpoints") == [(0,)]  # retention "delete"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["finished"] == GAMES and manifest["records_bytes"] > 0

    status = cli("status", str(out), home=tmp_path / "home")  # the directory says where its games are
    assert status.returncode == 0, status.stderr
    assert f"{GAMES}/{GAMES} finished" in status.stdout
    assert cli("report", str(out), "--database", url, home=tmp_path / "home").returncode == 0
    assert report_bytes(out) == report_bytes(files_run)  # the database changes no result

    again = cli("run", str(tmp_path / "tiny.toml"), "--out", str(out), "--quiet", home=tmp_path / "home",
                ROUNDTABLE_DATABASE_URL=url)
    assert again.returncode == 0, again.stderr
    assert f"0 games finished now, {GAMES} before" in again.stdout
    assert len(finished_runs(url)) == GAMES


def test_killed_mid_run_and_rerun_records_each_game_once_as_an_uninterrupted_run(
        url: str, tmp_path: Path, files_run: Path) -> None:
    config = write_config(tmp_path / "tiny.toml")
    out = tmp_path / "exp"
    proc = subprocess.Popen([*CLI, "run", str(config), "--out", str(out), "--quiet", "--database", url],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                            env=os.environ | {"ROUNDTABLE_HOME": str(tmp_path / "home")})
    deadline = time.monotonic() + 120
    while len(finished_runs(url)) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    killed_with = len(finished_runs(url))
    assert 2 <= killed_with < GAMES, "the run was not killed mid-way"

    status = cli("status", str(out), home=tmp_path / "home")
    assert status.returncode == 0 and f"{killed_with}/{GAMES} finished" in status.stdout, status.stdout

    rerun = cli("run", str(config), "--out", str(out), "--quiet", "--database", url, home=tmp_path / "home")
    assert rerun.returncode == 0, rerun.stderr
    assert f"{killed_with} before" in rerun.stdout
    runs = Counter(finished_runs(url))
    assert len(runs) == GAMES and set(runs.values()) == {1}, runs  # every game finished exactly once
    reference = {}
    for path in sorted((files_run / "records").glob("*.json")):
        record = json.loads(path.read_text())
        reference[path.stem] = (record["status"], record["winner"], record["end_reason"], len(record["events"]))
    assert outcomes(url) == reference  # resumed games end as uninterrupted ones
    assert cli("report", str(out), home=tmp_path / "home").returncode == 0
    assert report_bytes(out) == report_bytes(files_run)


def test_two_runs_at_once_on_one_database_never_play_a_game_twice(url: str, tmp_path: Path) -> None:
    config = write_config(tmp_path / "tiny.toml")
    procs = [subprocess.Popen([*CLI, "run", str(config), "--out", str(tmp_path / f"worker{i}"), "--quiet",
                               "--database", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              stdin=subprocess.DEVNULL, env=os.environ | {"ROUNDTABLE_HOME": str(tmp_path / "home")})
             for i in (1, 2)]
    outputs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode in (0, 1) for p in procs), outputs
    assert all(" 0 failed" in out for out, _ in outputs), outputs
    last = cli("run", str(config), "--out", str(tmp_path / "worker1"), "--quiet", home=tmp_path / "home")
    assert last.returncode == 0, last.stderr
    runs = Counter(finished_runs(url))
    assert len(runs) == GAMES and set(runs.values()) == {1}, (runs, outputs)
    for worker in ("worker1", "worker2"):
        status = cli("status", str(tmp_path / worker), home=tmp_path / "home")
        assert f"{GAMES}/{GAMES} finished" in status.stdout


def test_an_unreachable_database_is_refused_in_one_line_before_any_game(tmp_path: Path) -> None:
    unreachable = "postgresql://player:s3cret@127.0.0.1:9/games"
    done = cli("run", str(write_config(tmp_path / "tiny.toml")), "--out", str(tmp_path / "exp"), "--quiet",
               "--database", unreachable, home=tmp_path / "home")
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot reach the database postgresql://player@127.0.0.1:9/games: ")
    assert done.stderr.count("\n") == 1 and "s3cret" not in done.stderr
    assert not (tmp_path / "exp" / "records").exists() and not (tmp_path / "exp" / "store.json").exists()


def test_a_schema_of_an_older_version_is_refused_before_any_game(url: str, tmp_path: Path) -> None:
    namespace = namespace_of("tiny-db")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {namespace}")
        conn.execute(f"CREATE TABLE {namespace}.roundtable_meta (key text PRIMARY KEY, value text NOT NULL)")
        conn.execute(f"INSERT INTO {namespace}.roundtable_meta VALUES ('schema_version', '0')")
    done = cli("run", str(write_config(tmp_path / "tiny.toml")), "--out", str(tmp_path / "exp"), "--quiet",
               "--database", url, home=tmp_path / "home")
    assert done.returncode == 2
    assert "holds roundtable's schema version 0, older than this roundtable's 1" in done.stderr
    assert done.stderr.count("\n") == 1
    assert query(url, "SELECT count(*) FROM roundtable_meta") == [(1,)]  # nothing created
    assert query(url, "SELECT 1 FROM pg_tables WHERE tablename = 'roundtable_records'") == []


def test_refusals_before_any_game(url: str, tmp_path: Path) -> None:
    # another configuration under the same experiment name
    first = cli("run", str(write_config(tmp_path / "one.toml", games=1)), "--out", str(tmp_path / "one"), "--quiet",
                "--database", url, home=tmp_path / "home")
    assert first.returncode == 0, first.stderr
    other = cli("run", str(write_config(tmp_path / "two.toml", games=2)), "--out", str(tmp_path / "two"), "--quiet",
                "--database", url, home=tmp_path / "home")
    assert other.returncode == 2 and "holds another configuration of the experiment 'tiny-db'" in other.stderr
    # a retention the database does not offer (checked first)
    keep = cli("run", str(write_config(tmp_path / "keep.toml", retention="keep_last")), "--out",
               str(tmp_path / "keep"), "--quiet", "--database", url, home=tmp_path / "home")
    assert keep.returncode == 2 and 'retention = "keep_last" is not available' in keep.stderr
    # a directory whose games are in its own files
    files = cli("run", str(tmp_path / "one.toml"), "--out", str(tmp_path / "files"), "--quiet", home=tmp_path / "home")
    assert files.returncode == 0
    mixed = cli("run", str(tmp_path / "one.toml"), "--out", str(tmp_path / "files"), "--quiet", "--database", url,
                home=tmp_path / "home")
    assert mixed.returncode == 2 and "keeps its games in its own files" in mixed.stderr
    assert len(finished_runs(url)) == 2


def test_the_missing_package_is_named_with_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from roundtable.store.database import Database

    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(DatabaseError) as raised:
        Database("postgresql:///x", "rt_x").open()
    assert str(raised.value) == ("--database needs PostgreSQL support (psycopg is missing): "
                                 "pip install -e '.[postgres]'")


def test_urls_lose_their_password_in_messages() -> None:
    assert redact("postgresql://u:pw@h:5432/db?sslmode=require") == "postgresql://u@h:5432/db?sslmode=require"
    assert redact("postgresql:///db?host=/tmp/x") == "postgresql:///db?host=/tmp/x"
    assert namespace_of("Lan Table 2") == namespace_of("Lan Table 2") != namespace_of("lan table 2")
    assert len(namespace_of("x" * 200)) <= 63
