"""Reproducible reruns and forks on a scripted model: a fake OpenAI-compatible endpoint whose reply is
determined by the request's ``seed`` and prompt. Rerunning a game from a checkpoint with the same prompts
reproduces every reply; a rerun with one edited prompt changes only the calls that use it and those after
it; ``seeded_calls=false`` sends no seed. Fork and compare work on the scripted-model game."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from fake_chat import ChatServer

from roundtable.agents.lga.context import LgaContext
from roundtable.play.compare import compare_games, divergence
from roundtable.play.forks import fork_game
from roundtable.play.runner import open_runner
from roundtable.store.records import read_record


def seed_echo(body: dict[str, Any]) -> str:
    """A reply that is a function of the request's seed and messages only."""
    digest = hashlib.sha256(json.dumps([body.get("seed"), body["messages"]]).encode()).hexdigest()
    a, b = sorted({int(digest[0], 16) % 5 + 1, int(digest[1], 16) % 5 + 1, int(digest[2], 16) % 5 + 1})[:2] \
        if len({int(digest[i], 16) % 5 + 1 for i in range(3)}) > 1 else (1, 2)
    word = "approve" if int(digest[3], 16) % 2 else "reject"
    return f"Choice: {a}, {b} {word}\nWords: I would send players {a} and {b}; note {digest[:6]}."


@pytest.fixture(scope="module")
def server() -> Any:
    endpoint = ChatServer(seed_echo)
    yield endpoint
    endpoint.close()


@pytest.fixture(scope="module")
def model(server) -> str:
    return server.spec


@pytest.fixture(scope="module")
def original(model, tmp_path_factory) -> str:
    home = tmp_path_factory.mktemp("seeded")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ROUNDTABLE_HOME", str(home))
        seats = [{"kind": "lga", "model": model}, {"kind": "naive"}, {"kind": "lga", "model": model},
                 {"kind": "naive"}, {"kind": "naive"}]
        with open_runner() as runner:
            runner.start("A", {"config": {"preset": "bench5"}, "seed": 5, "seats": seats})
    return str(home)


@pytest.fixture
def home(original, monkeypatch) -> str:
    monkeypatch.setenv("ROUNDTABLE_HOME", original)
    return original


def calls_after(game_id: str, first_request: str) -> list[dict[str, Any]]:
    """Every model call of the game's decisions from ``first_request`` on, in order."""
    decisions = [e for e in read_record(game_id)["events"] if e["type"] == "decision"]
    start = next(i for i, d in enumerate(decisions) if d["request"] == first_request)
    return [call for d in decisions[start:] for call in (d.get("usage") or {}).get("log") or []]


def fork_point(game_id: str, round_: int) -> tuple[int, str]:
    """The step before the first lga decision of ``round_``, and that decision's request id."""
    with open_runner() as runner:
        for entry in runner.history(game_id):
            if "lga" in entry["next"] and entry["step"] is not None:
                state = runner.graph.get_state({"configurable": {"thread_id": game_id,
                                                                  "checkpoint_id": entry["checkpoint_id"]}})
                requests = [r for r in state.values.get("requests") or []
                            if state.values["seats"][r["player"] - 1]["kind"] == "lga"]
                if requests and requests[0]["round"] == round_:
                    return entry["step"], requests[0]["id"]
    raise AssertionError(f"no lga decision in round {round_}")


def test_every_call_carries_a_seed_and_keeps_its_prompt(home):
    record = read_record("A")
    assert record["status"] == "finished"
    calls = [c for e in record["events"] if e["type"] == "decision" for c in (e.get("usage") or {}).get("log") or []]
    assert calls and all(isinstance(c["seed"], int) for c in calls)
    assert all(c["prompt"] and c["reply"] for c in calls)
    assert len({c["seed"] for c in calls}) == len(calls), "every call its own seed"


def test_a_rerun_with_the_same_prompts_reproduces_every_reply(home):
    step, _ = fork_point("A", 2)
    fork_game("A", step, new_id="same")
    diffs = compare_games("A", "same")
    assert read_record("same")["status"] == "finished"
    assert divergence(diffs) is None and all(d.a is not None and d.b is not None for d in diffs)


def test_a_rerun_with_one_edited_prompt_differs_only_from_the_calls_that_use_it(home):
    step, request = fork_point("A", 2)
    edited = LgaContext().plan_prompt + "\nKeep the plan to one short sentence."
    fork_game("A", step, new_id="edited", prompts={"plan_prompt": edited})
    before, after = calls_after("A", request), calls_after("edited", request)
    first_plan = next(i for i, c in enumerate(after) if c["module"] == "plan")
    assert before[:first_plan] == after[:first_plan], "calls before the edited prompt's first use are the same"
    assert before[first_plan]["module"] == "plan" and before[first_plan]["prompt"] != after[first_plan]["prompt"]
    assert before[first_plan]["reply"] != after[first_plan]["reply"]
    first = divergence(compare_games("A", "edited"))
    assert first is not None and first.request == request and "prompt" in first.differs
    assert read_record("edited")["fork_of"]["game_id"] == "A"
    assert read_record("edited")["context"] == {"lga": {"plan_prompt": edited}}


def test_seeding_turns_off(home, server):
    step, request = fork_point("A", 2)
    server.requests.clear()
    fork_game("A", step, new_id="unseeded", context={"seeded_calls": False}, until_decision=True)
    assert server.requests and all(body.get("seed") is None for body in server.requests)
    assert all(c["seed"] is None for c in calls_after("unseeded", request))
