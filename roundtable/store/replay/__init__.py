"""The replay page: a finished or unfinished game as one self-contained HTML file (``roundtable replay``).

`replay_html(record)` fills the page template (``page.html``: its style and script inline, no network
needed) with the game's record: the seats, every event with the narrator's line for it, and the model
decisions (prompt, raw reply, parsed action, fallback, cost per call). The page steps through the events:
the table (seats, roles shown or hidden by a toggle, leader, team, votes, quest track) as it stood after
each step, the transcript so far, and the decision made at that step.
"""

from __future__ import annotations

import json
from html import escape
from importlib.resources import files
from pathlib import Path
from typing import Any

from roundtable.games import LEGACY_GAME
from roundtable.prompts.narrator import narrate
from roundtable.store import paths

PLACEHOLDER = "/*GAME_DATA*/null"


def page_data(record: dict[str, Any]) -> dict[str, Any]:
    """What the page shows, from a game record (`roundtable.store.records.build_record`).

    Returns:
        ``{"game_id", "game", "status", "winner", "end_reason", "seats", "players", "fork_of",
        "events": [event | {"text": narrator line or None}]}``.
    """
    events = list(record.get("events") or [])
    game = record.get("game") or LEGACY_GAME
    rules = next((e.get("rules") for e in events if e.get("type") == "game_start"), None) or {}
    shown = []
    for event in events:
        text = narrate(game, event, None, rules)
        shown.append(event | {"text": text})
    seats = record.get("seats") or []
    return {"game_id": record.get("game_id"), "game": game, "status": record.get("status"),
            "winner": record.get("winner"), "end_reason": record.get("end_reason"), "seats": seats,
            "players": len(seats), "fork_of": record.get("fork_of"), "events": shown}


def replay_html(record: dict[str, Any]) -> str:
    """The replay page of a game record, as one HTML document (no external resources)."""
    template = files(__package__).joinpath("page.html").read_text(encoding="utf-8")
    data = json.dumps(page_data(record), ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")
    title = escape(f"{record.get('game') or 'game'} {record.get('game_id')}")
    return template.replace("{{TITLE}}", title).replace(PLACEHOLDER, data)


def write_replay(record: dict[str, Any], out: Path | None = None) -> Path:
    """Write the replay page of ``record`` to ``out`` (default ``<data dir>/replays/GAME_ID.html``).

    Returns:
        The file's path.

    Raises:
        GameIdError: the record's game id is not a valid id. OSError: the file cannot be written.
    """
    if out is None:
        directory = paths.home_path() / "replays"
        directory.mkdir(parents=True, exist_ok=True)
        out = paths.inside(directory, f"{paths.check_game_id(str(record.get('game_id')))}.html")
    out.write_text(replay_html(record), encoding="utf-8")
    return out
