"""``benchmarks/step_times.py``: a game's steps timed from its checkpoints, sorted by what they ask."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from benchmark_scripts import load_script
from langgraph.checkpoint.sqlite import SqliteSaver

from roundtable.graphs.avalon import build_avalon_graph


def script():
    return load_script("step_times")


def asked(kind: str, round_: int, attempt: int, player: int = 1, first: bool = False) -> dict:
    tail = ".first" if first else ""
    return {"kind": kind, "round": round_, "attempt": attempt, "player": player,
            "id": f"r{round_}.a{attempt}.{kind}{tail}.p{player}"}


def test_a_rounds_first_team_and_its_later_teams_are_timed_apart() -> None:
    steps = [
        ([asked("propose_team", 1, 1, first=True)], 40.0),
        ([asked("speak", 1, 1, 2)], 5.0),
        ([asked("propose_team", 1, 1)], 6.0),
        ([asked("vote_team", 1, 1, p) for p in (1, 2, 3)], 20.0),
        ([asked("propose_team", 1, 2, 2, first=True)], 4.0),
        ([asked("speak", 1, 2, 3)], 3.0),
        ([asked("vote_team", 1, 2, p) for p in (1, 2, 3)], 22.0),
        ([asked("quest_card", 1, 2, 2)], 1.0),
        ([asked("propose_team", 2, 1, 3, first=True)], 30.0),
    ]
    rows = script().rows(steps)
    assert rows["first team: talk"] == [51.0, 30.0]
    assert rows["later teams: talk"] == [7.0]
    assert rows["round start step"] == [40.0, 30.0]
    assert rows["team vote"] == [20.0, 22.0]
    assert rows["quest cards"] == [1.0]


def test_each_asking_step_of_a_checkpointed_game_is_found_once(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "checkpoints.sqlite", check_same_thread=False)
    graph = build_avalon_graph().compile(checkpointer=SqliteSaver(conn))
    config = {"configurable": {"thread_id": "g"}, "recursion_limit": 10_000}
    out = graph.invoke({"config": {"preset": "lan6"}, "seed": 2, "seats": [{"kind": "naive"}] * 6}, config)
    found = script().steps(SqliteSaver(conn), "g")
    answered = [e["request"] for e in out["events"] if e["type"] == "decision"]
    assert [r["id"] for requests, _ in found for r in requests] == answered
    assert all(seconds >= 0 for _, seconds in found)
