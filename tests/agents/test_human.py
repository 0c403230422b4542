"""The ``human`` kind in a game graph: it pauses with the player's view and request, continues with
``Command(resume=...)``, asks again on an illegal answer without applying it, and several human seats
(asked in parallel, as votes are) all get their question."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from roundtable.agents.human import AnswerError, decision_from_answer, example_answer, is_question
from roundtable.games import GAMES
from roundtable.games.protocol import Request
from roundtable.graphs.game import build_game_graph

CONFIG = {"configurable": {"thread_id": "g"}, "recursion_limit": 10_000}


def new_game(seats: list[str], seed: int = 3) -> Any:
    graph = build_game_graph(GAMES["avalon"]).compile(checkpointer=InMemorySaver())
    graph.invoke({"config": {"preset": "bench5"}, "seed": seed, "seats": [{"kind": k} for k in seats]}, CONFIG)
    return graph


def pending(graph: Any) -> list[Any]:
    return list(graph.get_state(CONFIG).interrupts)


def play_out(graph: Any, answer=lambda payload: example_answer(Request.model_validate(payload["request"]))) -> int:
    """Answer every question until the game ends; returns how many were asked."""
    asked = 0
    while interrupts := pending(graph):
        asked += len(interrupts)
        graph.invoke(Command(resume={i.id: answer(i.value) for i in interrupts}), CONFIG)
    return asked


def test_the_question_shows_the_players_view_and_the_request():
    graph = new_game(["naive", "human", "naive", "naive", "naive"])
    (question,) = [i.value for i in pending(graph)]
    assert is_question(question) and question["player"] == 2
    assert question["role"] and question["side"] in ("good", "evil")
    assert question["narration"] and question["error"] is None
    request = Request.model_validate(question["request"])
    assert request.player == 2 and question["keys"]
    roles = graph.get_state(CONFIG).values["game"]["roles"]
    for player, role in enumerate(roles, start=1):  # no other player's role is named
        if player != 2:
            assert f"Player {player} is {role}" not in " ".join(question["narration"])


def test_a_game_with_a_human_seat_plays_to_the_end():
    graph = new_game(["human", "naive", "naive", "naive", "naive"])
    assert play_out(graph) > 0
    values = graph.get_state(CONFIG).values
    assert values["result"]["winner"] in ("good", "evil")
    decisions = [e for e in values["events"] if e["type"] == "decision" and e["player"] == 1]
    assert decisions and all(e["agent"] == "human" for e in decisions)


def test_an_illegal_answer_is_asked_again_with_the_reason_and_not_applied():
    graph = new_game(["naive", "human", "naive", "naive", "naive"], seed=5)
    while True:  # play until the human is asked a pick
        (interrupt,) = pending(graph)
        request = Request.model_validate(interrupt.value["request"])
        if request.answer == "pick":
            break
        graph.invoke(Command(resume=example_answer(request)), CONFIG)
    events_before = len(graph.get_state(CONFIG).values["events"])
    words = {"utterance": "x"} if request.wants_words else {}
    graph.invoke(Command(resume={"players": [99] * (request.count or 1), **words}), CONFIG)
    (again,) = pending(graph)
    assert again.value["request"]["id"] == request.id
    assert again.value["error"]
    assert len(graph.get_state(CONFIG).values["events"]) == events_before
    graph.invoke(Command(resume=example_answer(request)), CONFIG)
    assert not any(i.value["request"]["id"] == request.id for i in pending(graph))


def test_several_human_seats_are_all_asked():
    graph = new_game(["human", "human", "naive", "human", "naive"])
    players: set[int] = set()
    while interrupts := pending(graph):
        players |= {i.value["player"] for i in interrupts}
        graph.invoke(Command(resume={i.id: example_answer(Request.model_validate(i.value["request"]))
                                     for i in interrupts}), CONFIG)
    assert players == {1, 2, 4}
    assert graph.get_state(CONFIG).values["result"]["winner"] in ("good", "evil")


VOTE = Request(id="r1.a1.vote_team.p2", kind="vote_team", player=2, phase="vote_team", round=1, answer="yes_no",
               options=("approve", "reject"))
PROPOSE = Request(id="r1.a1.propose_team.p2", kind="propose_team", player=2, phase="proposal", round=1,
                  answer="pick", count=2, candidates=(1, 2, 3, 4, 5), wants_words=True)


@pytest.mark.parametrize(("request_", "answer", "problem"), [
    (VOTE, "approve", "JSON object"),
    (VOTE, {"choice": "maybe"}, "'approve' or 'reject'"),
    (VOTE, {"choice": "approve", "players": [1]}, "unknown key"),
    (VOTE, {}, "missing"),
    (PROPOSE, {"players": [1, 1], "utterance": "hi"}, "twice"),
    (PROPOSE, {"players": [1, 2, 3], "utterance": "hi"}, "name 2 players"),
    (PROPOSE, {"players": [1, 2]}, "missing"),
    (PROPOSE, {"players": [1, 2], "utterance": "  "}, "non-empty"),
    (PROPOSE, {"players": None, "utterance": "hi"}, "must name"),
    (PROPOSE, {"players": ["1", 2], "utterance": "hi"}, "player numbers"),
])
def test_bad_answers_are_refused_with_the_reason(request_, answer, problem):
    with pytest.raises(AnswerError, match=problem):
        decision_from_answer(request_, answer)


def test_good_answers_make_decisions():
    assert decision_from_answer(VOTE, {"choice": "reject"}).choice is False
    assert decision_from_answer(VOTE, {"choice": True}).choice is True
    decision = decision_from_answer(PROPOSE, {"players": [3, 1], "utterance": " Trust  me. "})
    assert decision.players == (3, 1) and decision.utterance == "Trust me."
