"""A minimal Chrome DevTools Protocol client for the browser tests: headless Chromium from the
distribution's packages (``/usr/bin/chromium``), driven over its remote-debugging WebSocket."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-port=0", "--remote-allow-origins=*"]


class Browser:
    """Headless Chromium with one page; collects console errors and uncaught exceptions in ``errors``."""

    def __init__(self, profile: Path) -> None:
        import websocket

        self.process = subprocess.Popen(["nice", "-n", "19", str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}",
                                         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.exists() and port_file.read_text().strip()):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError("chromium did not open its debugging port")
            time.sleep(0.2)
        port = int(port_file.read_text().split()[0])
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        url = next(p["webSocketDebuggerUrl"] for p in pages if p.get("type") == "page")
        self.socket = websocket.create_connection(url, timeout=30, suppress_origin=True)
        self.next_id, self.errors = 0, []
        for domain in ("Runtime.enable", "Log.enable", "Page.enable"):
            self.call(domain)

    def _note(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params") or {}
        if method == "Runtime.exceptionThrown":
            self.errors.append(json.dumps(params.get("exceptionDetails"))[:500])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.errors.append(json.dumps(params.get("args"))[:500])
        elif method == "Log.entryAdded" and (params.get("entry") or {}).get("level") == "error":
            self.errors.append(json.dumps(params["entry"])[:500])

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events met on the way are noted)."""
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result") or {}
            self._note(message)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        """Load ``url`` and wait until the document is complete."""
        self.call("Page.navigate", url=url)
        deadline = time.monotonic() + 30
        while self.evaluate("document.readyState") != "complete" or self.evaluate("location.href") != url:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not load")
            time.sleep(0.1)
        self.evaluate("0")  # drain events

    def close(self) -> None:
        try:
            self.socket.close()
        finally:
            self.process.terminate()
            self.process.wait(timeout=30)
