"""The per-game JSON record (SPEC.md §1.3), written under ``<data dir>/records/``.

A record holds everything the metrics need, computed from the event log with
no model: roles, each proposal with leader and team, every vote, every quest
card by player, outcomes, the assassination, winner and end reason, every
utterance with speaker, phase and visibility, and every decision with the raw
model text, the parsed action and whether a fallback was used.
"""

from __future__ import annotations

import json
import os
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from . import paths

RECORD_VERSION = 1


def _of(events: list[dict[str, Any]], kind: str, *keys: str) -> list[dict[str, Any]]:
    return [{k: e.get(k) for k in keys} for e in events if e["type"] == kind]


def build_record(game_id: str, values: dict[str, Any], status: str, game_name: str = "avalon") -> dict[str, Any]:
    """The record of a game from the game graph's state values.

    Args:
        game_name: the game's name (`roundtable.games.GAMES`).
        game_id: the game's id (its checkpoint thread id).
        values: the graph state (``config``, ``seed``, ``seats``, ``game``, ``events``).
        status: ``finished``, ``running`` or ``interrupted``.

    Returns:
        A JSON-ready dict; ``events`` is the complete log, the other keys are
        views of it for convenience.
    """
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
        "updated": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "seed": values.get("seed"),
        "config": values.get("config"),
        "seats": values.get("seats"),
        "roles": {str(p): r for p, r in enumerate(roles, start=1)},
        "winner": over["winner"] if over else None,
        "end_reason": over["reason"] if over else None,
        "proposals": _of(events, "proposal", "round", "attempt", "leader", "team", "final"),
        "votes": _of(events, "vote", "round", "attempt", "player", "approve"),
        "vote_results": _of(events, "vote_result", "round", "attempt", "team", "approvals", "approved"),
        "quest_cards": _of(events, "quest_card", "round", "player", "success"),
        "quests": _of(events, "quest_result", "round", "team", "fails", "fails_needed", "success"),
        "assassination": next(iter(_of(events, "assassination", "assassin", "target", "hit")[-1:]), None),
        "utterances": _of(events, "utterance", "speaker", "phase", "round", "attempt", "text", "to"),
        "decisions": [{k: v for k, v in e.items() if k not in ("type", "to")} for e in events if e["type"] == "decision"],
        "usage": usage_totals(events),
        "usage_by_module": module_totals(events),
        "events": events,
    }


def record_path(game_id: str) -> Path:
    """Where the record of ``game_id`` lives."""
    return paths.records_dir() / f"{game_id}.json"


def write_record(record: dict[str, Any]) -> Path:
    """Write ``record`` atomically (temp file, then rename) and return its path."""
    path = record_path(record["game_id"])
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1, ensure_ascii=False))
    os.replace(tmp, path)
    return path


def read_record(game_id: str) -> dict[str, Any] | None:
    """The stored record of ``game_id``, or ``None``."""
    path = record_path(game_id)
    return json.loads(path.read_text()) if path.exists() else None


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def list_records() -> list[dict[str, Any]]:
    """Every stored record's summary (id, status, winner, reason, updated), newest first.

    A game recorded as ``running`` whose process is gone (killed) is listed as ``interrupted``.
    """
    out = []
    for path in paths.records_dir().glob("*.json"):
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError):
            continue
        summary = {k: data.get(k) for k in ("game_id", "status", "winner", "end_reason", "updated", "seed")}
        if summary["status"] == "running" and not _alive(data.get("pid")):
            summary["status"] = "interrupted"
        out.append(summary | {"preset": (data.get("config") or {}).get("preset")})
    return sorted(out, key=lambda r: r["updated"] or "", reverse=True)


USAGE_FIELDS = ("calls", "failures", "prompt_tokens", "completion_tokens", "cached_tokens", "seconds")


def usage_totals(events: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Model cost per player and for the game, summed from the decision records.

    Returns:
        ``{"1": {...}, ..., "game": {...}}`` with the fields of `USAGE_FIELDS`
        plus ``decisions`` and ``fallbacks`` (counts).
    """
    totals: dict[str, dict[str, float]] = {}
    for e in events:
        if e["type"] != "decision":
            continue
        for key in (str(e["player"]), "game"):
            row = _add_usage(totals, key, e.get("usage") or {}, ("decisions", "fallbacks"))
            row["decisions"] += 1
            row["fallbacks"] += 1 if e.get("fallback") else 0
    return totals


def module_totals(events: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Model cost per agent module (``summarize``, ``analyze``, ``act``, ...), summed over the game's decisions.

    Returns:
        ``{module: {field of USAGE_FIELDS: sum}}``; empty when no decision
        recorded a per-module breakdown (rule-based agents).
    """
    totals: dict[str, dict[str, float]] = {}
    for e in events:
        if e["type"] != "decision":
            continue
        for module, usage in ((e.get("usage") or {}).get("modules") or {}).items():
            _add_usage(totals, module, usage)
    return totals


def _add_usage(totals: dict[str, dict[str, float]], key: str, usage: dict[str, Any],
               counters: tuple[str, ...] = ()) -> dict[str, float]:
    """Add ``usage``'s `USAGE_FIELDS` to row ``key`` of ``totals`` (created with ``counters`` at 0); return the row."""
    row = totals.setdefault(key, dict.fromkeys((*USAGE_FIELDS, *counters), 0))
    for name in USAGE_FIELDS:
        row[name] += usage.get(name, 0)
    return row
