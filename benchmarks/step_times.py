"""Wall seconds of a game's steps, from the timestamps of its checkpoints, with no model.

Each game graph step that asks players (a phase node's requests, answered by the agent nodes in one
superstep) lasts from the checkpoint that holds its requests to the next one. This sorts those steps by
what they ask and where they fall in a team's turn:

- ``first team: talk`` is a round's first team from the leader's first proposal to its final one (the
  talk turns between), the part of a round where every seat writes its notes of the round (summary,
  analysis, plan): before 790033e each player before its own first decision, from 790033e all of
  them with the leader's first proposal (`roundtable.games.protocol.prepare_round`);
- ``later teams: talk``, the same for the round's other teams (no notes);
- ``round start step`` alone, ``team vote`` (all players at once) and ``quest cards``.

So the two talk rows of games before and after a change to when notes are written show what the
change did to a round's wall time, however many teams the games voted.

    python benchmarks/step_times.py DATA_DIR [GAME_ID ...]   # default: every game of the directory's records
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
from collections import defaultdict
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

from langgraph.checkpoint.sqlite import SqliteSaver
from play_quality import record_files


def steps(saver: SqliteSaver, game_id: str) -> list[tuple[list[dict[str, Any]], float]]:
    """``[(requests, wall seconds)]``: each asking step of a game, in order, with the requests it answered."""
    checkpoints = list(saver.list({"configurable": {"thread_id": game_id, "checkpoint_ns": ""}}))
    checkpoints.reverse()
    out = []
    for before, after in pairwise(checkpoints):
        values = before.checkpoint["channel_values"]
        requests = values.get("requests") or []
        # asked, not yet answered
        if requests and not values.get("decisions") and after.metadata.get("source") == "loop":
            seconds = (datetime.fromisoformat(after.checkpoint["ts"])
                       - datetime.fromisoformat(before.checkpoint["ts"])).total_seconds()
            out.append((requests, seconds))
    return out


def rows(game_steps: list[tuple[list[dict[str, Any]], float]]) -> dict[str, list[float]]:
    """Seconds per row of the table (see the module docstring) for one game; a team's talk summed."""
    out: dict[str, list[float]] = defaultdict(list)
    talk: dict[tuple[int, int], float] = defaultdict(float)
    for requests, seconds in game_steps:
        kinds = {r["kind"] for r in requests}
        first = requests[0]
        if kinds == {"vote_team"}:
            out["team vote"].append(seconds)
        elif kinds == {"quest_card"}:
            out["quest cards"].append(seconds)
        elif kinds <= {"propose_team", "speak"}:
            talk[(first["round"], first["attempt"])] += seconds
            if first["kind"] == "propose_team" and first["attempt"] == 1 and ".first." in first["id"]:
                out["round start step"].append(seconds)
    firsts = {}
    for (round_, attempt), seconds in sorted(talk.items()):
        firsts.setdefault(round_, attempt)
        out["first team: talk" if firsts[round_] == attempt else "later teams: talk"].append(seconds)
    return out


ROWS = ("round start step", "first team: talk", "later teams: talk", "team vote", "quest cards")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("home", help="a data directory (checkpoints.sqlite, records/)")
    parser.add_argument("games", nargs="*", help="game ids (default: every game of the directory's records)")
    args = parser.parse_args()
    home = Path(args.home)
    games = args.games or [path.stem for path in record_files([str(home)])]
    saver = SqliteSaver(sqlite3.connect(home / "checkpoints.sqlite", check_same_thread=False))
    merged: dict[str, list[float]] = defaultdict(list)
    for game in games:
        for row, values in rows(steps(saver, game)).items():
            merged[row] += values
    print(f"{len(games)} games in {home}\n")
    print("| step | count | median s | mean s |")
    print("|---|---:|---:|---:|")
    for row in ROWS:
        values = merged.get(row) or []
        if values:
            print(f"| {row} | {len(values)} | {statistics.median(values):.1f} | {statistics.mean(values):.1f} |")


if __name__ == "__main__":
    main()
