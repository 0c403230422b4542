"""What a browser page is sent: the table as one viewer may see it, in JSON.

A seat's page gets exactly what its player may know (the log entries it can see, `roundtable.games.protocol.can_see`,
the same ones the agents' views hold): its role card and knowledge, the board of those entries
(`roundtable.games.protocol.GameRules.board`), the record told by the game's narrator, and, when the game waits for
it, the question with only its legal answers. A spectator gets the public entries only (``to`` is ``None``) until
the game is over; then every page gets the whole log (roles revealed). Analysis-only entries (``to == []``: the
agents' decisions, prompts and thoughts) are never in a live page; the replay shows them after the game
(`roundtable.web.replay`). Nothing else of the game's state is read, so a page can hold no more than its log.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from roundtable.agents.human.answer import MAX_WORDS_CHARS
from roundtable.games import GAMES
from roundtable.games.protocol import Event, Request, can_see
from roundtable.prompts.narrator import narrate_or_plain, variants_of
from roundtable.web.host import HostState
from roundtable.web.links import Viewer

PAGES = files("roundtable.web").joinpath("pages")
"""The pages' files: ``create.html``, ``table.html``, ``replay.html``, ``table.js``, ``table.css``."""
FAILED_NOTE = "The game stopped on an error; it continues from its last checkpoint when the server starts again."
"""What a page says of a game stopped by an error (the error itself is in the server's log only)."""


def game_over(events: Sequence[Event]) -> Event | None:
    """The log's ``game_over`` entry, or ``None`` while the game goes on."""
    return next((e for e in events if e.get("type") == "game_over"), None)


def shown_indices(events: Sequence[Event], viewer: Viewer) -> list[int]:
    """The positions in ``events`` of the entries a viewer's page shows: a seat's visible entries, a spectator's
    public ones; once the game is over, every entry but the analysis-only ones."""
    if game_over(events) is not None:
        return [i for i, e in enumerate(events) if e.get("to") != []]
    if viewer is None:
        return [i for i, e in enumerate(events) if e.get("to") is None]
    return [i for i, e in enumerate(events) if can_see(e, viewer)]


def role_titles(game: str, events: Sequence[Event]) -> dict[int, str]:
    """``{player: role in words}`` of the ``role`` entries among ``events``."""
    rules = GAMES[game]
    return {int(e["player"]): rules.role_title(str(e["role"])) for e in events if e.get("type") == "role"}


def role_card(game: str, events: Sequence[Event], player: int) -> dict[str, Any] | None:
    """Seat ``player``'s role card from its private entries: ``{"player", "role"}`` (the role in words),
    ``"side"`` and ``"knowledge"`` (the narrator's line of what it learned at the start, or ``None``); ``None``
    before the deal."""
    rules = GAMES[game]
    role = next((e for e in events if e.get("type") == "role" and e.get("player") == player), None)
    if role is None:
        return None
    known = next((e for e in events if e.get("type") == "knowledge" and e.get("player") == player), None)
    knowledge = narrate_or_plain(game, known, None, variants_of(events)) if known is not None else None
    return {"player": player, "role": rules.role_title(str(role["role"])), "side": role.get("side"),
            "knowledge": knowledge}


def question_of(payload: dict[str, Any]) -> dict[str, Any]:
    """A human seat's question as its page is sent it: the request's id, kind and answer shape with only its
    legal answers (``count`` and ``candidates`` of a pick, ``may_pass``; the allowed ``words`` of a yes/no), whether
    words are asked for and their limit (``max_chars``), the line saying what is asked, and why the last answer was
    refused (``error``)."""
    request = Request.model_validate(payload["request"])
    return {"request_id": request.id, "kind": request.kind, "answer": request.answer, "count": request.count,
            "candidates": list(request.candidates), "may_pass": request.may_pass,
            "words": [request.word(c) for c in request.allowed] if request.answer == "yes_no" else [],
            "wants_words": request.wants_words or request.answer == "words", "max_chars": MAX_WORDS_CHARS,
            "question": payload.get("question"), "error": payload.get("error")}


def page_state(game_id: str, game: str, players: int, state: HostState, viewer: Viewer) -> dict[str, Any]:
    """Everything one page shows of a game now.

    Args:
        game_id: the game's id.
        game: its game's name.
        players: its player count.
        state: its host's state (`roundtable.web.host.HostState`).
        viewer: the page's seat, ``None`` for a spectator.

    Returns:
        ``{"game_id", "game", "title", "players", "viewer", "version", "status", "note", "over", "winner",
        "reason", "board" (`roundtable.games.board.Board` as JSON), "record" (``[{"index": position in the log,
        "text": the narrator's line, "private": only some players may see it}]``, speakers named), "card"
        (`role_card`, a seat's only), "question" (`question_of`, when the game waits for this seat)}``.
    """
    rules = GAMES[game]
    indices = shown_indices(state.events, viewer)
    shown = [state.events[i] for i in indices]
    over = game_over(shown)
    asked = state.questions.get(viewer) if viewer is not None and over is None else None
    return {
        "game_id": game_id, "game": game, "title": rules.game_title, "players": players, "viewer": viewer,
        "version": state.version, "status": state.status, "note": FAILED_NOTE if state.status == "failed" else None,
        "over": over is not None, "winner": over.get("winner") if over else None,
        "reason": over.get("reason") if over else None,
        "board": rules.board(shown, players).model_dump(mode="json"),
        "record": [{"index": i, "text": state.lines[i], "private": state.events[i].get("to") is not None}
                   for i in indices if state.lines[i]],
        "card": role_card(game, shown, viewer) if viewer is not None else None,
        "question": question_of(asked) if asked is not None else None,
    }
