"""An experiment's ``durability = "exit"``: the same games as ``sync`` with two checkpoints each (input, end),
and a game that raises mid-way still resumes to the same end."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from roundtable.experiments.config import ExperimentConfigError, parse_config
from roundtable.experiments.runner import run_experiment
from roundtable.testing.scripted import Script, ScriptedModels

CONFIG = """
name = "exit"
games_per_condition = 3
parallel_games = {parallel}
retention = "keep_all"
durability = "{durability}"

[defaults]
preset = "bench5"
agents = "naive"
rules = {{ fifth_rejection = "auto_approve" }}

[[conditions]]
name = "naive"
{extra}
"""


def run(tmp: Path, durability: str, extra: str = "", models: Any = None, parallel: int = 2) -> Path:
    config = tmp / f"{durability}.toml"
    config.write_text(CONFIG.format(durability=durability, extra=extra, parallel=parallel))
    out = tmp / durability
    run_experiment(config, out, models=models)
    return out


def untimed(value: Any) -> Any:
    """``value`` without its wall times (``seconds``), which differ from run to run."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k != "seconds"}
    return [untimed(v) for v in value] if isinstance(value, list) else value


def endings(out: Path) -> dict[str, tuple[Any, ...]]:
    records = {p.stem: json.loads(p.read_text()) for p in sorted((out / "records").glob("*.json"))}
    return {gid: (r["status"], r["winner"], r["end_reason"], untimed(r["events"])) for gid, r in records.items()}


def checkpoints(out: Path) -> dict[str, int]:
    con = sqlite3.connect(out / "checkpoints.sqlite")
    try:
        return dict(con.execute("SELECT thread_id, COUNT(*) FROM checkpoints GROUP BY thread_id").fetchall())
    finally:
        con.close()


def test_exit_plays_the_same_games_as_sync_and_writes_one_checkpoint_per_game(tmp_path: Path) -> None:
    synced, exited = run(tmp_path, "sync"), run(tmp_path, "exit")
    assert endings(exited) == endings(synced)
    assert {status for status, *_ in endings(exited).values()} == {"finished"}
    assert set(checkpoints(exited).values()) == {2}  # the input and the end
    assert min(checkpoints(synced).values()) > 20


def test_a_game_that_raises_under_exit_resumes_from_its_saved_step_to_the_same_end(tmp_path: Path) -> None:
    extra = 'agents = "naive,merlin=lga"\nmodels = "http://fake/v1#fake"'
    reply: dict[str, Any] = {}
    (tmp_path / "a").mkdir()
    reference = run(tmp_path / "a", "sync", extra, ScriptedModels(Script(dict(reply))))
    (tmp_path / "b").mkdir()
    script = Script(dict(reply), fail_at=40)  # the 40th call raises (an endpoint gone): its game stops mid-way
    out = run(tmp_path / "b", "exit", extra, ScriptedModels(script), parallel=1)
    failed = [gid for gid, (status, *_) in endings(out).items() if status != "finished"]
    assert len(failed) == 1 and script.failed
    assert checkpoints(out)[failed[0]] <= 3  # written when the run raised, not at every step
    assert len(endings(out)[failed[0]][3]) > 10  # ... holding the steps played before the failure
    again = run_experiment(tmp_path / "b" / "exit.toml", out, models=ScriptedModels(Script(dict(reply))))
    assert again.finished == failed and again.skipped == 2
    assert endings(out) == endings(reference)


def test_an_unknown_durability_is_refused() -> None:
    with pytest.raises(ExperimentConfigError, match="durability"):
        parse_config(CONFIG.format(durability="async", extra="", parallel=1))


def test_a_rerun_may_change_how_the_games_run_but_not_which_games(tmp_path: Path) -> None:
    first = tmp_path / "first.toml"
    first.write_text(CONFIG.format(durability="sync", extra="", parallel=2))
    run_experiment(first, tmp_path / "exp", first=1)
    faster = tmp_path / "faster.toml"
    faster.write_text(CONFIG.format(durability="exit", extra="", parallel=1).replace('"keep_all"', '"delete"'))
    summary = run_experiment(faster, tmp_path / "exp")
    assert summary.skipped == 1 and len(summary.finished) == 2
    assert 'durability = "exit"' in (tmp_path / "exp" / "experiment.toml").read_text()  # what ran last
    other = tmp_path / "other.toml"
    other.write_text(CONFIG.format(durability="exit", extra="", parallel=1).replace("bench5", "lan6"))
    with pytest.raises(ExperimentConfigError, match="holds another configuration"):
        run_experiment(other, tmp_path / "exp")
