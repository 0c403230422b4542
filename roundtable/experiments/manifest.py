"""Where an experiment stands: its games' status, failures, cost and wall time (``manifest.json``).

Everything here is read from the experiment directory: the game records (the
results), ``runs.jsonl`` (each attempt's wall seconds and error) and the
checkpoint database's size. `experiment_status` is what ``roundtable
experiment status DIR`` prints; `write_manifest` stores it, with per-game
rows, as ``manifest.json`` at the end of each run. `load_records` reads the
finished records per condition, what the report and the leaderboard are
computed from.

An experiment run with a shared database (``--database``, docs/experiments.md#shared-database) keeps its records,
run log and checkpoints there instead, and its directory says where in ``store.json`` (the URL without its
password); `experiment_store` opens that store for whoever reads the directory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from roundtable.experiments.config import ExperimentConfig, PlannedGame, load_config
from roundtable.experiments.retention import database_bytes
from roundtable.metrics.cost import cost_summary
from roundtable.settings import data_home, settings
from roundtable.store import database as shared_store
from roundtable.store.locks import is_driven
from roundtable.store.records import has_records, read_record

MANIFEST_FILE = "manifest.json"
RUNS_FILE = "runs.jsonl"
"""One line per attempt at a game (status, wall seconds, error), appended by `roundtable.experiments.runner`."""
STORE_FILE = "store.json"
"""In a directory whose games live in a shared database: ``{"database": URL without its password}``."""


def recorded_database(directory: Path) -> str | None:
    """The database URL (without its password) an experiment directory keeps its games in, or ``None``: its files."""
    path = directory / STORE_FILE
    if not path.is_file():
        return None
    return str(json.loads(path.read_text(encoding="utf-8"))["database"])


@contextmanager
def experiment_store(directory: Path, config: ExperimentConfig | None = None,
                     database: str | None = None) -> Iterator[shared_store.Database | None]:
    """Use the store of the experiment in ``directory`` for the block: the shared database at ``database`` if
    given, else, for a directory run with one (`recorded_database`), ``$ROUNDTABLE_DATABASE_URL`` or the URL it
    recorded; else its own files (``None``). A database already in use for this experiment is kept.

    Args:
        directory: the experiment directory.
        config: the experiment's configuration (``None``: read from the directory when a database is involved).
        database: the database's URL, if given (``--database``).

    Raises:
        DatabaseError: the database cannot be used (one line, before anything is read or played).
    """
    recorded = recorded_database(directory)
    current = shared_store.active()
    if database is None and recorded is None and current is None:
        yield None
        return
    if config is None:
        config = load_config(directory / "experiment.toml")[0]
    namespace = shared_store.namespace_of(config.name)
    if current is not None and current.namespace == namespace and database is None:
        yield current
        return
    env = settings().database_url
    url = database or (recorded and (env.get_secret_value() if env is not None else recorded))
    if not url:
        with shared_store.use_database(None):
            yield None
        return
    with shared_store.open_database(url, namespace) as opened:
        yield opened


def load_records(directory: Path, games: list[PlannedGame]) -> dict[str, list[dict[str, Any]]]:
    """``{condition: finished records}`` of the experiment in ``directory``, conditions in configuration order; read
    from its store (`experiment_store`: its files or its shared database)."""
    out: dict[str, list[dict[str, Any]]] = {}
    with data_home(directory), experiment_store(directory):
        for game in games:
            out.setdefault(game.condition, [])
            record = read_record(game.game_id) if has_records() else None
            if record is not None and record.get("status") == "finished":
                out[game.condition].append(record)
    return out


def read_runs(directory: Path) -> list[dict[str, Any]]:
    """Every attempt line of ``runs.jsonl``, oldest first (a torn last line, from a kill, is skipped); from the
    shared database's run log while one is in use."""
    shared = shared_store.active()
    if shared is not None:
        return shared.runs()
    path = directory / RUNS_FILE
    if not path.is_file():
        return []
    runs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            runs.append(json.loads(line))
        except ValueError:
            continue
    return runs


def experiment_status(directory: Path, config: ExperimentConfig, games: list[PlannedGame]) -> dict[str, Any]:
    """The experiment's state, from its directory.

    Returns:
        ``{"experiment", "game", "retention", "planned", "finished", "unfinished", "missing", "running",
        "failures": {game_id: last error}, "conditions": {name: {"planned", "finished", "unfinished",
        "missing", "wall_seconds", "cost": `cost_summary`}}, "games": [per-game rows], "database_bytes",
        "records_bytes"}``. A failure is listed while the game is not finished and its last attempt raised.
        Read from the experiment's store (`experiment_store`).
    """
    with experiment_store(directory, config) as shared:
        return _status(directory, config, games, shared)


def _status(directory: Path, config: ExperimentConfig, games: list[PlannedGame],
            shared: shared_store.Database | None) -> dict[str, Any]:
    runs = read_runs(directory)
    attempts: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        attempts.setdefault(run["game_id"], []).append(run)
    rows: list[dict[str, Any]] = []
    conditions: dict[str, dict[str, Any]] = {}
    records: dict[str, list[dict[str, Any]]] = {}
    with data_home(directory):
        for game in games:
            record = read_record(game.game_id) if has_records() else None
            status = "missing" if record is None else "finished" if record.get("status") == "finished" else "unfinished"
            if status == "unfinished" and is_driven(game.game_id):
                status = "running"
            tries = attempts.get(game.game_id, [])
            row = {"game_id": game.game_id, "condition": game.condition, "seed": game.seed, "status": status,
                   "winner": (record or {}).get("winner"), "end_reason": (record or {}).get("end_reason"),
                   "attempts": len(tries), "wall_seconds": round(sum(t.get("seconds", 0) for t in tries), 3),
                   "usage": ((record or {}).get("usage") or {}).get("game")}
            if status != "finished" and tries and tries[-1].get("error"):
                row["error"] = tries[-1]["error"]
            rows.append(row)
            entry = conditions.setdefault(game.condition, {"planned": 0, "finished": 0, "unfinished": 0,
                                                           "running": 0, "missing": 0, "wall_seconds": 0.0})
            entry["planned"] += 1
            entry[status] += 1
            entry["wall_seconds"] = round(entry["wall_seconds"] + row["wall_seconds"], 3)
            if status == "finished":
                records.setdefault(game.condition, []).append(record or {})
    for name, entry in conditions.items():
        entry["cost"] = cost_summary(records.get(name, []))
        done = entry["finished"]
        entry["wall_seconds_per_game"] = round(entry["wall_seconds"] / done, 3) if done else 0.0
    records_dir = directory / "records"
    checkpoint_bytes, record_bytes = shared.sizes() if shared is not None else (
        database_bytes(directory / "checkpoints.sqlite"),
        sum(p.stat().st_size for p in records_dir.glob("*.json")) if records_dir.is_dir() else 0)
    return {
        "experiment": config.name,
        "game": config.game,
        "retention": config.retention,
        "planned": len(games),
        **{key: sum(1 for r in rows if r["status"] == key) for key in ("finished", "unfinished", "running", "missing")},
        "failures": {r["game_id"]: r["error"] for r in rows if "error" in r},
        "conditions": conditions,
        "database_bytes": checkpoint_bytes,
        "records_bytes": record_bytes,
        "games": rows,
    }


def write_manifest(directory: Path, config: ExperimentConfig, games: list[PlannedGame],
                   run_seconds: float | None = None) -> dict[str, Any]:
    """Write ``manifest.json`` (`experiment_status` plus the last run's wall seconds) atomically; return it."""
    manifest = experiment_status(directory, config, games)
    if run_seconds is not None:
        manifest["last_run_seconds"] = round(run_seconds, 3)
    path = directory / MANIFEST_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path)
    return manifest
