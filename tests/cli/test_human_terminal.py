"""A person at the terminal (``--agents 2=human``), driven through a pseudo-terminal with pexpect:
a whole game played to the end by keystrokes (an illegal answer re-asked), hot-seat with two people,
and ``kill -9`` while a person is asked, after which ``resume`` asks the same question again."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

CLI = [sys.executable, "-m", "roundtable.cli.main"]
ASK = re.compile(r"\(Player (\d+)\) (ask: ([^\r\n]*)|words to the table|your turn[^\r\n]*?): ")


def spawn(home: Path, *args: str, term: str = "dumb") -> pexpect.spawn:
    env = os.environ | {"ROUNDTABLE_HOME": str(home), "TERM": term, "COLUMNS": "240"}
    child = pexpect.spawn(CLI[0], [*CLI[1:], *args], encoding="utf-8", timeout=90, env=env)
    child.logfile_read = (home / "terminal.log").open("a")
    return child


def answer(question: str) -> str:
    """Legal keystrokes for a question line such as ``vote team: answer approve or reject``."""
    pick = re.search(r"name (\d+) players? of ([\d, ]+)", question)
    if pick:
        return ",".join(c.strip() for c in pick.group(2).split(",")[: int(pick.group(1))])
    return re.search(r"answer (\w+)", question).group(1)[:2]  # a prefix of the first allowed word


def play_out(child: pexpect.spawn, illegal_first: bool = False) -> dict[str, int]:
    """Answer every question until the process ends; returns counts of what was asked."""
    seen = {"ask": 0, "words": 0, "turn": 0, "refused": 0}
    while child.expect([ASK, pexpect.EOF]) == 0:
        what = child.match.group(2)
        if what.startswith("ask"):
            seen["ask"] += 1
            if illegal_first and seen["ask"] == 1:
                child.sendline("99")
                assert child.expect([ASK]) == 0 and child.match.group(2) == what, "the same question again"
                seen["refused"] += 1
            child.sendline(answer(child.match.group(3)))
        elif what.startswith("words"):
            seen["words"] += 1
            child.sendline("I trust players with clean records.")
        else:
            seen["turn"] += 1
            child.sendline("")
    child.close()
    seen["status"] = child.exitstatus
    return seen


def record(home: Path, game_id: str) -> dict:
    return json.loads((home / "records" / f"{game_id}.json").read_text())


def test_a_bot_game_with_one_human_seat_is_played_to_the_end_at_the_terminal(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "avalon", "--preset", "bench5", "--seed", "4", "--agents", "naive,2=human",
                  "--game-id", "person")
    seen = play_out(child, illegal_first=True)
    assert seen["status"] == 0 and seen["refused"] == 1 and seen["words"] > 0 and seen["turn"] == 0
    rec = record(tmp_path, "person")
    assert rec["status"] == "finished"
    mine = [d for d in rec["decisions"] if d["player"] == 2]
    assert mine and all(d["agent"] == "human" for d in mine)
    assert any(u["speaker"] == 2 and u["text"] == "I trust players with clean records." for u in rec["utterances"])
    log = (tmp_path / "terminal.log").read_text()
    others = [f"Player {p} is {r}" for p, r in rec["roles"].items() if p != "2"]
    assert not any(line in log for line in others), "another player's role reached the person's screen"


def test_hot_seat_names_each_player_before_their_turn(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "avalon", "--preset", "bench5", "--seed", "6", "--agents", "naive,1=human,3=human",
                  "--game-id", "hotseat", term="xterm")
    seen = play_out(child)
    assert seen["status"] == 0 and seen["ask"] <= seen["turn"] <= seen["ask"] + seen["words"]  # one per question
    assert (tmp_path / "terminal.log").read_text().count("\x1b[2J") >= 2 * seen["turn"], "the screen is cleared"
    assert record(tmp_path, "hotseat")["status"] == "finished"


def test_kill_9_while_a_person_is_asked_then_resume_asks_the_same_question(tmp_path: Path) -> None:
    child = spawn(tmp_path, "play", "avalon", "--preset", "bench5", "--seed", "4", "--agents", "naive,2=human",
                  "--game-id", "killed")
    asked = 0
    while True:  # answer a few, then stop at the next question's first prompt
        assert child.expect([ASK]) == 0
        if child.match.group(2).startswith("ask"):
            asked += 1
            if asked == 3:
                break
            child.sendline(answer(child.match.group(3)))
        else:
            child.sendline("Hm.")
    question = child.match.group(2)
    os.kill(child.pid, signal.SIGKILL)
    child.close(force=True)
    resumed = spawn(tmp_path, "resume", "killed")
    assert resumed.expect([ASK]) == 0
    assert resumed.match.group(2) == question
    resumed.sendline(answer(resumed.match.group(3)) if question.startswith("ask") else "Hm.")
    assert play_out(resumed)["status"] == 0
    assert record(tmp_path, "killed")["status"] == "finished"
