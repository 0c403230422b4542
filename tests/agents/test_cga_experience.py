"""The cga experience pool (docs/agents/cga.md#experience-pool): the score, the bad/median selection, persistence across
processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from roundtable.agents.cga.experience import (
    Experience,
    ExperiencePool,
    experience_tuples,
    list_pools,
    record_game,
    score,
    select,
)


def test_winners_score_1000_minus_days_and_losers_the_days():
    assert score(True, 4) == 996 and score(False, 4) == 4
    assert score(True, 1) > score(True, 5) > score(False, 5) > score(False, 1)  # win fast; lose slowly


def test_the_lowest_scored_is_bad_and_those_around_the_median_are_good():
    pool = [Experience(f"r{s}", f"did {s}", s) for s in (3, 996, 5, 994, 997, 2, 995, 6, 993)]
    bad, good = select(pool, good=3)
    assert bad.score == 2
    rest = sorted(e.score for e in pool if e.score != 2)  # 3 5 6 993 994 995 996 997: median 993.5
    assert sorted(e.score for e in good) == [993, 994, 995]
    assert all(abs(e.score - 993.5) <= abs(o - 993.5) for e in good for o in rest if o not in [g.score for g in good])


def test_nothing_to_contrast_with_fewer_than_two():
    assert select([]) is None and select([Experience("r", "x", 5)]) is None


def test_ties_of_score_prefer_the_more_similar():
    pool = [Experience("a", "a", 1, 0.9), Experience("b", "b", 1, 0.95), Experience("c", "c", 500, 0.9),
            Experience("d", "d", 500, 0.99), Experience("e", "e", 800, 0.5)]
    bad, good = select(pool, good=1)
    assert bad.response == "b" and [e.response for e in good] == ["d"]


def finished(memory: dict, winner: str, days: int) -> dict:
    """A finished game's values (Werewolf's events name the ``day``)."""
    return {"memory": memory, "events": [{"type": "night_start", "day": days},
                                         {"type": "game_over", "winner": winner, "day": days}]}


def agent_pool(role: str, side: str, name: str, reflections: list[str], learn: bool = True) -> dict:
    return {"game": "werewolf", "role": role, "side": side, "pool": name, "learn": learn,
            "experience": [{"reflection": r, "response": f"Kill: I chose players {i + 1}.", "round": 1}
                           for i, r in enumerate(reflections)]}


def test_a_finished_game_gives_each_learning_agent_its_score():
    memory = {"1": agent_pool("werewolf", "werewolves", "p", ["As the werewolf, I observed that A."]),
              "2": agent_pool("seer", "village", "p", ["As the seer, I observed that B.", "As the seer, C."]),
              "3": agent_pool("guard", "village", "p", ["As the guard, D."], learn=False),
              "4": {"messages": []}}
    tuples = experience_tuples(memory, finished(memory, "village", 3)["events"])["p"]
    assert [(t["player"], t["score"]) for t in tuples] == [(1, 3), (2, 997), (2, 997)]


SEER = "As the seer, I observed that Player 6 claimed to be a villager but my check showed a werewolf."
SIMILAR = "As the seer, I observed that Player 5 says he is a villager, yet my check found a werewolf."
OTHER = "As the seer, I observed that the weather is nice and nobody talked about anything."


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    return tmp_path


def test_a_pool_persists_and_a_new_process_finds_it(home: Path):
    memory = {"2": agent_pool("seer", "village", "xu", [SEER, OTHER]),
              "5": agent_pool("seer", "village", "xu", [SEER])}
    assert record_game("game-a", finished(memory, "village", 2)) == {"xu": 3}
    assert record_game("game-a", finished(memory, "village", 2)) == {"xu": 3}  # the same ids: nothing new
    assert ExperiencePool("xu").count() == 2 * 1 + 1 and (home / "pools" / "xu" / "pool.json").is_file()
    code = ("import json; from roundtable.agents.cga.experience import ExperiencePool as P; p = P('xu'); "
            f"print(json.dumps([p.count(), [e.__dict__ for e in p.similar({SIMILAR!r}, game='werewolf', "
            "role='seer', epsilon=0.8, limit=50)]]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=os.environ | {"ROUNDTABLE_HOME": str(home)})
    assert out.returncode == 0, out.stderr[-2000:]
    count, found = json.loads(out.stdout.strip().splitlines()[-1])
    assert count == 3
    assert [e["reflection"] for e in found] == [SEER, SEER]  # the dissimilar one is below epsilon
    assert all(e["score"] == 998 and e["similarity"] >= 0.8 for e in found)


def test_retrieval_keeps_to_the_game_and_role_and_caps_the_count(home: Path):
    pool = ExperiencePool("cap")
    pool.add_game("g1", [{"reflection": SEER + f" ({i})", "response": "x", "score": i, "role": "seer",
                          "side": "village", "game": "werewolf", "player": 1, "n": i} for i in range(6)]
                  + [{"reflection": SEER, "response": "y", "score": 1, "role": "witch", "side": "village",
                      "game": "werewolf", "player": 2, "n": 0}])
    assert len(pool.similar(SEER, game="werewolf", role="seer", epsilon=0.5, limit=4)) == 4
    assert {e.response for e in pool.similar(SEER, game="werewolf", role="witch", epsilon=0.5, limit=50)} == {"y"}
    assert pool.similar(SEER, game="avalon", role="seer", epsilon=0.5, limit=50) == []


def test_a_frozen_pool_takes_no_more_games(home: Path):
    memory = {"1": agent_pool("seer", "village", "frozen", [SEER])}
    record_game("g1", finished(memory, "werewolves", 4))
    ExperiencePool("frozen").freeze()
    assert record_game("g2", finished(memory, "werewolves", 4)) == {"frozen": 0}
    assert ExperiencePool("frozen").count() == 1
    assert list_pools() == [{"name": "frozen", "frozen": True, "games": 1, "embeddings": "minilm"}]


def test_a_bad_pool_name_is_refused():
    from roundtable.store.paths import GameIdError

    with pytest.raises(GameIdError):
        ExperiencePool("../elsewhere")


CGA_SEAT = {"kind": "cga", "model": "http://127.0.0.1:9/v1#fake"}


def test_a_seat_records_the_size_of_the_pool_it_starts_with(home: Path):
    from roundtable.agents.cga.experience import pool_at_start

    assert pool_at_start("werewolf", CGA_SEAT) == {"type": "experience_pool", "pool": None, "reads": False,
                                                   "games": 0, "experiences": 0}
    fresh = pool_at_start("werewolf", CGA_SEAT | {"options": {"pool": "xu"}})
    assert (fresh["pool"], fresh["games"], fresh["experiences"]) == ("xu", 0, 0)
    assert not (home / "pools" / "xu").exists()  # reading the size creates nothing
    memory = {"2": agent_pool("seer", "village", "xu", [SEER, OTHER])}
    record_game("g1", finished(memory, "village", 2))
    record_game("g2", finished(memory, "werewolves", 3))
    assert pool_at_start("werewolf", CGA_SEAT | {"options": {"pool": "xu"}}) == {
        "type": "experience_pool", "pool": "xu", "reads": True, "games": 2, "experiences": 4}
    assert not pool_at_start("werewolf", CGA_SEAT | {"options": {"pool": "xu", "experience": False}})["reads"]


def test_the_game_logs_each_cga_seats_pool_when_it_is_dealt(home: Path):
    from langgraph.checkpoint.memory import InMemorySaver

    from roundtable.games import GAMES
    from roundtable.graphs.game import build_game_graph
    from roundtable.metrics.pools import pool_size
    from roundtable.store.records import pools_at_start

    record_game("g1", finished({"2": agent_pool("seer", "village", "village", [SEER])}, "village", 2))
    seats = [CGA_SEAT | {"options": {"pool": "village"}}] * 2 + [{"kind": "naive"}] * 4 + [CGA_SEAT]
    game = build_game_graph(GAMES["werewolf"]).compile(checkpointer=InMemorySaver(), interrupt_after=["setup"])
    values = game.invoke({"config": {"preset": "xu7"}, "seed": 1, "seats": seats},
                         {"configurable": {"thread_id": "pools"}})  # stops once dealt: no model call
    logged = [e for e in values["events"] if e["type"] == "experience_pool"]
    assert [(e["player"], e["to"], e["pool"], e["games"], e["experiences"]) for e in logged] == [
        (1, [], "village", 1, 1), (2, [], "village", 1, 1), (7, [], None, 0, 0)]
    record = {"events": values["events"], "seats": values["seats"]}
    assert set(pools_at_start(record)) == {"1", "2", "7"} and pool_size(record) == 1
