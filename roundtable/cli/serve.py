"""``roundtable serve [--host HOST] [--port PORT]``: the browser's table on the data directory in use
(docs/browser.md).

People create games in the browser, sit at human seats through secret links, watch as spectators and replay
finished games; agents' turns run in the server's threads. Loopback only unless ``--host`` says otherwise. On
start the server resumes every unfinished game created in the browser from its last checkpoint; Ctrl-C stops
them at their checkpoints.
"""

from __future__ import annotations

from typing import Annotated

import typer
import uvicorn
from rich.console import Console

from roundtable.store import paths
from roundtable.web.app import create_app

err = Console(stderr=True, highlight=False, soft_wrap=True)


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default; 0.0.0.0 for every one).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8765,
) -> None:
    """Serve the table in the browser: create games, play at human seats, watch and replay (docs/browser.md)."""
    err.print(f"roundtable serve: http://{host}:{port}/ (data in {paths.home()}); Ctrl-C stops", markup=False)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning", access_log=False, timeout_graceful_shutdown=5)
