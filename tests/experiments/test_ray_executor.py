"""`roundtable experiment run --executor ray`: games as Ray tasks on a local instance of two workers.

A bot experiment under Ray records what an in-process run of the same seeds records; a worker killed mid-game
leaves the game resumed by Ray's retry and recorded once, as an uninterrupted run records it; so does a tournament
whose entrants speak through two replicas of one model, one of them dead, which ends in a leaderboard; Ray missing
and a cluster that does not answer are refused before any game.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

ray = pytest.importorskip("ray", reason="Ray is not installed (the 'cluster' extra: pip install -e '.[cluster]')")

from fake_chat import ChatServer  # noqa: E402

from roundtable.cli.main import app  # noqa: E402
from roundtable.experiments.manifest import read_runs  # noqa: E402
from roundtable.experiments.ray_executor import RayExecutor, RayExecutorError, import_ray  # noqa: E402
from roundtable.experiments.runner import run_experiment  # noqa: E402
from roundtable.settings import data_home  # noqa: E402

pytestmark = pytest.mark.server

CONFIG = """
name = "tiny-ray"
games_per_condition = 3
parallel_games = 2

[defaults]
preset = "bench5"
agents = "naive"
rules = { fifth_rejection = "auto_approve" }

[[conditions]]
name = "naive"

[[conditions]]
name = "random-evil"
agents = "naive,evil=random"
"""

VOLATILE = ("pid", "updated")
"""Record keys that name the process and the time of writing, not the game."""


class KillOnce:
    """A worker hook: kill the worker playing ``game_id`` (SIGKILL, as a lost machine) at its ``after``-th batch of
    events, once (``marker`` remembers it across the retry)."""

    def __init__(self, game_id: str, marker: Path, after: int):
        self.game_id, self.marker, self.after, self.seen = game_id, marker, after, 0

    def __call__(self, game_id: str, events: list) -> None:
        if game_id != self.game_id:
            return
        self.seen += 1
        if self.seen == self.after and not self.marker.exists():
            self.marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray instance with two workers for the module (this process's connection, which executors reuse)."""
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the test hook travels to the workers
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
             _system_config={"worker_niceness": 0})
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The experiment run in-process, straight through."""
    tmp = tmp_path_factory.mktemp("in-process")
    (tmp / "tiny.toml").write_text(CONFIG)
    with data_home(tmp / "home"):
        summary = run_experiment(tmp / "tiny.toml", tmp / "exp")
    assert len(summary.finished) == 6 and not summary.failed
    return tmp / "exp"


def records(directory: Path) -> dict[str, dict]:
    out = {}
    for path in sorted((directory / "records").glob("*.json")):
        record = json.loads(path.read_text())
        out[path.stem] = {k: v for k, v in record.items() if k not in VOLATILE}
    return out


def finished_runs(directory: Path) -> Counter:
    return Counter(r["game_id"] for r in read_runs(directory) if r["status"] == "finished")


def test_a_bot_experiment_under_ray_records_what_in_process_records(local_ray, reference: Path,
                                                                     tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(CONFIG)
    result = CliRunner().invoke(app, ["experiment", "run", str(tmp_path / "tiny.toml"), "--out",
                                      str(tmp_path / "exp"), "--quiet", "--executor", "ray"],
                                env={"ROUNDTABLE_HOME": str(tmp_path / "home")})
    assert result.exit_code == 0, result.output
    assert "6 games finished now" in result.output
    assert records(tmp_path / "exp") == records(reference)
    runs = finished_runs(tmp_path / "exp")
    assert len(runs) == 6 and set(runs.values()) == {1}
    manifest = json.loads((tmp_path / "exp" / "manifest.json").read_text())
    assert manifest["finished"] == 6


@pytest.mark.parametrize("durability", ["sync", "exit"])
def test_a_worker_killed_mid_game_leaves_it_resumed_and_recorded_once(local_ray, reference: Path,
                                                                      tmp_path: Path, durability: str) -> None:
    """Under ``sync`` the retry resumes from the last step; under ``exit`` (no checkpoint until the game's run
    ends) it plays the game again from its seed: either way to the uninterrupted run's end."""
    config = CONFIG.replace("parallel_games = 2", f'parallel_games = 2\ndurability = "{durability}"')
    (tmp_path / "tiny.toml").write_text(config)
    marker = tmp_path / "killed"
    executor = RayExecutor(worker_hook=KillOnce("naive-s0001", marker, after=4))
    with data_home(tmp_path / "home"):
        summary = run_experiment(tmp_path / "tiny.toml", tmp_path / "exp", executor=executor)
    assert marker.exists(), "no worker was killed"
    assert sorted(summary.finished) == sorted(records(reference)) and not summary.failed
    killed = json.loads((tmp_path / "exp" / "records" / "naive-s0001.json").read_text())
    assert killed["pid"] != int(marker.read_text())  # finished by another worker than the one killed
    assert records(tmp_path / "exp") == records(reference)  # resumed games end as uninterrupted ones
    runs = finished_runs(tmp_path / "exp")
    assert len(runs) == 6 and set(runs.values()) == {1}  # every game recorded once


def test_a_ray_address_that_does_not_answer_is_refused_before_any_game(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (tmp_path / "tiny.toml").write_text(CONFIG)
    result = CliRunner().invoke(app, ["experiment", "run", str(tmp_path / "tiny.toml"), "--out",
                                      str(tmp_path / "exp"), "--quiet", "--executor", "ray",
                                      "--ray-address", f"127.0.0.1:{port}"],
                                env={"ROUNDTABLE_HOME": str(tmp_path / "home")})
    assert result.exit_code == 2
    assert f"--ray-address 127.0.0.1:{port}: the Ray cluster does not answer" in result.output
    assert not (tmp_path / "exp" / "records").exists()
    result = CliRunner().invoke(app, ["experiment", "run", str(tmp_path / "tiny.toml"), "--out",
                                      str(tmp_path / "exp"), "--quiet", "--ray-address", "auto"])
    assert result.exit_code == 2 and "--ray-address needs --executor ray" in result.output


def test_ray_missing_is_refused_with_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RayExecutorError, match=r"pip install -e '\.\[cluster\]'"):
        import_ray()


TOURNAMENT = """
name = "ray-tournament"
games_per_condition = 6
parallel_games = 2

[defaults]
preset = "bench5"
rules = {{ fifth_rejection = "auto_approve", discussion = "leader_first_and_last" }}

[[conditions]]
name = "bench5"

[tournament]
resamples = 200

[[tournament.entrants]]
name = "talker"
agent = "naive"
model = "{model}"
options = {{ words = "model" }}

[[tournament.entrants]]
name = "avalonbench"
agent = "naive"
model = "{model}"
options = {{ flavour = "avalonbench", words = "model" }}

[[tournament.entrants]]
name = "random"
agent = "random"
"""


def untimed(value):
    """``value`` without wall times (``seconds``), which differ between runs."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "seconds"}
    return [untimed(v) for v in value] if isinstance(value, list) else value


def test_a_tournament_across_workers_and_replicas_survives_a_lost_worker_and_ends_in_a_leaderboard(
        local_ray, tmp_path: Path) -> None:
    """Issue 37's whole path: entrants whose words come from two replicas of one model (one refusing every
    connection), games as Ray tasks, a worker killed mid-game, every game recorded once as an in-process run
    records it, and a leaderboard with intervals from the finished records."""
    healthy = ChatServer(lambda body: "I back a team that has earned trust.")
    # a replica that refuses every connection: a port bound but not listening, held for the whole test so that
    # no other process (a Ray worker opens many) can take it
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    dead = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    model = f"{dead}|{healthy.spec.split('#')[0]}#fake?json_schema=false&max_retries=0&cooldown=30"
    (tmp_path / "tournament.toml").write_text(TOURNAMENT.format(model=model))
    try:
        with data_home(tmp_path / "home"):
            reference = run_experiment(tmp_path / "tournament.toml", tmp_path / "in-process")
            assert len(reference.finished) == 6 and not reference.failed
            marker = tmp_path / "killed"
            executor = RayExecutor(worker_hook=KillOnce("bench5-s0001", marker, after=2))
            summary = run_experiment(tmp_path / "tournament.toml", tmp_path / "ray", executor=executor)
    finally:
        healthy.close()
        probe.close()
    assert marker.exists(), f"no worker was killed: {summary}; runs {read_runs(tmp_path / 'ray')}"
    assert sorted(summary.finished) == sorted(reference.finished) and not summary.failed
    runs = finished_runs(tmp_path / "ray")
    assert len(runs) == 6 and set(runs.values()) == {1}  # every game recorded once
    assert untimed(records(tmp_path / "ray")) == untimed(records(tmp_path / "in-process"))
    spoken = [e for r in records(tmp_path / "ray").values() for e in r["events"]
              if e["type"] == "decision" and e.get("kind") == "speak" and "usage" in e]
    assert spoken and all(e["usage"]["fallbacks"] == 0 for e in spoken), "every call reached the healthy replica"

    result = CliRunner().invoke(app, ["leaderboard", str(tmp_path / "ray")])
    assert result.exit_code == 0, result.output
    board = (tmp_path / "ray" / "report" / "leaderboard.csv").read_text()
    assert all(name in board for name in ("talker", "avalonbench", "random"))
    assert {"leaderboard.md", "leaderboard.csv", "leaderboard.png"} <= {
        p.name for p in (tmp_path / "ray" / "report").iterdir()}
