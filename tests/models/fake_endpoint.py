"""A fake OpenAI-compatible endpoint on a loopback port, for the model-layer tests."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeEndpoint:
    """An OpenAI-compatible endpoint answering from a script of ``(status, body, headers)``.

    A ``dict`` body is sent as JSON; ``bytes`` are sent as they are, with the
    ``Content-Type`` the headers give (e.g. an HTML page). An empty script
    answers 500. ``delay`` seconds pass before each answer (a silent endpoint).
    """

    def __init__(self, script: list[tuple[int, dict | bytes, dict[str, str]]], delay: float = 0.0) -> None:
        self.script = list(script)
        self.requests: list[dict] = []
        self.authorizations: list[str | None] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.requests.append(body)
                endpoint.authorizations.append(self.headers.get("Authorization"))
                time.sleep(delay)
                status, reply, headers = endpoint.script.pop(0) if endpoint.script else (500, {}, {})
                data = reply if isinstance(reply, bytes) else json.dumps(reply).encode()
                headers = {"Content-Type": "application/json", **headers}
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                for key, value in headers.items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
