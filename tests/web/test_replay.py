"""The replay (``roundtable replay``, and the browser's after a game): one self-contained page of the table stepped
through, with the decisions' thoughts, replies, fallbacks, cost and prompts, the belief probe against the truth."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from roundtable.web.replay import beliefs_against_truth, replay_data, replay_html

CLI = [sys.executable, "-m", "roundtable.cli.main"]


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env=os.environ | {"ROUNDTABLE_HOME": str(home)})


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Replay pages of a finished bot game, of one stopped after a few decision points, and of a Werewolf game."""
    home = tmp_path_factory.mktemp("replays")
    played = run(home, "play", "avalon", "--preset", "bench5", "--seed", "3", "--game-id", "done", "--quiet")
    assert played.returncode == 0, played.stderr
    assert run(home, "fork", "done", "--at", "9", "--game-id", "part", "--until-decision", "--quiet").returncode == 0
    assert run(home, "play", "werewolf", "--seed", "3", "--game-id", "wolf", "--quiet").returncode == 0
    out = {}
    for game_id in ("done", "part", "wolf"):
        done = run(home, "replay", game_id)
        assert done.returncode == 0, done.stderr
        out[game_id] = Path(done.stdout.strip())
    return out


def test_the_page_is_self_contained(pages):
    for path in pages.values():
        html = path.read_text()
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html), "no external resource"
        assert not re.search(r"""<(script|link)[^>]+(src|href)=""", html), "script and style inline"
        assert "/*REPLAY_DATA*/" not in html and "<script>replayStart({" in html, "the data inline"


def test_the_page_carries_model_decisions_and_escapes_script_ends():
    record = {"game_id": "g", "game": "avalon", "status": "interrupted", "seats": [{"kind": "lga"}],
              "events": [{"type": "leader", "to": None, "round": 1, "attempt": 1, "leader": 1},
                         {"type": "decision", "to": [], "player": 1, "request": "r1", "kind": "vote_team",
                          "agent": "lga", "approve": True, "raw": "</script><b>yes</b>", "thoughts": ["I think"],
                          "usage": {"calls": 1, "prompt_tokens": 9, "log": [{"module": "act", "seed": 7, "prompt": [
                              {"role": "human", "content": "Vote?"}], "reply": "</script>yes"}]}}]}
    html = replay_html(record)
    assert html.count("</script>") == 2  # the two script elements' own ends only
    decision = replay_data(record)["frames"][0]["decisions"][0]
    assert decision["thoughts"] == ["I think"] and decision["calls"] == 1 and decision["prompt_tokens"] == 9
    assert decision["prompts"][0]["reply"] == "</script>yes"


def test_a_werewolf_replay_narrates_every_public_event(pages):
    html = pages["wolf"].read_text()
    for line in ("Night 1 falls", "Day 1 dawns", "Speaking order today", "Game over: the"):
        assert line in html
    data = replay_data({"game": "werewolf", "seats": [{}] * 5,
                        "events": [{"type": "deaths", "to": None, "day": 2, "players": [3, 5]}]})
    assert data["frames"][0]["text"] == "Day 2 dawns. Died in the night: players 3 and 5."
    assert data["frames"][0]["board"]["seats"]["3"][0]["kind"] == "dead"


def test_the_belief_probe_is_shown_against_the_roles_dealt():
    record = {"beliefs": {"2": {"1": 0.9, "3": 0.2}},
              "events": [{"type": "role", "to": [1], "player": 1, "role": "servant", "side": "good"},
                         {"type": "role", "to": [3], "player": 3, "role": "minion", "side": "evil"}]}
    assert beliefs_against_truth(record) == [{"player": 2, "about": 1, "p_good": 0.9, "side": "good"},
                                             {"player": 2, "about": 3, "p_good": 0.2, "side": "evil"}]


def test_a_judged_record_shows_the_judges_labels_at_the_words_they_label(tmp_path, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "judge"))
    from judge_records import avalon_record, replies, store

    from roundtable.judge.graph import judge_game
    from roundtable.testing.scripted import Script, ScriptedModels

    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    record = store(tmp_path, avalon_record())
    judge_game("a1", "local", home=tmp_path, models=ScriptedModels(Script(replies=replies())))
    data = replay_data(record)
    labelled = [(f["index"], label) for f in data["frames"] for label in f["labels"]]
    assert {label["behaviour"] for _, label in labelled} >= {"deception", "stance"}
    for index, label in labelled:
        assert record["events"][index]["type"] == "utterance", "a label stands at the words it labels"
        assert label["model"] == "local" and label["answer"]
    assert data["judge"] and data["judge"][0].startswith("Judge (local)")
    assert {label["behaviour"] for label in data["judged_players"]} == {"sharing"}
