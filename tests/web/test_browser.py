"""The browser's table in a real browser (Playwright on the system Chromium, marked ``browser``): a game created
from the form, two people at two seats and a spectator in three browsers against bots, through a whole game:
team picks, votes, quest cards and words, a page reloaded and the server killed and started again mid-game; then
the replay stepped through, in the browser and as the file ``roundtable replay`` writes. The screenshots of
docs/browser.md are taken here."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "img"
"""Where the screenshots of docs/browser.md go."""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium: .ci/run installs Debian's chromium"),
]

NETWORK_NOISE = ("WebSocket", "ERR_CONNECTION_REFUSED", "Failed to load resource")
"""Console errors the browser itself logs while the server is down (the page reconnects)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``roundtable serve`` in a process of its own on a free loopback port, killed and started again at will."""

    def __init__(self, home: Path) -> None:
        self.home, self.port = home, free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = (self.home.parent / "serve.log").open("ab")
        command = [sys.executable, "-m", "roundtable.cli.main", "serve", "--port", str(self.port)]
        home = {"ROUNDTABLE_HOME": str(self.home)}
        self.process = subprocess.Popen(command, env=os.environ | home, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert self.process.poll() is None, (self.home.parent / "serve.log").read_text()
                time.sleep(0.2)
        raise AssertionError("roundtable serve did not listen within 60 s")

    def kill(self) -> None:
        """Kill the server outright (SIGKILL: no shutdown of its games; their checkpoints are all there is)."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)


@pytest.fixture
def server(tmp_path) -> Iterator[Server]:
    served = Server(tmp_path / "home")
    served.start()
    yield served
    if served.process is not None and served.process.poll() is None:
        served.process.terminate()
        served.process.wait(30)


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
        yield chromium
        chromium.close()


def watched(page: Any, errors: list[str], frames: list[dict[str, Any]] | None = None) -> Any:
    """``page`` with its script errors, and console errors other than `NETWORK_NOISE`, collected in ``errors``;
    with ``frames``, every page state its sockets receive (the JSON of `roundtable.web.views.page_state`)."""
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on("console", lambda message: errors.append(f"{page.url}: {message.text}")
            if message.type == "error" and not any(n in message.text for n in NETWORK_NOISE) else None)
    if frames is not None:
        page.on("websocket", lambda socket: socket.on(
            "framereceived", lambda payload: frames.append(json.loads(payload)) if payload.startswith("{") else None))
    return page


def check_served(frames: dict[int | None, list[dict[str, Any]]]) -> None:
    """What each page's socket was sent kept to its holder (docs/browser.md#links-and-tokens): a seat's states are its
    own, with its card only; a spectator's, until the game is over, hold no card and no private line."""
    for viewer, states in frames.items():
        assert states, f"no state reached {viewer}'s page"
        for state in states:
            assert state["viewer"] == viewer
            if viewer is None and not state["over"]:
                assert state["card"] is None and state["question"] is None
                assert not [line for line in state["record"] if line["private"]], "a private line to a spectator"
            if viewer is not None and state["card"] is not None:
                assert state["card"]["player"] == viewer


def create_game(page: Any, url: str, game: str, preset: str, people: set[int], *, agents: dict[int, str] | None = None,
                rules: str = "", options: str = "") -> tuple[dict[int, str], str]:
    """Fill the creation form: the game, preset and rule variants, a person at each seat of ``people``, the kinds
    of ``agents`` (``{seat: kind}``, on the default model) and bots elsewhere; the seat links and the spectator
    link it gives."""
    page.goto(url + "/")
    page.select_option("#game", game)
    page.fill("#preset", preset)
    page.fill("#rules", rules)
    page.fill("#options", options)
    page.fill("#seed", "3")
    page.click("#deal")
    page.wait_for_selector(".seat-row")
    for player, kind in {**(agents or {}), **{p: "human" for p in people}}.items():
        page.select_option(f'.seat-row[data-player="{player}"] select', kind)
    page.click("#create")
    page.wait_for_selector(".spectator-link")
    seats = {int(a.get_attribute("data-player")): a.get_attribute("href")
             for a in page.query_selector_all(".seat-link")}
    return seats, page.get_attribute(".spectator-link", "href")


def answer_in_page(page: Any, player: int) -> str | None:
    """Answer the seat's question through its form, as a person would: the first players that may be named, the
    first word offered, a sentence of words; the question's kind, or ``None`` when nothing is asked."""
    question = page.query_selector("#question:not([hidden]) form")
    if question is None:
        return None
    request = question.get_attribute("data-request")
    kind = page.inner_text("#question h2")
    words = page.query_selector("#question textarea")
    if words is not None:
        words.fill(f"I am Player {player}; I have watched every vote closely.")
    boxes = page.query_selector_all("#question input[type=checkbox]")
    if boxes:
        count = int(page.inner_text("#question button.primary").split()[-1])
        for box in boxes[:count]:
            box.check()
        page.click("#question button.primary")
    else:
        page.click("#question button.primary")
    try:
        page.wait_for_function(
            "r => { const f = document.querySelector('#question form'); return !f || f.dataset.request !== r "
            "|| document.querySelector('#question .error').textContent }", arg=request, timeout=20_000)
    except Exception as error:
        raise AssertionError(f"Player {player}'s answer to {request} ({kind}) changed nothing in 20 s: "
                             f"{page.inner_text('#question')!r}, status {page.inner_text('#status')!r}") from error
    error = page.inner_text("#question .error") if page.query_selector("#question .error") else ""
    assert not error, f"Player {player}'s answer to {kind} was refused: {error}"
    return kind


GAMES = [("avalon", "bench5", 5, ("speak", "vote team", "quest card")),
         ("werewolf", "xu7", 7, ("speak",))]
"""``(game, preset, players, kinds a person is asked)`` of the games played in the browser."""


@pytest.mark.parametrize(("game", "preset", "players", "kinds"), GAMES, ids=[g[0] for g in GAMES])
def test_two_people_and_a_spectator_play_a_whole_game_through_a_restart(server, browser, game, preset, players,
                                                                          kinds):
    play_in_browser(server, browser, game, preset, players, kinds, screenshots=True)


MODEL_GAMES = [("avalon", "lan6", 6, ("vote team", "quest card"), "discussion=none"),
               ("werewolf", "xu7", 7, ("speak",), "max_days=1")]
"""The games with four agents on the embedded model (``cot``, Shi et al.'s baseline: one call a decision), two
people and a rule bot where seats are left: Avalon without table talk, Werewolf over one night and day (a draw
if no side has won by then); the server is killed after the people's fourth answer (they give six in Werewolf's
day)."""


@pytest.mark.model
@pytest.mark.long
@pytest.mark.parametrize(("game", "preset", "players", "kinds", "rules"), MODEL_GAMES, ids=[g[0] for g in MODEL_GAMES])
def test_two_people_and_four_agents_on_the_embedded_model_finish_a_game(server, browser, game, preset, players,
                                                                          kinds, rules):
    agents = {seat: "cot" for seat in (2, 4, 5, 6)}
    options = ", ".join(f"{seat}:thought_words=30" for seat in agents)  # as the e2e model games' short limits
    play_in_browser(server, browser, game, preset, players, kinds, agents=agents, rules=rules, options=options,
                    limit=1500, restart_after=4)


def play_in_browser(server: Server, browser: Any, game: str, preset: str, players: int, kinds: tuple[str, ...], *,
                    agents: dict[int, str] | None = None, rules: str = "", options: str = "", limit: float = 240,
                    restart_after: int = 6, screenshots: bool = False) -> None:
    """Two people at seats 1 and 3 and a spectator play a whole game created through the form (``agents`` at
    their seats, bots elsewhere) within ``limit`` seconds: seat 1's page reloaded after three answers, the server
    killed and started again after ``restart_after``; every kind of ``kinds`` asked of a person; then the replay
    stepped through in the browser and as the written file, with no script error in any page."""
    errors: list[str] = []
    creator = watched(browser.new_context().new_page(), errors)
    links, spectator_link = create_game(creator, server.url, game, preset, {1, 3}, agents=agents, rules=rules,
                                        options=options)
    assert sorted(links) == [1, 3]
    frames: dict[int | None, list[dict[str, Any]]] = {p: [] for p in (*links, None)}
    seats = {p: watched(browser.new_context().new_page(), errors, frames[p]) for p in links}
    for player, page in seats.items():
        page.goto(links[player])
        page.wait_for_selector(f".seat.me[data-player='{player}']")
        assert page.inner_text("#who") == f"You are Player {player}"
        assert page.inner_text("#card .role")
    spectator = watched(browser.new_context().new_page(), errors, frames[None])
    spectator.goto(spectator_link)
    spectator.wait_for_selector(f".seat[data-player='{players}']")
    assert "Watching" in spectator.inner_text("#who") and spectator.query_selector("#card:not([hidden])") is None

    asked: list[str] = []
    reloaded = restarted = False
    deadline = time.monotonic() + limit
    while "Game over" not in spectator.inner_text("#status"):
        assert time.monotonic() < deadline, f"the game did not end; asked {asked}"
        for player, page in seats.items():
            kind = answer_in_page(page, player)
            if kind:
                asked.append(kind)
        if len(asked) >= 3 and not reloaded:
            seats[1].reload()
            seats[1].wait_for_selector(".seat.me[data-player='1']")
            reloaded = True
        if len(asked) >= restart_after and not restarted:
            if screenshots:
                SHOTS.mkdir(parents=True, exist_ok=True)
                seats[1].screenshot(path=str(SHOTS / f"browser-{game}-seat.png"), full_page=True)
                spectator.screenshot(path=str(SHOTS / f"browser-{game}-spectator.png"), full_page=True)
            before = spectator.inner_text("#record")
            server.kill()
            server.start()
            spectator.wait_for_function("t => document.querySelector('#record').innerText.startsWith(t)",
                                        arg=before[:200], timeout=30_000)
            restarted = True
        time.sleep(0.2)
    assert restarted and reloaded
    check_served(frames)
    said = " ".join(asked)
    for asked_kind in kinds:
        assert asked_kind in said, f"no {asked_kind} was asked of a person: {asked}"
    assert re.search(r"side wins|A draw", spectator.inner_text("#table"))
    assert len(spectator.query_selector_all(".seat")) == players

    replay = seats[3]
    replay.wait_for_selector("#replay:not([hidden])", timeout=300_000)  # once the belief probe is answered
    replay.click("#replay")
    replay.wait_for_selector("#decisions .decision, #decisions p")
    last = replay.inner_text("#step")
    replay.click("#first")
    first = replay.inner_text("#step")
    assert first.startswith("step 1 of") and first != last
    for _ in range(12):
        replay.click("#next")
    assert replay.inner_text("#step") != first
    replay.click("#last")
    if screenshots:
        replay.screenshot(path=str(SHOTS / f"browser-{game}-replay.png"), full_page=True)
    assert "Player" in replay.inner_text("#seats")

    game_id = links[1].split("/table/")[1].split("#")[0]
    written = subprocess.run([sys.executable, "-m", "roundtable.cli.main", "replay", game_id], capture_output=True,
                             text=True, env=os.environ | {"ROUNDTABLE_HOME": str(server.home)}, timeout=120)
    assert written.returncode == 0, written.stderr
    static = watched(browser.new_context().new_page(), errors)
    static.goto(Path(written.stdout.strip()).resolve().as_uri())
    static.wait_for_selector("#decisions")
    assert static.inner_text("#step") == last
    static.click("#first")
    static.click("#next")
    assert static.inner_text("#step").startswith("step 2 of")
    assert errors == []
