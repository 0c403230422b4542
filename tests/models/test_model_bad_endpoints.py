"""Endpoints that answer 200 with something that is not a chat completion, or never answer at all."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from roundtable.models import ModelUnavailableError, chat_model, clear_model_cache, parse_model_spec
from roundtable.models.factory import REMOTE_MAX_RETRIES, REMOTE_TIMEOUT


class Raw:
    """An endpoint answering every request with ``status``, ``body`` and ``content_type``, after ``delay`` s."""

    def __init__(self, body: bytes, content_type: str = "application/json", delay: float = 0.0) -> None:
        self.requests = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                outer.requests += 1
                time.sleep(delay)
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def raw() -> Iterator[type[Raw]]:
    made: list[Raw] = []

    def make(*args: object, **kwargs: object) -> Raw:
        made.append(Raw(*args, **kwargs))  # type: ignore[arg-type]
        return made[-1]

    clear_model_cache()
    yield make  # type: ignore[misc]
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
    assert server.requests == 3, "retried max_retries times"


def test_a_silent_endpoint_times_out_within_the_bound(raw) -> None:
    server = raw(b"{}", delay=30)
    model = chat_model(parse_model_spec(f"{server.url}#m?max_retries=1&timeout=0.5"), 0)
    started = time.perf_counter()
    with pytest.raises(ModelUnavailableError, match="timeout"):
        model.invoke("hello")
    assert time.perf_counter() - started < 10
    assert server.requests == 2


def test_the_default_bound_on_silence_is_minutes_not_an_hour() -> None:
    assert (1 + REMOTE_MAX_RETRIES) * REMOTE_TIMEOUT <= 600
    model = chat_model(parse_model_spec("http://127.0.0.1:9/v1#m"), 0)
    assert model.request_timeout == REMOTE_TIMEOUT
