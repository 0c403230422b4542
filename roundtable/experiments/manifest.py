"""Where an experiment stands: its games' status, failures, cost and wall time (``manifest.json``).

Everything here is read from the experiment directory: the game records (the
results), ``runs.jsonl`` (each attempt's wall seconds and error) and the
checkpoint database's size. `experiment_status` is what ``roundtable
experiment status DIR`` prints; `write_manifest` stores it, with per-game
rows, as ``manifest.json`` at the end of each run.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from roundtable.experiments.config import ExperimentConfig, PlannedGame
from roundtable.experiments.retention import database_bytes
from roundtable.metrics.cost import cost_summary
from roundtable.settings import data_home
from roundtable.store.locks import is_driven
from roundtable.store.records import read_record

MANIFEST_FILE = "manifest.json"
RUNS_FILE = "runs.jsonl"
"""One line per attempt at a game (status, wall seconds, error), appended by `roundtable.experiments.runner`."""


def read_runs(directory: Path) -> list[dict[str, Any]]:
    """Every attempt line of ``runs.jsonl``, oldest first (a torn last line, from a kill, is skipped)."""
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
    """
    runs = read_runs(directory)
    attempts: dict[str, list[dict[str, Any]]] = {}
    for run in runs:
        attempts.setdefault(run["game_id"], []).append(run)
    rows: list[dict[str, Any]] = []
    conditions: dict[str, dict[str, Any]] = {}
    records: dict[str, list[dict[str, Any]]] = {}
    with data_home(directory):
        for game in games:
            record = read_record(game.game_id) if (directory / "records").is_dir() else None
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
    return {
        "experiment": config.name,
        "game": config.game,
        "retention": config.retention,
        "planned": len(games),
        **{key: sum(1 for r in rows if r["status"] == key) for key in ("finished", "unfinished", "running", "missing")},
        "failures": {r["game_id"]: r["error"] for r in rows if "error" in r},
        "conditions": conditions,
        "database_bytes": database_bytes(directory / "checkpoints.sqlite"),
        "records_bytes": sum(p.stat().st_size for p in records_dir.glob("*.json")) if records_dir.is_dir() else 0,
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
