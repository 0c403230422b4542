"""Endpoints that answer 200 with something that is not a chat completion, or never answer at all."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator

import pytest
from fake_endpoint import FakeEndpoint

from roundtable.models import ModelUnavailableError, chat_model, clear_model_cache, parse_model_spec
from roundtable.models.factory import REMOTE_MAX_RETRIES, REMOTE_TIMEOUT


@pytest.fixture
def raw() -> Iterator[Callable[..., FakeEndpoint]]:
    """``raw(body, content_type, delay=0)``: an endpoint answering every request 200 with ``body``."""
    made: list[FakeEndpoint] = []

    def make(body: bytes, content_type: str = "application/json", delay: float = 0.0) -> FakeEndpoint:
        made.append(FakeEndpoint([(200, body, {"Content-Type": content_type})] * 10, delay=delay))
        return made[-1]

    clear_model_cache()
    yield make
    clear_model_cache()
    for server in made:
        server.close()


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"<html><body>Gateway says hello</body></html>", "text/html"),
        (json.dumps({"id": "x", "object": "chat.completion", "model": "m"}).encode(), "application/json"),
        (json.dumps({"choices": []}).encode(), "application/json"),
    ],
    ids=["html", "no choices", "empty choices"],
)
def test_a_200_that_is_not_a_chat_completion_is_retried_then_an_outage(raw, body, content_type) -> None:
    server = raw(body, content_type)
    model = chat_model(parse_model_spec(f"{server.url}#m?max_retries=2"), 0)
    with pytest.raises(ModelUnavailableError, match="no chat completion"):
        model.invoke("hello")
    assert len(server.requests) == 3, "retried max_retries times"


def test_a_silent_endpoint_times_out_within_the_bound(raw) -> None:
    server = raw(b"{}", delay=30)
    model = chat_model(parse_model_spec(f"{server.url}#m?max_retries=1&timeout=0.5"), 0)
    started = time.perf_counter()
    with pytest.raises(ModelUnavailableError, match="timeout"):
        model.invoke("hello")
    assert time.perf_counter() - started < 10
    assert len(server.requests) == 2


def test_the_default_bound_on_silence_is_minutes_not_an_hour() -> None:
    assert (1 + REMOTE_MAX_RETRIES) * REMOTE_TIMEOUT <= 600
    model = chat_model(parse_model_spec("http://127.0.0.1:9/v1#m"), 0)
    assert model.request_timeout == REMOTE_TIMEOUT
