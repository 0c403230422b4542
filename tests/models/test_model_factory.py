"""The chat-model factory against fake endpoints: retries, outages, keys, caching, usage."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable, Iterator
from typing import Annotated

import openai
import pytest
from fake_endpoint import FakeEndpoint
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, Field

from roundtable.models.errors import ModelConfigError, ModelUnavailableError
from roundtable.models.factory import SERVER_API_KEY_ENV, chat_model, clear_model_cache, prompt_slots
from roundtable.models.spec import parse_model_spec
from roundtable.models.usage import collect_usage


def completion(content: str, prompt_tokens: int = 50, cached: int = 30) -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": 5,
            "total_tokens": prompt_tokens + 5,
            "prompt_tokens_details": {"cached_tokens": cached},
        },
    }


@pytest.fixture
def endpoint() -> Iterator[Callable[[list[tuple[int, dict, dict[str, str]]]], FakeEndpoint]]:
    made: list[FakeEndpoint] = []

    def make(script: list[tuple[int, dict, dict[str, str]]]) -> FakeEndpoint:
        made.append(FakeEndpoint(script))
        return made[-1]

    yield make
    for server in made:
        server.close()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    clear_model_cache()
    yield
    clear_model_cache()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


ERROR = {"error": {"message": "overloaded", "type": "server_error"}}


def test_models_are_chat_openai_and_cached() -> None:
    spec = parse_model_spec("http://127.0.0.1:9/v1#m")
    model = chat_model(spec, 0.3, 100)
    assert isinstance(model, ChatOpenAI)
    assert model.model_name == "m" and model.temperature == 0.3 and model.max_tokens == 100
    assert chat_model(parse_model_spec("http://127.0.0.1:9/v1#m"), 0.3, 100) is model
    assert chat_model(spec, 0.0, 100) is not model
    assert chat_model(spec, 0.3) is not model


def test_dead_endpoint_raises_quickly_with_the_url() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    model = chat_model(parse_model_spec(f"{url}#m?max_retries=2"), 0)
    started = time.monotonic()
    with pytest.raises(ModelUnavailableError) as info:
        model.invoke("hello")
    elapsed = time.monotonic() - started
    assert elapsed < 5, "two retries back off about 0.5 s + 1 s"
    assert info.value.url == url
    assert url in str(info.value) and "Connection refused" in str(info.value)
    assert isinstance(info.value.__cause__, openai.APIConnectionError)


def test_dead_endpoint_async_stream_and_structured() -> None:
    model = chat_model(parse_model_spec(f"http://127.0.0.1:{closed_port()}/v1#m?max_retries=0"), 0)
    with pytest.raises(ModelUnavailableError):
        asyncio.run(model.ainvoke("hello"))
    with pytest.raises(ModelUnavailableError):
        list(model.stream("hello"))

    class Answer(BaseModel):
        yes: bool

    with pytest.raises(ModelUnavailableError):
        model.with_structured_output(Answer, method="json_schema").invoke("hello")


def test_persistent_5xx_is_retried_a_bounded_number_of_times(endpoint) -> None:
    server = endpoint([(503, ERROR, {})] * 10)
    model = chat_model(parse_model_spec(f"{server.url}#m?max_retries=2"), 0)
    with pytest.raises(ModelUnavailableError, match="HTTP 503 after retries"):
        model.invoke("hello")
    assert len(server.requests) == 3


def test_transient_errors_are_retried(endpoint) -> None:
    server = endpoint(
        [
            (503, ERROR, {}),
            (429, {"error": {"message": "slow down", "type": "rate_limit"}}, {"Retry-After": "0"}),
            (200, completion("fine"), {}),
        ]
    )
    model = chat_model(parse_model_spec(f"{server.url}#m?max_retries=3"), 0)
    assert model.invoke("hello").content == "fine"
    assert len(server.requests) == 3


def test_client_errors_are_not_outages(endpoint) -> None:
    server = endpoint([(400, {"error": {"message": "bad", "type": "invalid_request_error"}}, {})])
    model = chat_model(parse_model_spec(f"{server.url}#m"), 0)
    with pytest.raises(openai.BadRequestError):
        model.invoke("hello")
    assert len(server.requests) == 1


def test_request_shape_structured_output_and_usage(endpoint) -> None:
    server = endpoint([(200, completion('{"rolls": [3, 5]}'), {})])

    class Dice(BaseModel):
        rolls: list[Annotated[int, Field(ge=1, le=6)]] = Field(min_length=2, max_length=2)

    model = chat_model(parse_model_spec(f"{server.url}#qwen"), 0.3, 40)
    with collect_usage() as usage:
        result = model.with_structured_output(Dice, method="json_schema", include_raw=True).invoke("roll")
    assert result["parsed"] == Dice(rolls=[3, 5])
    request = server.requests[0]
    assert request["model"] == "qwen" and request["temperature"] == 0.3
    assert request["max_completion_tokens"] == 40
    assert request["response_format"]["type"] == "json_schema"
    assert usage.total.calls == 1
    assert (usage.total.prompt_tokens, usage.total.completion_tokens, usage.total.cached_tokens) == (50, 5, 30)
    assert result["raw"].usage_metadata["input_token_details"]["cache_read"] == 30


def test_a_slot_and_sampling_parameters_go_in_every_request_and_the_cache_key(endpoint) -> None:
    server = endpoint([(200, completion("a"), {}), (200, completion("b"), {}), (200, completion("c"), {})])
    spec = parse_model_spec(f"{server.url}#m?slots=6")
    pinned = chat_model(spec, 0.3, 40, slot=4)
    assert pinned is chat_model(spec, 0.3, 40, slot=4) and pinned is not chat_model(spec, 0.3, 40)
    pinned.invoke("hi")
    chat_model(spec, 0.3, 40).invoke("hi")
    chat_model(spec, 0.3, 40, slot=1, sampling=(("dry_multiplier", 0.8),)).invoke("hi")
    assert server.requests[0]["id_slot"] == 4
    assert "id_slot" not in server.requests[1] and "dry_multiplier" not in server.requests[1]
    assert server.requests[2]["id_slot"] == 1 and server.requests[2]["dry_multiplier"] == 0.8


def test_prompt_slots_per_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROUNDTABLE_LOCAL_PARALLEL", raising=False)
    assert prompt_slots(parse_model_spec("local")) == 10  # the embedded server's slots
    monkeypatch.setenv("ROUNDTABLE_LOCAL_PARALLEL", "1")
    assert prompt_slots(parse_model_spec("local")) == 1
    assert prompt_slots(parse_model_spec("http://127.0.0.1:9/v1#m")) == 0  # unknown server: one shared cache
    assert prompt_slots(parse_model_spec("http://127.0.0.1:9/v1#m?slots=8")) == 8
    assert prompt_slots(parse_model_spec("gpt-4o-mini")) == 0
    assert prompt_slots(parse_model_spec("local?slots=0")) == 0


def test_server_key_comes_from_its_own_variable(endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-openai-secret")
    monkeypatch.delenv(SERVER_API_KEY_ENV, raising=False)
    server = endpoint([(200, completion("a"), {}), (200, completion("b"), {})])
    chat_model(parse_model_spec(f"{server.url}#m"), 0).invoke("hello")
    monkeypatch.setenv(SERVER_API_KEY_ENV, "server-key")
    chat_model(parse_model_spec(f"{server.url}#m"), 0.5).invoke("hello")
    assert server.authorizations == ["Bearer none", "Bearer server-key"]


def test_hosted_model_without_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelConfigError, match=r"cannot use hosted model 'gpt-4o-mini'.*OPENAI_API_KEY"):
        chat_model(parse_model_spec("gpt-4o-mini"), 0)


def test_hosted_model_uses_openai_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    model = chat_model(parse_model_spec("gpt-4o-mini"), 0)
    assert str(model.root_client.base_url).rstrip("/") == "http://127.0.0.1:9/v1"
    assert model.max_retries == 4


def test_a_pinned_local_call_lets_the_embedded_server_prepare_its_slot_first(
        endpoint, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each request of a slot-pinned local model is preceded by `LocalServer.prepare_slot` (sync and async)."""
    from roundtable.models import local

    server = endpoint([(200, completion("a"), {}) for _ in range(3)])
    seen: list[tuple[int | None, int]] = []

    class Server:
        base_url = server.url

        def prepare_slot(self, slot: int | None) -> None:
            seen.append((slot, len(server.requests)))  # how many requests had reached the endpoint by then

    monkeypatch.setattr(local, "local_server", lambda: Server())
    pinned = chat_model(parse_model_spec("local"), 0.3, 40, slot=3)
    pinned.invoke("hi")
    asyncio.run(pinned.ainvoke("hi"))
    chat_model(parse_model_spec("local"), 0.3, 40).invoke("hi")  # not pinned: no slot to prepare
    assert seen == [(3, 0), (3, 1)]
    assert [r.get("id_slot") for r in server.requests] == [3, 3, None]
