"""The per-game JSON record (docs/games/protocol.md#the-event-log), written under ``<data dir>/records/``.

A record holds everything the metrics need, computed from the event log with
no model: roles, each proposal with leader and team, every vote, every quest
card by player, outcomes, the assassination, winner and end reason, every
utterance with speaker, phase and visibility, and every decision with the raw
model text, the parsed action and whether a fallback was used; besides the
log, an Avalon record carries the ``beliefs`` its players stated at the end
(`roundtable.graphs.phases.stated_beliefs`), and every record the
``experience_pools`` its ``cga`` seats played with (`roundtable.metrics.pools`).
Records written before either existed lack the key; readers take its absence
for "none recorded".

While a shared database is in use (`roundtable.store.database.use_database`),
records are read from and written to it instead, as the same JSON text.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from roundtable.games import GAMES, LEGACY_GAME
from roundtable.games.fallbacks import fell_back
from roundtable.store import database, paths
from roundtable.store.locks import is_driven

RECORD_VERSION = 2
"""The record format written now. Version 2 renamed log entries so that each thing has one name (Avalon's team
vote is ``vote_team`` as phase, request kind and log entry; Werewolf's night kill and day elimination are logged
as ``kill`` and ``eliminate``, their request kinds); `upgrade_record` reads version 1."""

POOL_EVENT = "experience_pool"
"""The log entry in which a ``cga`` seat records the experience pool it plays with
(`roundtable.agents.cga.experience.pool_at_start`)."""


def pools_at_start(record: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{player: {"pool", "reads", "games", "experiences"}}`` (player as a string) of every seat that recorded
    its experience pool at the start of the game; ``{}`` for a record without any (no ``cga`` seat, or a
    game recorded before seats recorded their pool)."""
    return {str(e["player"]): {k: e.get(k) for k in ("pool", "reads", "games", "experiences")}
            for e in record.get("events") or [] if e.get("type") == POOL_EVENT}


def build_record(game_id: str, values: dict[str, Any], status: str, game_name: str = "avalon") -> dict[str, Any]:
    """The record of a game from the game graph's state values.

    Args:
        game_name: the game's name (`roundtable.games.GAMES`).
        game_id: the game's id (its checkpoint thread id).
        values: the graph state (``config``, ``seed``, ``seats``, ``game``, ``events``, and ``beliefs``
            once an Avalon game is over).
        status: ``finished``, ``running`` or ``interrupted``.

    Returns:
        A JSON-ready dict; ``events`` is the complete log, the other keys are
        views of it for convenience (the game's own: `GameRules.record_views`), except ``beliefs`` (in a game
        with a belief probe, `GameRules.belief_probe`), the beliefs stated at the end,
        ``{player: {other player: P(good)}}`` (keys as strings) of the good players whose agent kind states one
        (``{}`` before, or when no such player sat); ``experience_pools``: ``{player: {"pool", "reads",
        "games", "experiences"}}`` of each ``cga`` seat at the start.
    """
    rules = GAMES[game_name]
    events: list[dict[str, Any]] = list(values.get("events") or [])
    game = values.get("game") or {}
    over = next((e for e in events if e["type"] == "game_over"), None)
    roles = game.get("roles") or []
    return {
        "version": RECORD_VERSION,
        "game_id": game_id,
        "game": game_name,
        "status": status,
        "pid": os.getpid(),
        "updated": datetime.now(UTC).isoformat(timespec="seconds"),
        "seed": values.get("seed"),
        "config": values.get("config"),
        "seats": values.get("seats"),
        "roles": {str(p): r for p, r in enumerate(roles, start=1)},
        "winner": over["winner"] if over else None,
        "end_reason": over["reason"] if over else None,
        **rules.record_views(events),
        **({"beliefs": dict(values.get("beliefs") or {})} if rules.belief_probe is not None else {}),
        "experience_pools": pools_at_start({"events": events}),
        "decisions": decisions_of(events),
        "usage": usage_totals(events),
        "usage_by_module": module_totals(events),
        "events": events,
    }


def record_path(game_id: str) -> Path:
    """Where the record of ``game_id`` lives (inside the data directory's ``records/``).

    Raises:
        GameIdError: ``game_id`` is not a valid game id.
    """
    return paths.inside(paths.records_dir(), f"{paths.check_game_id(game_id)}.json")


def write_record(record: dict[str, Any]) -> Path | None:
    """Write ``record`` atomically (temp file, then rename) and return its path (``None``: written to the shared
    database in use, where a finished record is never replaced by an unfinished one)."""
    shared = database.active()
    if shared is not None:
        paths.check_game_id(record["game_id"])
        shared.write_record(record)
        return None
    path = record_path(record["game_id"])
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1, ensure_ascii=False))
    os.replace(tmp, path)
    return path


def has_records() -> bool:
    """Whether the store in use may hold records: a shared database, or a data directory with ``records/``
    (nothing is created to find out)."""
    return database.active() is not None or (paths.home_path() / "records").is_dir()


class RecordError(ValueError):
    """A stored record cannot be read (not UTF-8, not JSON, not an object); the message names the file."""


def read_record(game_id: str) -> dict[str, Any] | None:
    """The stored record of ``game_id``, or ``None`` (also when there is no data directory: nothing is created).

    Raises:
        RecordError: the record file exists but cannot be read as a record.
    """
    shared = database.active()
    if shared is not None:
        stored = shared.read_record(paths.check_game_id(game_id))
        return None if stored is None else upgrade_record(stored)
    if not (paths.home_path() / "records").is_dir():
        return None
    path = record_path(game_id)
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RecordError(f"{path} is not a readable record: {error}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} is not a readable record: a JSON {type(data).__name__}, not an object")
    return upgrade_record(data)


def upgrade_record(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` in the current format (`RECORD_VERSION`): a record of an older version gets the names its
    game's log entries have now (`GameRules.renamed_events`) in its log and in the views built from it; a current
    record, or one of an unknown game, is returned as it is."""
    rules = GAMES.get(str(record.get("game") or LEGACY_GAME))
    if int(record.get("version") or 1) >= RECORD_VERSION or rules is None or not isinstance(record.get("events"), list):
        return record
    renamed = rules.renamed_events
    events = [{**event, "type": renamed.get(event.get("type"), event.get("type"))} for event in record["events"]]
    views = rules.record_views(events) if record.get("status") is not None else {}
    return {**record, **views, "version": RECORD_VERSION, "events": events, "decisions": decisions_of(events)}


def decisions_of(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The record's ``decisions``: every decision log entry without its ``type`` and ``to``."""
    return [{k: v for k, v in e.items() if k not in ("type", "to")} for e in events if e["type"] == "decision"]


def list_records() -> list[dict[str, Any]]:
    """Every stored record's summary (id, status, winner, reason, updated), newest first.

    A game recorded as ``running`` that no process drives now (it was killed) is
    listed as ``interrupted``; a record that cannot be read is listed with
    status ``unreadable`` and the problem, instead of failing the whole list.
    """
    out = []
    shared = database.active()
    stored = ([(game_id, text, f"{shared.where} {game_id}") for game_id, text in shared.records()]
              if shared is not None else
              [(path.stem, path, str(path)) for path in paths.records_dir().glob("*.json")])
    for game_id, source, where in stored:
        try:
            text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
            summary = _summary(json.loads(text))
        except (OSError, UnicodeDecodeError, ValueError) as error:  # JSONDecodeError is a ValueError
            out.append({"game_id": game_id, "status": "unreadable", "winner": None, "end_reason": None,
                        "updated": "", "seed": None, "preset": None, "problem": f"{where}: {error}"})
            continue
        if summary["status"] == "running" and not is_driven(summary["game_id"]):
            summary["status"] = "interrupted"
        out.append(summary)
    return sorted(out, key=lambda r: r["updated"] or "", reverse=True)


def _summary(data: Any) -> dict[str, Any]:
    """A record's summary fields, checked.

    Raises:
        ValueError: the record is not an object, or a field has the wrong type (named).
    """
    if not isinstance(data, dict):
        raise ValueError(f"a record is a JSON object, not {type(data).__name__}")
    types: dict[str, type | tuple[type, ...]] = {
        "game_id": str, "status": str, "winner": (str, type(None)), "end_reason": (str, type(None)),
        "updated": (str, type(None)), "seed": (int, type(None)), "config": (dict, type(None))}
    for key, kind in types.items():
        if not isinstance(data.get(key), kind):
            raise ValueError(f"field {key!r} is {data.get(key)!r}")
    summary = {k: data.get(k) for k in ("game_id", "status", "winner", "end_reason", "updated", "seed")}
    return summary | {"preset": (data.get("config") or {}).get("preset")}


USAGE_FIELDS = ("calls", "failures", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds")


def usage_totals(events: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Model cost per player and for the game, summed from the decision records.

    Returns:
        ``{"1": {...}, ..., "game": {...}}`` with the fields of `USAGE_FIELDS`
        plus ``decisions`` and ``fallbacks`` (counts; a fallback is a decision `fell_back` counts, so the plain
        words said when the agent's own check dropped every sentence are not one).
    """
    totals: dict[str, dict[str, float]] = {}
    for e in events:
        if e["type"] != "decision":
            continue
        for key in (str(e["player"]), "game"):
            row = _add_usage(totals, key, e.get("usage") or {}, ("decisions", "fallbacks"))
            row["decisions"] += 1
            row["fallbacks"] += 1 if fell_back(e) else 0
    return totals


def module_totals(events: list[dict[str, Any]], by_kind: bool = False) -> dict[Any, dict[str, float]]:
    """Model cost per agent module (``summarize``, ``analyze``, ``act``, ...), summed over the game's decisions.

    Args:
        events: the game's events; only ``decision`` events count.
        by_kind: key each row by ``(request kind, module)`` instead, e.g. ``("vote_team", "act")``.

    Returns:
        ``{module: {field of USAGE_FIELDS: sum}}``; empty when no decision
        recorded a per-module breakdown (rule-based agents).
    """
    totals: dict[Any, dict[str, float]] = {}
    for e in events:
        if e["type"] != "decision":
            continue
        for module, usage in ((e.get("usage") or {}).get("modules") or {}).items():
            _add_usage(totals, (e["kind"], module) if by_kind else module, usage)
    return totals


def _add_usage(totals: dict[Any, dict[str, float]], key: Any, usage: dict[str, Any],
               counters: tuple[str, ...] = ()) -> dict[str, float]:
    """Add ``usage``'s `USAGE_FIELDS` to row ``key`` of ``totals`` (created with ``counters`` at 0); return the row."""
    row = totals.setdefault(key, dict.fromkeys((*USAGE_FIELDS, *counters), 0))
    for name in USAGE_FIELDS:
        row[name] += usage.get(name, 0)
    return row
