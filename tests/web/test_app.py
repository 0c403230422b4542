"""The browser's table served in-process (Starlette's TestClient): games created from the form's JSON, played by
people at human seats against bots through the answer route, refused answers and tokens, nothing secret served to a
seat or spectator that may not see it, and a restarted server resuming its games."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from roundtable.games import GAMES
from roundtable.games.protocol import can_see
from roundtable.prompts.narrator import narrate
from roundtable.testing.games import play
from roundtable.web.app import TOKEN_HEADER, create_app
from roundtable.web.host import GameHost, Tables
from roundtable.web.links import create_links, read_links, served_games

PEOPLE = [{"kind": "human"}, {"kind": "naive"}, {"kind": "human"}, {"kind": "naive"}, {"kind": "naive"}]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def tokens(body: dict[str, Any]) -> tuple[dict[int, str], str]:
    """The seat tokens and the spectator token of a created game's links."""
    return ({int(p): link.split("#t=")[1] for p, link in body["seats"].items()},
            body["spectator"].split("#t=")[1])


def state(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/state", headers={TOKEN_HEADER: token})
    assert response.status_code == 200, response.text
    return response.json()


def people_game(client: TestClient, seed: int = 3) -> tuple[str, dict[int, str], str]:
    """A new bench5 game with people at seats 1 and 3 and bots elsewhere: its id, seat tokens, spectator token."""
    created = client.post("/api/games", json={"game": "avalon", "preset": "bench5", "seed": seed, "seats": PEOPLE})
    assert created.status_code == 200, created.text
    body = created.json()
    return (body["game_id"], *tokens(body))


def first_question(client: TestClient, game_id: str, token: str, limit: float = 30) -> dict[str, Any]:
    """The first question the seat of ``token`` is asked, waited for up to ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while (question := state(client, game_id, token)["question"]) is None:
        assert time.monotonic() < deadline, f"no question within {limit} s"
        time.sleep(0.05)
    return question


def legal(question: dict[str, Any], player: int) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    if question["answer"] == "pick":
        answer["players"] = question["candidates"][: question["count"]]
    if question["answer"] == "yes_no":
        answer["choice"] = question["words"][0]
    if question["wants_words"]:
        answer["utterance"] = f"Player {player} speaks."
    return answer


def answer(client: TestClient, game_id: str, token: str, request_id: str, payload: Any) -> Any:
    return client.post(f"/api/games/{game_id}/answer", headers={TOKEN_HEADER: token},
                       json={"request_id": request_id, "answer": payload})


def play_out(client: TestClient, game_id: str, seats: dict[int, str], *, until: int | None = None,
             limit: float = 120) -> list[str]:
    """Answer every question of the human seats with a legal answer until the game is over (or ``until``
    answers were given); the kinds of the questions answered."""
    asked: list[str] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        over = False
        for player, token in seats.items():
            shown = state(client, game_id, token)
            over = shown["over"]
            question = shown["question"]
            if question:
                done = answer(client, game_id, token, question["request_id"], legal(question, player))
                assert done.status_code == 200, done.text
                asked.append(question["kind"])
                if until is not None and len(asked) >= until:
                    return asked
        if over:
            return asked
        time.sleep(0.05)
    raise AssertionError(f"the game did not end in {limit} s; asked {asked}")


def test_two_people_and_three_bots_finish_a_game_and_its_replay_opens(home):
    with TestClient(create_app()) as client:
        game_id, seats, spectator = people_game(client)
        assert sorted(seats) == [1, 3]
        early = client.get(f"/api/games/{game_id}/replay", headers={TOKEN_HEADER: spectator})
        assert early.status_code == 409
        asked = play_out(client, game_id, seats)
        assert {"speak", "vote_team", "quest_card"} <= set(asked)
        watched = state(client, game_id, spectator)
        assert watched["over"] and watched["winner"] in ("good", "evil")
        assert watched["board"]["tracks"]["Quests"], "the spectator's table shows the quests"
        assert any("Player 1" in line["text"] for line in watched["record"])
        replay = client.get(f"/api/games/{game_id}/replay", headers={TOKEN_HEADER: seats[1]})
        assert replay.status_code == 200
        frames = replay.json()["frames"]
        assert frames and frames[-1]["board"]["counters"]
        assert any(d["agent"] == "naive" for f in frames for d in f["decisions"])
        page = client.get(f"/replay/{game_id}")
        assert page.status_code == 200 and "replayStart(null)" in page.text


def test_a_seat_is_shown_its_card_and_only_legal_answers(home):
    with TestClient(create_app()) as client:
        game_id, seats, _ = people_game(client)
        first_question(client, game_id, seats[1])
        shown = state(client, game_id, seats[1])
        assert shown["card"]["player"] == 1 and shown["card"]["role"] and shown["card"]["side"] in ("good", "evil")
        question = shown["question"]
        assert question["request_id"] and question["max_chars"] > 0
        if question["answer"] == "pick":
            assert 1 <= question["count"] <= len(question["candidates"])
        if question["answer"] == "yes_no":
            assert set(question["words"]) <= {"approve", "reject", "success", "fail"}


def test_illegal_late_and_foreign_answers_are_refused_with_a_reason(home):
    with TestClient(create_app()) as client:
        game_id, seats, spectator = people_game(client)
        question = first_question(client, game_id, seats[1])
        request_id = question["request_id"]
        wrong: dict[str, Any] = {"players": [1, 2, 3, 4, 5, 6]} if question["answer"] == "pick" else {"choice": "maybe"}
        refused = answer(client, game_id, seats[1], request_id, wrong)
        assert refused.status_code == 400 and refused.json()["error"]
        assert answer(client, game_id, spectator, request_id, legal(question, 1)).status_code == 403
        assert answer(client, game_id, seats[3], request_id, legal(question, 3)).status_code == 409
        assert answer(client, game_id, seats[1], request_id, legal(question, 1)).status_code == 200
        late = answer(client, game_id, seats[1], request_id, legal(question, 1))
        assert late.status_code == 409 and "no longer asked" in late.json()["error"]


def test_tokens_open_only_their_own_game(home):
    with TestClient(create_app()) as client:
        one = client.post("/api/games", json={"game": "avalon", "preset": "bench5", "seed": 1, "seats": PEOPLE}).json()
        two = client.post("/api/games", json={"game": "werewolf", "seed": 2,
                                              "seats": [{"kind": "human"}] + [{"kind": "naive"}] * 6}).json()
        seats_one, spectator_one = tokens(one)
        seats_two, _ = tokens(two)
        for token in ("", "x", seats_one[1][:-1], spectator_one + "a", "A" * 43, seats_two[1]):
            response = client.get(f"/api/games/{one['game_id']}/state", headers={TOKEN_HEADER: token})
            assert response.status_code == 403, token
        assert client.get("/api/games/no-such-game/state", headers={TOKEN_HEADER: seats_one[1]}).status_code == 404
        with client.websocket_connect(f"/ws/{one['game_id']}") as socket:
            socket.send_text(json.dumps({"token": seats_two[1]}))
            with pytest.raises(Exception) as closed:
                socket.receive_json()
            assert getattr(closed.value, "code", None) == 4403
        with client.websocket_connect(f"/ws/{two['game_id']}") as socket:
            socket.send_text(json.dumps({"token": seats_two[1]}))
            assert socket.receive_json()["viewer"] == 1


def test_an_invalid_game_is_refused_before_anything_is_made(home):
    with TestClient(create_app()) as client:
        for body, words in (({"game": "chess", "seats": PEOPLE}, "unknown game"),
                            ({"game": "avalon", "preset": "bench5", "seats": [{"kind": "wizard"}] * 5}, "wizard"),
                            ({"game": "avalon", "preset": "nope", "seats": PEOPLE}, "nope"),
                            ({"game": "avalon", "preset": "bench5", "rules": "fifth_rejection", "seats": PEOPLE},
                             "KEY=VALUE"),
                            ({"game": "avalon", "seats": "all"}, "seats"),
                            ({"game": "avalon", "preset": "bench5", "options": "thought_words", "seats": PEOPLE},
                             "[TARGET:]KEY=VALUE"),
                            ({"game": "avalon", "preset": "bench5", "seed": "soon", "seats": PEOPLE}, "seed")):
            refused = client.post("/api/games", json=body)
            assert refused.status_code == 400 and words in refused.json()["error"], refused.text
        assert served_games() == []
        assert client.post("/api/check", json={"game": "werewolf"}).json() == {"players": 7}


def test_a_restarted_server_resumes_its_games_where_they_stood(home):
    with TestClient(create_app()) as client:
        game_id, seats, spectator = people_game(client)
        play_out(client, game_id, seats, until=3)
        before = state(client, game_id, spectator)
    with TestClient(create_app()) as client:  # a new server on the same data directory
        after = state(client, game_id, spectator)
        assert len(after["record"]) >= len(before["record"])
        assert after["record"][: len(before["record"])] == before["record"]
        play_out(client, game_id, seats)
        assert state(client, game_id, spectator)["over"]


# ------------------------------------------------------------------ nothing leaks


def planted_log(game: str, config: dict[str, Any], seed: int, stop_after: int) -> list[dict[str, Any]]:
    """A real log cut mid-game, with a unique secret planted in every private and analysis-only entry: its words
    (an utterance's text), and an agent's thoughts and raw reply on every analysis-only decision."""
    rules = GAMES[game]
    state_, _ = play(rules, config, seed, stop_after=stop_after)
    events = [dict(e) for e in rules.events(state_)]
    assert rules.result(state_) is None, "the log is cut before the game ends (then every role is shown)"
    for index, event in enumerate(events):
        if event.get("to") is None:
            continue
        if event.get("type") == "utterance":
            event["text"] = f"SECRET-WORDS-{index}-END"
        if event.get("to") == []:
            event.update(thoughts=[f"SECRET-THOUGHT-{index}-END"], raw=f"SECRET-RAW-{index}-END")
    return events


def served_bytes(client: TestClient, game_id: str, token: str) -> str:
    """Everything the server sends one link: its pages, the state over HTTP, the socket's first message, the
    replay route's answer."""
    parts = [client.get(f"/table/{game_id}").text, client.get(f"/replay/{game_id}").text,
             client.get(f"/api/games/{game_id}/state", headers={TOKEN_HEADER: token}).text,
             client.get(f"/api/games/{game_id}/replay", headers={TOKEN_HEADER: token}).text]
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_text(json.dumps({"token": token}))
        parts.append(json.dumps(socket.receive_json()))
    return "\n".join(parts)


@pytest.mark.parametrize(("game", "config", "stop_after"), [
    ("avalon", {"preset": "bench5", "rules": {"discussion": "leader_first_and_last"}}, 25),
    ("avalon", {"preset": "standard", "players": 7, "rules": {"vote_visibility": "tally_only"}}, 30),
    ("werewolf", {"preset": "xu7", "rules": {}}, 9),
])
def test_no_link_is_served_what_its_holder_may_not_see(home, game, config, stop_after):
    rules = GAMES[game]
    events = planted_log(game, config, 11, stop_after)
    players = len(rules.seats(rules.new_game(rules.config(config), 11)))
    game_id = f"{game}-planted"
    links = create_links(game_id, range(1, players + 1))
    host = GameHost(game_id, game, players)
    host.load(events, "playing")
    tables = Tables()
    tables.add(host)
    variants = next(e.get("rules") or {} for e in events if e["type"] == "game_start")
    with TestClient(create_app(tables)) as client:
        assert read_links(game_id) is not None
        viewers = [*((p, t) for p, t in links.seats.items()), (None, links.spectator)]
        for viewer, token in viewers:
            served = served_bytes(client, game_id, token)
            seen = [e for e in events if (can_see(e, viewer) if viewer is not None else e.get("to") is None)]
            seen_lines = {narrate(game, e, None, variants) for e in seen}
            for index, event in enumerate(events):
                visible = can_see(event, viewer) if viewer is not None else event.get("to") is None
                if visible:
                    continue
                for secret in (f"SECRET-WORDS-{index}-END", f"SECRET-THOUGHT-{index}-END", f"SECRET-RAW-{index}-END"):
                    assert secret not in served, f"{secret} served to {viewer}"
                line = narrate(game, event, None, variants)
                if line and line not in seen_lines:
                    assert line not in served, f"{event['type']} of {event.get('to')} told to {viewer}: {line}"
            if viewer is not None:
                others = {int(e["player"]): e for e in events if e["type"] == "role" and e["player"] != viewer}
                card = state(client, game_id, token)["card"]
                assert card["player"] == viewer
                assert all(f'"player": {p}, "role"' not in served for p in others)


def test_an_answered_question_leaves_the_page_while_another_seat_is_still_asked(home):
    with TestClient(create_app()) as client:
        game_id, seats, _ = people_game(client)
        deadline = time.monotonic() + 60
        while True:  # answer the people's turns until both are asked for their votes at once
            assert time.monotonic() < deadline, "the two people were never asked at once"
            asked = {p: state(client, game_id, t)["question"] for p, t in seats.items()}
            if all(q and q["kind"] == "vote_team" for q in asked.values()):
                break
            for player, question in asked.items():
                if question and question["kind"] != "vote_team":
                    answer(client, game_id, seats[player], question["request_id"], legal(question, player))
            time.sleep(0.05)
        first = asked[1]["request_id"]
        assert answer(client, game_id, seats[1], first, legal(asked[1], 1)).status_code == 200
        time.sleep(0.3)
        assert state(client, game_id, seats[1])["question"] is None, "the vote given is not asked again"
        assert state(client, game_id, seats[3])["question"]["request_id"] == asked[3]["request_id"]
        assert answer(client, game_id, seats[1], first, legal(asked[1], 1)).status_code == 409
