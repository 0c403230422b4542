"""Several endpoints of one model (replicas, ``BASE_URL|BASE_URL#MODEL``), against real local HTTP servers:
calls spread by outstanding requests, a failing replica skipped during its cool-down and tried again after it,
every replica down raising the same error as one dead endpoint, the bound on concurrent calls held per replica,
games finishing across a failing replica, and malformed specs refused (docs/usage.md#several-endpoints-for-one-model).
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fake_chat import ChatServer
from fake_endpoint import FakeEndpoint

from roundtable.models import ModelUnavailableError, chat_model, check_model, clear_model_cache, parse_model_spec
from roundtable.models.limits import peak_calls, set_endpoint_limit
from roundtable.models.replicas import DEFAULT_COOLDOWN, replica_stats, reset_replicas
from roundtable.models.spec import ModelSpec


@pytest.fixture(autouse=True)
def fresh() -> Iterator[None]:
    reset_replicas()
    clear_model_cache()
    yield
    assert all(stats["outstanding"] == 0 for stats in replica_stats().values()), "every request was released"
    set_endpoint_limit(None)
    clear_model_cache()
    reset_replicas()


class Replica:
    """A `ChatServer` that can be made to fail (it drops the connection without an answer), hold a request
    until released, and count the requests it is serving at once."""

    def __init__(self, name: str, reply: Callable[[dict[str, Any]], str] | None = None, delay: float = 0.0) -> None:
        self.name = name
        self.failing = False
        self.release = threading.Event()
        self.running = 0
        self.peak = 0
        self._lock = threading.Lock()
        self._reply = reply or (lambda body: f"from {name}")
        self._delay = delay
        self.server = ChatServer(self._answer)
        self.url = self.server.spec.split("#")[0]

    def _answer(self, body: dict[str, Any]) -> str:
        if self.failing:
            raise ConnectionAbortedError(f"{self.name} is failing")  # the handler drops the connection
        with self._lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            if "hold" in str(body["messages"]):
                assert self.release.wait(10)
            time.sleep(self._delay)
            return self._reply(body)
        finally:
            with self._lock:
                self.running -= 1

    @property
    def requests(self) -> int:
        return len(self.server.requests)

    def close(self) -> None:
        self.release.set()
        self.server.close()


@pytest.fixture
def replicas() -> Iterator[Callable[..., Replica]]:
    made: list[Replica] = []

    def make(name: str, **kwargs: Any) -> Replica:
        made.append(Replica(name, **kwargs))
        return made[-1]

    yield make
    for replica in made:
        replica.close()


def table_talk(body: dict[str, Any]) -> str:
    """A prose reply an ``lga`` seat can read (a team, a vote and words), the same for every request."""
    return "Choice: 1, 2 approve\nWords: I would send players 1 and 2."


def dead_url() -> str:
    """The base URL of a loopback port nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def model_of(*urls: str, options: str = "max_retries=0") -> Any:
    return chat_model(parse_model_spec(f"{'|'.join(urls)}#fake?{options}"), temperature=0.0)


# ------------------------------------------------------------------ spreading


def test_idle_replicas_take_calls_in_turn_and_each_reply_names_its_replica(replicas) -> None:
    a, b = replicas("a"), replicas("b")
    model = model_of(a.url, b.url)
    replies = [model.invoke("hi") for _ in range(4)]
    assert [r.content for r in replies] == ["from a", "from b", "from a", "from b"]
    assert [r.response_metadata["replica"] for r in replies] == [a.url, b.url, a.url, b.url]
    assert all(r.usage_metadata and r.usage_metadata["input_tokens"] > 0 for r in replies), "usage as for one"
    assert (a.requests, b.requests) == (2, 2)


def test_calls_go_to_the_replica_with_fewer_outstanding_requests(replicas) -> None:
    a, b = replicas("a"), replicas("b")
    model = model_of(a.url, b.url)
    with ThreadPoolExecutor(1) as pool:
        held = pool.submit(model.invoke, "hold this one")
        deadline = time.monotonic() + 5
        while a.requests + b.requests == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        busy, idle = (a, b) if a.requests else (b, a)
        # round robin would send one of these to the busy replica; by outstanding requests, none goes there
        assert [model.invoke("quick").content for _ in range(3)] == [f"from {idle.name}"] * 3
        busy.release.set()
        assert held.result(5).content == f"from {busy.name}"
    assert (busy.requests, idle.requests) == (1, 3)


def test_a_replica_model_keeps_seeds_structured_output_and_options(replicas) -> None:
    a = replicas("a", reply=lambda body: '{"team": [1, 2]}')
    b = replicas("b", reply=lambda body: '{"team": [1, 2]}')
    spec = parse_model_spec(f"{a.url}|{b.url}#fake?max_retries=0")
    model = chat_model(spec, temperature=0.0, slot=3).model_copy(update={"seed": 7})
    schema = {"title": "Team", "type": "object", "required": ["team"],
              "properties": {"team": {"type": "array", "items": {"type": "integer"}}}}
    result = model.with_structured_output(schema, method="json_schema", include_raw=True).invoke("pick")
    assert result["parsed"] == {"team": [1, 2]}
    assert result["raw"].response_metadata["replica"] == a.url
    body = a.server.requests[0]
    assert (body["seed"], body["id_slot"], body["model"]) == (7, 3, "fake")
    assert body["response_format"]["type"] == "json_schema"


# ------------------------------------------------------------------ failures


def test_a_failing_replica_is_skipped_during_its_cooldown_and_tried_again_after_it(replicas) -> None:
    a, b = replicas("a"), replicas("b")
    a.failing = True
    model = model_of(a.url, b.url, options="max_retries=0&cooldown=0.4")
    assert model.invoke("hi").content == "from b", "the first call fails over to b, the game goes on"
    assert a.requests == 1 and replica_stats()[a.url]["failures"] == 1
    assert replica_stats()[a.url]["down_for"] > 0
    assert [model.invoke("hi").content for _ in range(4)] == ["from b"] * 4
    assert a.requests == 1, "out of rotation during its cool-down"
    time.sleep(0.45)
    assert model.invoke("hi").content == "from b"
    assert a.requests == 2, "tried again after the cool-down (and, still failing, out again)"
    a.failing = False
    time.sleep(0.45)
    assert [model.invoke("hi").content for _ in range(2)] == ["from a", "from b"], "back in rotation"
    stats = replica_stats()
    assert (stats[a.url]["served"], stats[a.url]["failures"]) == (1, 2)


def test_a_refused_or_5xx_replica_fails_over_to_a_healthy_one(replicas) -> None:
    ok = replicas("ok")
    erroring = FakeEndpoint([])  # answers 500 to everything
    try:
        for bad in (dead_url(), erroring.url):
            reset_replicas()
            clear_model_cache()
            model = model_of(bad, ok.url, options="max_retries=0")
            assert [model.invoke("hi").content for _ in range(3)] == ["from ok"] * 3
            assert replica_stats()[bad]["failures"] == 1
        assert len(erroring.requests) == 1
        assert "HTTP 500" in str(replica_stats()[erroring.url]["last_error"])
    finally:
        erroring.close()


def test_a_silent_replica_costs_one_timeout_then_sits_out_its_cooldown(replicas) -> None:
    ok = replicas("ok")
    silent = FakeEndpoint([], delay=5)
    try:
        model = model_of(silent.url, ok.url, options="max_retries=0&timeout=0.3")
        started = time.perf_counter()
        assert [model.invoke("hi").content for _ in range(3)] == ["from ok"] * 3
        assert time.perf_counter() - started < 3, "one timeout, then no more calls to it"
        assert "timeout" in str(replica_stats()[silent.url]["last_error"])
        assert len(silent.requests) == 1
    finally:
        silent.close()


def test_a_busy_replica_passes_the_call_on_without_a_cooldown(replicas) -> None:
    ok = replicas("ok")
    busy = FakeEndpoint([(429, {"error": {"message": "busy"}}, {})])
    try:
        model = model_of(busy.url, ok.url, options="max_retries=0")
        assert model.invoke("hi").content == "from ok"
        stats = replica_stats()[busy.url]
        assert (stats["failures"], stats["down_for"]) == (1, 0.0), "in rotation still"
    finally:
        busy.close()


def test_async_calls_are_routed_and_fail_over_too(replicas) -> None:
    ok = replicas("ok")
    bad = dead_url()
    model = model_of(bad, ok.url, options="max_retries=0")

    async def calls() -> list[Any]:
        return [await model.ainvoke("hi") for _ in range(3)]

    replies = asyncio.run(calls())
    assert [r.content for r in replies] == ["from ok"] * 3
    assert {r.response_metadata["replica"] for r in replies} == {ok.url}
    assert replica_stats()[bad]["failures"] == 1
    assert replica_stats()[ok.url]["outstanding"] == 0, "answered requests are no longer outstanding"


def test_every_replica_down_raises_what_one_dead_endpoint_raises() -> None:
    one, two = dead_url(), dead_url()
    with pytest.raises(ModelUnavailableError) as single:
        chat_model(parse_model_spec(f"{one}#fake?max_retries=0"), 0.0).invoke("hi")
    started = time.perf_counter()
    with pytest.raises(ModelUnavailableError, match="connection error") as both:
        model_of(one, two, options="max_retries=1").invoke("hi")
    assert time.perf_counter() - started < 10
    assert type(both.value) is type(single.value)
    assert both.value.url == f"{one}|{two}" and both.value.model == "fake"
    assert f"{one}: connection error" in str(both.value) and f"{two}: connection error" in str(both.value)
    assert "can be resumed" in str(both.value)


def test_every_replica_5xx_is_retried_max_retries_times_then_unavailable() -> None:
    first, second = FakeEndpoint([]), FakeEndpoint([])
    try:
        with pytest.raises(ModelUnavailableError, match="HTTP 500"):
            model_of(first.url, second.url, options="max_retries=1").invoke("hi")
        # each attempt tries every replica once; the client's one retry makes two attempts
        assert (len(first.requests), len(second.requests)) == (2, 2)
    finally:
        first.close()
        second.close()


# ------------------------------------------------------------------ the bound per replica


def test_the_bound_on_concurrent_calls_holds_per_replica(replicas) -> None:
    a, b = replicas("a", delay=0.15), replicas("b", delay=0.15)
    set_endpoint_limit(2)
    model = model_of(a.url, b.url)
    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(lambda _: model.invoke("hi").content, range(8)))
    assert sorted(replies) == ["from a"] * 4 + ["from b"] * 4
    assert (a.peak, b.peak) == (2, 2), "two at once on each replica: the bound is per replica, not per spec"
    assert peak_calls() == {a.url: 2, b.url: 2}


# ------------------------------------------------------------------ games


def test_a_game_stopped_by_every_replica_down_resumes_and_finishes_across_a_failing_one(
        replicas, tmp_path, monkeypatch) -> None:
    from roundtable.play.runner import open_runner
    from roundtable.store.records import read_record

    monkeypatch.setenv("ROUNDTABLE_HOME", str(tmp_path))
    flaky, healthy = replicas("flaky", reply=table_talk), replicas("healthy", reply=table_talk)
    flaky.failing = healthy.failing = True
    spec = f"{flaky.url}|{healthy.url}#fake?json_schema=false&max_retries=0&cooldown=0.05"
    seats = [{"kind": "lga", "model": spec}] + [{"kind": "naive"}] * 4
    with open_runner() as runner, pytest.raises(ModelUnavailableError, match="every replica failed"):
        runner.start("replicas", {"config": {"preset": "bench5"}, "seed": 5, "seats": seats})
    assert read_record("replicas")["status"] != "finished", "stopped as for a dead endpoint"

    healthy.failing = False
    tried = flaky.requests
    with open_runner() as runner:
        runner.resume("replicas")
    assert read_record("replicas")["status"] == "finished"
    assert healthy.requests > 10
    assert flaky.requests >= tried + 2, "tried again after each cool-down while the game went on"
    assert replica_stats()[flaky.url]["served"] == 0


# ------------------------------------------------------------------ specs


def test_spec_syntax_and_canonical_form() -> None:
    spec = parse_model_spec(" http://h1:8000/v1/ | https://h2/openai/v1#qwen2.5:7b?cooldown=5&max_retries=1 ")
    assert spec.kind == "server" and spec.model == "qwen2.5:7b"
    assert spec.replicas == ("http://h1:8000/v1", "https://h2/openai/v1") == spec.endpoints
    assert spec.base_url == "http://h1:8000/v1"
    assert (spec.cooldown, spec.max_retries) == (5.0, 1)
    assert str(spec) == "http://h1:8000/v1|https://h2/openai/v1#qwen2.5:7b?max_retries=1&cooldown=5.0"
    assert parse_model_spec(str(spec)) == spec
    assert hash(spec) == hash(parse_model_spec(str(spec)))
    single = parse_model_spec("http://h1:8000/v1#m?timeout=3")
    assert (single.replicas, single.endpoints, str(single)) == ((), ("http://h1:8000/v1",), "http://h1:8000/v1#m?timeout=3.0")
    assert parse_model_spec("local").endpoints == ()
    assert DEFAULT_COOLDOWN > 0


def test_replica_specs_work_in_seat_assignments() -> None:
    from roundtable.models import parse_model_assignments

    good, evil = parse_model_assignments("good=http://a/v1|http://b/v1#m,evil=local")
    assert good.target == "good" and good.value.replicas == ("http://a/v1", "http://b/v1")
    assert evil.value.kind == "local"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("http://a/v1|#m", "empty endpoint at position 2"),
        ("|http://a/v1#m", "empty endpoint at position 1"),
        ("http://a/v1||http://b/v1#m", "empty endpoint at position 2"),
        ("http://a/v1|b:8000/v1#m", "endpoint 'b:8000/v1' in model spec 'http://a/v1|b:8000/v1#m' is not a server URL"),
        ("local|http://a/v1#m", "endpoint 'local'"),
        ("http://a/v1|ftp://b/v1#m", "unsupported URL scheme 'ftp'"),
        ("http://a/v1|http://b:99999/v1#m", "invalid port"),
        ("http://a/v1|http://b/v1?x=1#m", "query strings in the server URL are not supported"),
        ("http://a/v1|http://a/v1/#m", "endpoint 'http://a/v1' is named twice"),
        ("http://a/v1|http://b/v1", "names a server but no model"),
        ("http://a/v1#m|http://b/v1#m", "replicas share one model, named once at the end"),
        ("gpt-4o|gpt-4o-mini", "only OpenAI-compatible servers can be replicas"),
        ("local|local", "only OpenAI-compatible servers can be replicas"),
        ("http://a/v1#m?cooldown=5", "option 'cooldown' in model spec 'http://a/v1#m?cooldown=5' is for several"),
        ("gpt-4o?cooldown=5", "is for several endpoints"),
        ("http://a/v1|http://b/v1#m?cooldown=0", "positive number of seconds"),
        ("http://a/v1|http://b/v1#m?cooldown=soon", "bad option 'cooldown=soon'"),
    ],
)
def test_malformed_replica_specs_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_model_spec(text)
    assert message in str(info.value)


def test_malformed_replicas_are_refused_in_seat_assignments_too() -> None:
    from roundtable.models import parse_model_assignments

    with pytest.raises(ValueError, match=r"empty endpoint .*\(in assignment 'evil=http://a/v1\|#m'\)"):
        parse_model_assignments("local,evil=http://a/v1|#m")


def test_spec_model_validation_of_replicas() -> None:
    with pytest.raises(ValueError, match="two or more base URLs, base_url first"):
        ModelSpec(kind="server", model="m", base_url="http://a/v1", replicas=("http://a/v1",))
    with pytest.raises(ValueError, match="base_url first"):
        ModelSpec(kind="server", model="m", base_url="http://b/v1", replicas=("http://a/v1", "http://b/v1"))
    with pytest.raises(ValueError, match="each endpoint once"):
        ModelSpec(kind="server", model="m", base_url="http://a/v1", replicas=("http://a/v1", "http://a/v1"))
    with pytest.raises(ValueError, match="several endpoints"):
        ModelSpec(kind="server", model="m", base_url="http://a/v1", cooldown=3)


def test_check_model_accepts_replicas_without_calling_them(replicas) -> None:
    a, b = replicas("a"), replicas("b")
    check_model(parse_model_spec(f"{a.url}|{b.url}#fake"))
    check_model(parse_model_spec(f"{dead_url()}|{dead_url()}#fake"))
    assert (a.requests, b.requests) == (0, 0)
