"""What a person at a human seat is shown: the ``interrupt`` payload of one decision.

Exactly the player's view (its role, what it learned at the start, and the
events it may see that it was not shown before, told as the table's
transcript tells them, with speakers) and the request with its legal options
and the answer shape.
"""

from __future__ import annotations

from typing import Any

from roundtable.agents.human.answer import answer_keys, example_answer
from roundtable.games.protocol import PlayerView, Request
from roundtable.prompts.narrator import narrate

PERSON_MARK = "human"
"""The payload's ``type``: an interrupt that waits for a person's answer (not a breakpoint)."""


def _asked(request: Request) -> str:
    what = request.kind.replace("_", " ")
    if request.answer == "pick":
        n = request.count or 0
        text = f"{what}: name {n} player{'s' if n != 1 else ''} of {', '.join(map(str, request.candidates))}"
        return text + (" (or pass)" if request.may_pass else "")
    if request.answer == "yes_no":
        return f"{what}: answer {' or '.join(request.word(c) for c in request.allowed)}"
    return f"{what}: say your words"


def question(view: PlayerView, request: Request, error: str | None = None) -> dict[str, Any]:
    """The interrupt payload asking ``view.player`` for ``request``.

    Returns:
        ``{"type": "human", "player", "game", "role", "side", "knowledge", "round", "phase",
        "narration": [lines of the events new to the player], "request": dumped Request,
        "question": one line saying what is asked and the legal answers, "keys": the resume payload's keys,
        "example": a legal resume payload, "error": why the previous answer was refused, or None}``.
    """
    lines = [text for e in view.events if (text := narrate(view.game, e, None, view.rules))]
    return {
        "type": PERSON_MARK,
        "player": view.player,
        "game": view.game,
        "role": view.role,
        "side": view.side,
        "knowledge": list(view.knowledge),
        "round": view.round,
        "phase": view.phase,
        "narration": lines,
        "request": request.model_dump(mode="json"),
        "question": _asked(request),
        "keys": sorted(answer_keys(request)),
        "example": example_answer(request),
        "error": error,
    }


def is_question(value: Any) -> bool:
    """Whether an interrupt's value is a person's question (`question`), not a breakpoint."""
    return isinstance(value, dict) and value.get("type") == PERSON_MARK and "request" in value
