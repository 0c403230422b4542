"""How any request's answer is asked for, by answer shape, in every game: the request's fields for the templates,
how the choice is written (template ``answers/choice_help``) and the Host's note when too few players were named
(``answers/retry_note``)."""

from __future__ import annotations

from typing import Any

from roundtable.games.protocol import Request
from roundtable.prompts.rendering import PromptContext


def request_variables(request: Request, team_knowledge: str = "") -> dict[str, Any]:
    """The request's fields for the instruction and answer templates.

    Args:
        request: the request in hand.
        team_knowledge: what the player's knowledge and the record say about the team in hand (Avalon's
            `roundtable.tables.avalon.AvalonTable.team_knowledge`; ``""`` elsewhere).
    """
    r = request
    return {
        "kind": r.kind,
        "answer": r.answer,
        "count": r.count,
        "team_size": r.count,
        "team": list(r.subject),
        "candidates": list(r.candidates),
        "final": bool(r.details.get("final")),
        "may_pass": r.may_pass,
        "options": list(r.options),
        "allowed": [r.word(c) for c in r.allowed],
        "audience": list(r.audience) if r.audience is not None else None,
        "wants_words": r.wants_words,
        "team_knowledge": team_knowledge,
    }


def choice_help(context: PromptContext, variables: dict[str, Any], json: bool, reason: bool = False) -> str:
    """How the answer's choice is to be written (template ``answers/choice_help``).

    Args:
        context: the kind's prompt context.
        variables: `request_variables`.
        json: the answer is a JSON object (else prose).
        reason: a one-sentence reason comes first.
    """
    return context.render("answers/choice_help", **variables, reason=reason, format="json" if json else "prose")


def retry_note(context: PromptContext, request: Request, players: int, attempt: int) -> str:
    """What the Host says when asking again for players (``""`` on the first try or for any other answer shape)."""
    if attempt == 0 or request.answer != "pick":
        return ""
    return context.render("answers/retry_note", count=request.count, players=players)
