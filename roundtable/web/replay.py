"""A game told afterwards: the browser's table stepped through, with what every player thought.

`replay_data(record)` turns a game record (`roundtable.store.records.build_record`) into the replay's frames: after
each entry of the log that the table shows (every entry but the analysis-only ones), the board as it then stood
(`roundtable.games.protocol.GameRules.board` of the whole log so far: roles are shown, the game being over), the
narrator's line, and the decisions taken at that step with each agent's private thoughts (its modules' outputs),
its raw reply, the checks it ran, any fallback and the cost of its calls. Beside the frames: the belief probe's
answers against the roles dealt (docs/measures.md#deduction-accuracy), the judge's summaries where the record was
judged (docs/judge.md), and the game's cost.

`replay_html(record)` is the same view as one self-contained HTML file (the table's script and style inline, no
network needed): what ``roundtable replay`` writes and the browser's replay shows (docs/browser.md#the-replay).
"""

from __future__ import annotations

import json
from html import escape
from pathlib import Path
from typing import Any

from jinja2 import UndefinedError

from roundtable.games import GAMES, LEGACY_GAME
from roundtable.judge.run import judge_summaries, judged_record, records_dir
from roundtable.judge.store import judge_models
from roundtable.prompts.narrator import narrate_or_plain, plain_line, variants_of
from roundtable.store import paths
from roundtable.web.views import PAGES, role_titles

DATA_MARK = "/*REPLAY_DATA*/null"
SCRIPT_MARK = "/*TABLE_SCRIPT*/"
STYLE_MARK = "/*TABLE_STYLE*/"


def _line(game: str, event: dict[str, Any], variants: dict[str, str]) -> str | None:
    """The narrator's line of an entry, or a plain one where the record lacks a field the narrator tells (a
    hand-built or damaged record is replayed, not refused)."""
    try:
        return narrate_or_plain(game, event, None, variants)
    except UndefinedError:
        return plain_line(event)


def _decision(event: dict[str, Any]) -> dict[str, Any]:
    usage = event.get("usage") or {}
    return {"player": event.get("player"), "kind": event.get("kind"), "agent": event.get("agent"),
            "thoughts": list(event.get("thoughts") or []), "raw": event.get("raw"),
            "checks": list(event.get("checks") or []), "fallback": event.get("fallback"),
            "calls": usage.get("calls", 0), "prompt_tokens": usage.get("prompt_tokens", 0),
            "completion_tokens": usage.get("completion_tokens", 0), "seconds": usage.get("seconds", 0.0),
            "prompts": [{"module": call.get("module"), "prompt": call.get("prompt"), "reply": call.get("reply")}
                        for call in usage.get("log") or []]}


def beliefs_against_truth(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The belief probe's answers beside the truth: ``[{"player", "about", "p_good", "side"}]``, one per
    probability a probed player gave, ``side`` the side ``about`` was dealt (``None`` if the record lacks it)."""
    sides = {str(p): side for p, side in (record.get("sides") or {}).items()}
    for event in record.get("events") or []:
        if event.get("type") == "role":
            sides[str(event.get("player"))] = event.get("side")
    out = []
    for player, beliefs in sorted((record.get("beliefs") or {}).items(), key=lambda item: int(item[0])):
        for about, p in sorted((beliefs or {}).items(), key=lambda item: int(item[0])):
            out.append({"player": int(player), "about": int(about), "p_good": p, "side": sides.get(str(about))})
    return out


def judge_labels(record: dict[str, Any]) -> tuple[dict[int, list[dict[str, Any]]], list[dict[str, Any]]]:
    """The judge's labels of a judged record (docs/judge.md), by every judge model that judged it completely:
    ``({event index: [{"model", "behaviour", "answer": {field: choice}}]}, [the same for the labels of a player,
    with its "player"]}``); ``({}, [])`` when the record was not judged."""
    by_event: dict[int, list[dict[str, Any]]] = {}
    by_player: list[dict[str, Any]] = []
    game_id = str(record.get("game_id") or "")
    for model in judge_models(records_dir(), game_id) if game_id else []:
        judged = judged_record(records_dir(), record, model)
        for behaviour, answers in (judged.answers if judged is not None else {}).items():
            for key, answer in answers.items():
                label = {"model": model, "behaviour": behaviour, "answer": dict(answer or {})}
                if key.startswith("u") and key[1:].isdigit():
                    by_event.setdefault(int(key[1:]), []).append(label)
                elif key.startswith("p") and key[1:].isdigit():
                    by_player.append(label | {"player": int(key[1:])})
    return by_event, by_player


def replay_data(record: dict[str, Any]) -> dict[str, Any]:
    """The replay of a game record.

    Returns:
        ``{"game_id", "game", "title", "status", "winner", "reason", "players", "seats": [{"player", "kind",
        "model", "role"}], "frames": [{"index", "text", "private", "board", "decisions": [...]}], "beliefs"
        (`beliefs_against_truth`), "judge": [summary lines], "judged_players": [a player's labels, `judge_labels`],
        "cost": {"calls", "prompt_tokens",
        "completion_tokens", "seconds"}}``; a frame's decisions are those the analysis-only entries after it
        record, each with ``thoughts``, ``raw``, ``checks``, ``fallback``, its calls, tokens and seconds, and
        its prompts; its ``labels``, the judge's of the entry's words (`judge_labels`).
    """
    game = record.get("game") or LEGACY_GAME
    rules = GAMES[game]
    events = list(record.get("events") or [])
    players = len(record.get("seats") or [])
    variants = variants_of(events)
    shown: list[dict[str, Any]] = []
    frames: list[dict[str, Any]] = []
    try:
        labels, judged_players = judge_labels(record)
        judged = judge_summaries(records_dir(), record)
    except (OSError, ValueError):
        labels, judged_players, judged = {}, [], []
    for index, event in enumerate(events):
        if event.get("to") == []:
            if event.get("type") == "decision" and frames:
                frames[-1]["decisions"].append(_decision(event))
            continue
        shown.append(event)
        frames.append({"index": index, "text": _line(game, event, variants), "private":
                       event.get("to") is not None, "board": rules.board(shown, players).model_dump(mode="json"),
                       "decisions": [], "labels": labels.get(index, [])})
    titles = role_titles(game, events)
    seats = [{"player": p, "kind": seat.get("kind"), "model": seat.get("model"), "role": titles.get(p)}
             for p, seat in enumerate(record.get("seats") or [], start=1)]
    usage = record.get("usage") or {}
    return {"game_id": record.get("game_id"), "game": game, "title": rules.game_title,
            "status": record.get("status"), "winner": record.get("winner"), "reason": record.get("end_reason"),
            "players": players, "seats": seats, "frames": frames, "beliefs": beliefs_against_truth(record),
            "judge": judged, "judged_players": judged_players, "cost": {key: usage.get(key, 0) for key in
                                      ("calls", "prompt_tokens", "completion_tokens", "seconds")}}


def _inline(text: str) -> str:
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def replay_html(record: dict[str, Any] | None) -> str:
    """The replay of a game record as one HTML document (no external resources); ``None``: the page without its
    data, which it fetches with its link's token (the browser's replay)."""
    page = PAGES.joinpath("replay.html").read_text(encoding="utf-8")
    script = PAGES.joinpath("table.js").read_text(encoding="utf-8")
    style = PAGES.joinpath("table.css").read_text(encoding="utf-8")
    data = _inline(json.dumps(replay_data(record), ensure_ascii=False)) if record is not None else "null"
    title = escape(f"{record.get('game') or 'game'} {record.get('game_id')}") if record is not None else "a game"
    return (page.replace("{{TITLE}}", title).replace(STYLE_MARK, style).replace(SCRIPT_MARK, _inline(script))
            .replace(DATA_MARK, data))


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
