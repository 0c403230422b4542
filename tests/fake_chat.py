"""A fake OpenAI-compatible chat endpoint on a loopback port, for tests whose agents reply in prose.

``ChatServer(reply)`` answers every ``POST .../chat/completions`` with a chat
completion whose text is ``reply(body)`` (``body``: the request's JSON, its
``messages``, ``seed``, ...); ``spec`` is the seat's model spec for it (prose
replies, no retries). The model-layer tests, which script raw status codes and
bodies, use ``tests/models/fake_endpoint.py`` instead.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class ChatServer:
    """A chat-completions endpoint answering ``reply(request body) -> text``; ``requests`` keeps every body."""

    def __init__(self, reply: Callable[[dict[str, Any]], str]) -> None:
        self.requests: list[dict[str, Any]] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                endpoint.requests.append(body)
                data = json.dumps({
                    "id": "fake", "object": "chat.completion", "created": 0, "model": "fake",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply(body)}}],
                    "usage": {"prompt_tokens": len(str(body.get("messages"))) // 4, "completion_tokens": 5,
                              "total_tokens": 0},
                }).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:  # quiet
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.spec = f"http://127.0.0.1:{self.server.server_address[1]}/v1#fake?json_schema=false&max_retries=0"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        """Stop serving and free the port."""
        self.server.shutdown()
        self.server.server_close()


def chat_model_fixture(reply: Callable[[dict[str, Any]], str]) -> Any:
    """A module-scoped pytest fixture serving ``ChatServer(reply)`` and yielding its model spec
    (``fake_model = chat_model_fixture(_reply)`` in a test module)."""

    @pytest.fixture(scope="module")
    def fake_model() -> Iterator[str]:
        server = ChatServer(reply)
        yield server.spec
        server.close()

    return fake_model
