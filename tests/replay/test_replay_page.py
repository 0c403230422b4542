"""The replay page (``roundtable replay``): self-contained HTML for finished and unfinished games, with
model decisions' prompts and replies; loaded in headless Chromium (marked ``browser``; skipped where
``/usr/bin/chromium`` is absent), it shows no console error and stepping forward changes what is shown."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from roundtable.store.replay import page_data, replay_html

CLI = [sys.executable, "-m", "roundtable.cli.main"]


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL,
                          env=os.environ | {"ROUNDTABLE_HOME": str(home)})


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """Replay pages of a finished bot game, of one stopped after a few decision points, and of a Werewolf game."""
    home = tmp_path_factory.mktemp("replays")
    played = run(home, "play", "avalon", "--preset", "bench5", "--seed", "3", "--game-id", "done", "--quiet")
    assert played.returncode == 0
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
        assert "/*GAME_DATA*/null" not in html


def test_the_page_carries_model_decisions_and_escapes_script_ends():
    record = {"game_id": "g", "game": "avalon", "status": "interrupted", "seats": [{"kind": "lga"}],
              "events": [{"type": "decision", "to": [], "player": 1, "request": "r1", "kind": "vote_team",
                          "agent": "lga", "approve": True, "raw": "</script><b>yes</b>",
                          "usage": {"calls": 1, "log": [{"module": "act", "seed": 7, "prompt": [
                              {"role": "human", "content": "Vote?"}], "reply": "</script>yes"}]}}]}
    html = replay_html(record)
    assert html.count("</script>") == 2  # the two script elements' own ends only
    assert page_data(record)["events"][0]["usage"]["log"][0]["seed"] == 7


browser = pytest.mark.browser


@browser
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(),
                    reason="no /usr/bin/chromium: the README's test command installs Debian's chromium where it runs "
                           "as root")
def test_the_page_steps_through_a_game_in_a_browser_without_errors(pages, tmp_path):
    from cdp import Browser

    chromium = Browser(tmp_path / "profile")
    try:
        for game_id, path in pages.items():
            chromium.open(path.resolve().as_uri())
            shown = "document.getElementById('log').textContent + document.getElementById('seats').textContent"
            first = chromium.evaluate(shown)
            assert "role hidden" in chromium.evaluate("document.getElementById('seats').textContent")
            for _ in range(5):
                chromium.evaluate("document.getElementById('next').click()")
            later = chromium.evaluate(shown)
            assert later != first, f"{game_id}: stepping forward changed nothing"
            chromium.evaluate("document.getElementById('last').click()")
            steps = chromium.evaluate("document.getElementById('step').textContent")
            assert re.fullmatch(r"step (\d+) of \1", steps)
            over = "Game over" in chromium.evaluate("document.getElementById('result').textContent")
            assert over == (game_id != "part")
            chromium.evaluate("document.getElementById('roles').click()")
            assert "role hidden" not in chromium.evaluate("document.getElementById('seats').textContent")
            chromium.evaluate("document.getElementById('first').click()")
            for _ in range(40):  # with roles shown, the steps include the decisions, each with its detail
                if "answers" in chromium.evaluate("document.getElementById('detail').textContent"):
                    break
                chromium.evaluate("document.getElementById('next').click()")
            assert "Fallback: none" in chromium.evaluate("document.getElementById('detail').textContent")
        assert chromium.errors == []
    finally:
        chromium.close()


def test_a_werewolf_page_narrates_every_public_event(pages):
    html = pages["wolf"].read_text()
    for line in ("Night 1 falls", "Day 1 dawns", "Speaking order today", "Game over: the"):
        assert line in html
    data = page_data({"game": "werewolf", "events": [{"type": "deaths", "to": None, "day": 2, "players": [3, 5]}]})
    assert data["events"][0]["text"] == "Day 2 dawns. Died in the night: players 3 and 5."
