"""The command line with cga seats on a fake endpoint: a finished game feeds the seats' experience pool, and the
``pool`` commands build a pool from earlier games, show it and freeze it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fake_chat import ChatServer  # noqa: E402
from test_cli import record, run  # noqa: E402


def reply(body: dict) -> str:
    """Prose replies by task; the extractor names player 1 or says approve."""
    system, user = body["messages"][0]["content"], body["messages"][-1]["content"]
    if system.startswith("You read game answers"):
        return "approve" if "approve" in user else "1"
    if "Task: Choose questions" in user:
        return "Chosen: 1"
    if "Task: Answer the question" in user:
        return ("A1: I am not sure yet.\nA2: Nobody.\nA3: Quest one.\n"
                "Reflection: As the player, I observed that all is calm.")
    return "Thought: the team looks clean.\nChoice: approve\nWords: I trust this team."


OPTIONS = [part for option in ("pool=table", "refresh=round", "merge_answers=true", "questions=1", "own_questions=0")
           for part in ("--agent-option", f"good:{option}")]


def test_a_finished_game_feeds_the_pool_and_pool_build_takes_earlier_games(tmp_path: Path) -> None:
    home = tmp_path / "data"
    endpoint = ChatServer(reply)
    try:
        played = run(home, "play", "avalon", "--preset", "bench5", "--seed", "3", "--game-id", "g1", "--agents",
                     "naive,good=cga", "--model", endpoint.spec, "--rule", "discussion=none",
                     *OPTIONS, "--json", "--quiet", timeout=300)
    finally:
        endpoint.close()
    assert played.returncode == 0, played.stderr[-3000:]
    data = record(home, "g1")
    assert data["status"] == "finished"
    cga = [d for d in data["decisions"] if data["seats"][d["player"] - 1]["kind"] == "cga"]
    # one question chosen of the whole set (Xu et al.'s design on any model but the embedded one)
    assert cga and any(len(d["usage"].get("retrieval_seconds") or []) == 1 for d in cga)
    shown = run(home, "pool", "show", "table")
    assert shown.returncode == 0, shown.stderr
    assert "Pool table: 1 games" in shown.stdout and "learning" in shown.stdout
    count = int(shown.stdout.split("games, ")[1].split(" experiences")[0])
    probe = [d for d in cga if d["kind"] == "belief"]
    assert len(probe) == 3, "each good cga seat answered the belief probe, which adds no tuple"
    moves = [d for d in cga if d["kind"] != "belief"]
    assert count == sum(1 for d in moves if d["usage"]["calls"])  # one tuple per decision that reflected

    built = run(home, "pool", "build", "frozen-xu", "g1", "--freeze")
    assert built.returncode == 0, built.stderr
    assert f"g1: {count} experiences" in built.stdout
    listed = run(home, "pool", "list")
    assert "frozen-xu" in listed.stdout and "table" in listed.stdout
    again = run(home, "pool", "build", "frozen-xu", "g1")
    assert again.returncode == 2 and "frozen" in again.stderr
    missing = run(home, "pool", "build", "other", "nope")
    assert missing.returncode == 1 and "no finished checkpoint" in missing.stderr
    bad = run(home, "play", "avalon", "--agents", "cga", "--agent-option", "pool=../x")
    assert bad.returncode == 2 and "pool" in bad.stderr


def test_pool_copy_takes_the_first_games_of_another_pool_and_freezes_it(tmp_path: Path, monkeypatch) -> None:
    """Xu et al.'s pools of 10 to 40 games, built once: ``pool copy SOURCE NAME --first N --freeze``."""
    from roundtable.agents.cga.experience import ExperiencePool

    home = tmp_path / "data"
    monkeypatch.setenv("ROUNDTABLE_HOME", str(home))
    grown = ExperiencePool("grown")
    for k, n in enumerate((2, 1, 3)):
        grown.add_game(f"b-{k}", [{"reflection": f"Game {k}: player {i} lied about the seer.", "response": "vote",
                                   "score": 996, "role": "villager", "side": "village", "game": "werewolf",
                                   "player": 3, "n": i} for i in range(n)])
    copied = run(home, "pool", "copy", "grown", "first-two", "--first", "2", "--freeze")
    assert copied.returncode == 0, copied.stderr
    assert "Pool first-two: 3 experiences from 2 games of grown (frozen); added 3." in copied.stdout
    info = ExperiencePool("first-two").info()
    assert info["games"] == ["b-0", "b-1"] and info["frozen"]
    again = run(home, "pool", "copy", "grown", "first-two")
    assert again.returncode == 2 and "is frozen" in again.stderr
    too_many = run(home, "pool", "copy", "grown", "other", "--first", "4")
    assert too_many.returncode == 1 and "holds 3 games, fewer than --first 4" in too_many.stderr
    missing = run(home, "pool", "copy", "nobody", "other")
    assert missing.returncode == 1 and "no pool 'nobody'" in missing.stderr


def test_a_pool_exported_and_imported_into_another_data_directory_reads_the_same(tmp_path: Path, monkeypatch) -> None:
    """``pool export NAME FILE`` then ``pool import FILE NAME`` elsewhere: the same games in order, the same
    tuples, the same experiences found for a reflection; a second import adds nothing."""
    from roundtable.agents.cga.experience import ExperiencePool

    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setenv("ROUNDTABLE_HOME", str(first))
    grown = ExperiencePool("grown")
    for k, n in enumerate((2, 1)):
        grown.add_game(f"b-{k}", [{"reflection": f"Game {k}: player {i} lied about the seer.", "response": "vote",
                                   "score": 996 - i, "role": "villager", "side": "village", "game": "werewolf",
                                   "player": 3, "n": i} for i in range(n)])
    grown.freeze()
    query = {"game": "werewolf", "role": "villager", "epsilon": 0.5, "limit": 5}
    before = grown.similar("Player 1 lied about the seer.", **query)
    exported = tmp_path / "grown.json"
    done = run(first, "pool", "export", "grown", str(exported))
    assert done.returncode == 0, done.stderr
    assert "Pool grown: 2 games, 3 experiences written to" in done.stdout
    fields = list(json.loads(exported.read_text())["tuples"][0])
    assert fields == ["id", "reflection", *sorted(fields[2:])]  # one order, whatever the store gives: one file

    monkeypatch.setenv("ROUNDTABLE_HOME", str(second))
    imported = run(second, "pool", "import", str(exported), "grown")
    assert imported.returncode == 0, imported.stderr
    assert "Pool grown: 3 experiences (frozen); added 3." in imported.stdout
    copy = ExperiencePool("grown")
    assert copy.info()["games"] == ["b-0", "b-1"] and copy.frozen
    assert copy.export_games() == grown.export_games()
    after = copy.similar("Player 1 lied about the seer.", **query)
    assert [(e.reflection, e.score) for e in after] == [(e.reflection, e.score) for e in before] and after
    again = run(second, "pool", "import", str(exported), "grown")
    assert again.returncode == 0 and "added 0" in again.stdout
    other = tmp_path / "other.json"
    other.write_text('{"embeddings": "http://elsewhere/v1#e", "games": ["x"], "tuples": []}')
    refused = run(second, "pool", "import", str(other), "grown")
    assert refused.returncode == 1 and "embeddings" in refused.stderr
    (tmp_path / "bad.json").write_text("[]")
    assert run(second, "pool", "import", str(tmp_path / "bad.json"), "new").returncode == 1
