"""The web application of ``roundtable serve``: create games, sit at a seat, watch, replay (docs/browser.md).

Routes (a token travels in the ``X-Table-Token`` header, or as the first message of a socket, never in a URL, so
no log or referrer holds it; a link carries it after ``#``, which the browser does not send):

- ``GET /``: the page that creates a game. ``GET /api/options``: the games, their settings, the agent kinds.
- ``POST /api/check``: ``{game, setting, preset, players, rules, seed}`` -> ``{"players": N}`` or 400 with the
  reason (``rules``: ``KEY=VALUE`` strings, or one string of them separated by commas).
- ``POST /api/games``: the same, ``seats: [{"kind", "model"}]`` (``kind`` ``"human"`` for a person) and
  ``options`` (agent options ``[TARGET:]KEY=VALUE``, as ``--agent-option``) ->
  ``{"game_id", "seats": {player: link}, "spectator": link}``; 400 with the reason, before anything is played.
- ``GET /table/{game_id}``: a seat's or a spectator's page (a shell: what it shows comes with its token).
- ``GET /api/games/{game_id}/state``: the page's state (`roundtable.web.views.page_state`).
- ``POST /api/games/{game_id}/answer``: ``{"request_id", "answer"}`` -> 200; 400 an illegal answer (the message says
  why), 409 a late one, 403 a token that opens no seat of this game.
- ``WS /ws/{game_id}``: after a first message ``{"token"}``, the page's state whenever it changes.
- ``GET /replay/{game_id}``: the replay's page (its data comes with its token);
  ``GET /api/games/{game_id}/replay``: the replay's data once the game is over (409 before).
- ``GET /static/...``: the page's script and style.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from roundtable.agents.human import AnswerError
from roundtable.agents.registry import AGENT_KINDS
from roundtable.games import GAMES
from roundtable.games.errors import ConfigurationError
from roundtable.play.new_game import NewGame, new_game
from roundtable.store.records import read_record
from roundtable.web.host import GameHost, LateAnswer, Tables
from roundtable.web.links import TableLinks, TokenError, Viewer, viewer_of
from roundtable.web.replay import replay_data, replay_html
from roundtable.web.views import PAGES, page_state

TOKEN_HEADER = "X-Table-Token"
POLL_SECONDS = 0.2
"""How often a socket looks for a change of its game."""


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(PAGES.joinpath(name).read_text(encoding="utf-8"))


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the body is not JSON") from None
    if not isinstance(body, dict):
        raise HTTPException(400, "the body is a JSON object")
    return body


def made_game(body: dict[str, Any], with_seats: bool = True) -> NewGame:
    """A new game's checked inputs from the form's JSON (see the module docstring).

    Raises:
        ConfigurationError: anything the game or the seats refuse (the message names it).
    """
    game = str(body.get("game") or "")
    rules = body.get("rules") or []
    if isinstance(rules, str):
        rules = [r.strip() for r in rules.split(",") if r.strip()]
    players = body.get("players")
    if players not in (None, ""):
        try:
            players = int(players)
        except (TypeError, ValueError):
            raise ConfigurationError(f"players is a number, not {players!r}") from None
    else:
        players = None
    agents, models = "naive", ""
    if with_seats:
        seats = body.get("seats")
        if not isinstance(seats, list) or not seats or not all(isinstance(s, dict) for s in seats):
            raise ConfigurationError("seats is a list with one {kind, model} per player")
        agents = ",".join(f"{p}={str(s.get('kind') or '').strip()}" for p, s in enumerate(seats, start=1))
        models = ",".join(f"{p}={str(s['model']).strip()}" for p, s in enumerate(seats, start=1)
                          if str(s.get("model") or "").strip())
    options = (body.get("options") or []) if with_seats else []  # the options name the seats' kinds
    if isinstance(options, str):
        options = [o.strip() for o in options.split(",") if o.strip()]
    seed = body.get("seed")
    try:
        seed = int(seed) if seed not in (None, "") else None
    except (TypeError, ValueError):
        raise ConfigurationError(f"seed is a whole number, not {seed!r}") from None
    return new_game(game, preset=body.get("preset") or None, players=players, rules=list(rules),
                    setting=body.get("setting") or None, agents=agents, model=models, options=list(options),
                    seed=seed)


def create_app(tables: Tables | None = None) -> Starlette:
    """The web application on the data directory in use (`roundtable.store.paths.home`): on start it resumes the
    unfinished games created in the browser (`Tables.resume_all`), on shutdown it stops them at their
    checkpoints."""
    tables = tables or Tables()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(tables.resume_all)
        yield
        await asyncio.to_thread(tables.close)

    def hosted(game_id: str) -> tuple[GameHost, TableLinks]:
        found = tables.get(game_id)
        if found is None:
            raise HTTPException(404, f"no game {game_id!r} on this server")
        return found

    def viewer(request: Request, game_id: str) -> tuple[GameHost, Viewer]:
        host, links = hosted(game_id)
        try:
            return host, viewer_of(links, request.headers.get(TOKEN_HEADER, ""))
        except TokenError as error:
            raise HTTPException(403, str(error)) from None

    async def create_page(request: Request) -> Response:
        return _page("create.html")

    async def table_page(request: Request) -> Response:
        hosted(request.path_params["game_id"])
        return _page("table.html")

    async def options(request: Request) -> Response:
        return JSONResponse({
            "games": {name: {"title": rules.game_title,
                             "settings": {s: setting.describe() for s, setting in rules.settings.items()}}
                      for name, rules in GAMES.items()},
            "kinds": {name: {"description": kind.description, "games": sorted(kind.games),
                             "person": kind.asks_person} for name, kind in AGENT_KINDS.items()},
        })

    async def check(request: Request) -> Response:
        try:
            made = made_game(await _body(request), with_seats=False)
        except ConfigurationError as error:
            return _error(400, str(error))
        return JSONResponse({"players": len(made.inputs["seats"])})

    async def create(request: Request) -> Response:
        try:
            made = made_game(await _body(request))
        except ConfigurationError as error:
            return _error(400, str(error))
        links = await asyncio.to_thread(tables.create, made)
        base = f"/table/{links.game_id}#t="
        return JSONResponse({"game_id": links.game_id,
                             "seats": {str(p): base + token for p, token in links.seats.items()},
                             "spectator": base + links.spectator})

    async def replay_page(request: Request) -> Response:
        hosted(request.path_params["game_id"])
        return HTMLResponse(replay_html(None))

    async def state(request: Request) -> Response:
        host, who = viewer(request, request.path_params["game_id"])
        return JSONResponse(page_state(host.game_id, host.game, host.players, host.state(), who))

    async def answer(request: Request) -> Response:
        host, who = viewer(request, request.path_params["game_id"])
        if who is None:
            return _error(403, "a spectator does not answer")
        body = await _body(request)
        try:
            host.answer(who, str(body.get("request_id")), body.get("answer"))
        except LateAnswer as error:
            return _error(409, str(error))
        except AnswerError as error:
            return _error(400, str(error))
        return JSONResponse({"ok": True})

    async def replay(request: Request) -> Response:
        host, _ = viewer(request, request.path_params["game_id"])
        record = read_record(host.game_id) or {}
        if record.get("status") != "finished":
            return _error(409, "the replay opens once the game is over")
        return JSONResponse(replay_data(record))

    async def socket(websocket: WebSocket) -> None:
        game_id = websocket.path_params["game_id"]
        await websocket.accept()
        try:
            first = json.loads(await websocket.receive_text())
            host, links = hosted(game_id)
            who = viewer_of(links, str(first.get("token") if isinstance(first, dict) else ""))
        except (HTTPException, TokenError, ValueError, AttributeError):
            await websocket.close(code=4403, reason="this link does not open this game")
            return
        version = -1
        try:
            while True:
                if host.version != version:
                    version = host.version
                    await websocket.send_json(page_state(host.game_id, host.game, host.players, host.state(), who))
                await asyncio.sleep(POLL_SECONDS)
        except (WebSocketDisconnect, RuntimeError):
            return

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return _error(error.status_code, str(error.detail))

    routes = [
        Route("/", create_page),
        Route("/table/{game_id}", table_page),
        Route("/replay/{game_id}", replay_page),
        Route("/api/options", options),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game_id}/state", state),
        Route("/api/games/{game_id}/answer", answer, methods=["POST"]),
        Route("/api/games/{game_id}/replay", replay),
        WebSocketRoute("/ws/{game_id}", socket),
        Mount("/static", StaticFiles(directory=str(PAGES)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error})
    app.state.tables = tables
    return app
