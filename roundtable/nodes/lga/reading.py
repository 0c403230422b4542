"""Reading the action from the act or respond reply, shared by both nodes.

The schema path gives the action directly; otherwise a labelled ``Choice:``
line is read; otherwise the extractor (temperature 0, worked examples) reads
the prose. Team answers then go through the team rules at once, because a
too-short team is asked for again (``retry``) by the node that asked.
"""

from __future__ import annotations

from typing import Any

from roundtable.games.avalon import Request
from roundtable.games.avalon.fallbacks import choose_team
from roundtable.tools.extraction import action_kind, extract
from roundtable.tools.model_calls import ModelProvider

from .calls import extractor_model
from .turn import Turn

REPLY_CHARS = 1200
"""Longest reply passed to the extractor, in characters."""


def is_forced(request: Request) -> bool:
    """A request with only one legal answer, which needs no model: a good player's quest card."""
    return request.kind == "quest_card" and request.cards == (True,)


def choice_help(request: Request, json: bool) -> str:
    """How the answer's choice is to be written, for the act and respond templates."""
    kind = action_kind(request)
    if kind == "team":
        return (f'"team": a list of exactly {request.team_size} different player numbers' if json
                else f"exactly {request.team_size} different player numbers, e.g. 2, 5")
    if kind == "vote":
        return ('"reason": one short sentence weighing the team (whom on it do you trust or suspect?), '
                'then "vote": "approve" or "reject"') if json else "approve or reject"
    if kind == "quest_card":
        options = "success" if request.cards == (True,) else "success or fail"
        return f'"card": {options}' if json else options
    if kind == "target":
        tail = " (0 to pass)" if request.may_pass else ""
        return f'"target": a player number{tail}' if json else f"one player number{tail}"
    return "nothing"


def describe(request: Request, action: dict[str, Any] | None) -> str:
    """The chosen action in words, for the response prompt (``""`` when there is none)."""
    if not action:
        return ""
    if "team" in action and action["team"]:
        verb = "suggest" if request.kind == "speak" else "propose"
        return f"{verb} players {', '.join(map(str, action['team']))}"
    if action.get("approve") is not None:
        return "approve the team" if action["approve"] else "reject the team"
    if action.get("success") is not None:
        return "play success" if action["success"] else "play fail"
    if action.get("passed"):
        return "pass for now"
    if action.get("target") is not None:
        return f"name Player {action['target']} as Merlin"
    return ""


def retry_note(request: Request, players: int, attempt: int) -> str:
    """What the Host says when asking again for a team (``""`` on the first try)."""
    if attempt == 0 or request.team_size is None:
        return ""
    return (f"Host: your last answer did not name {request.team_size} different players from 1 to {players}. "
            f"Name exactly {request.team_size}.")


def extract_action(
    models: ModelProvider, turn: Turn, reply: str, structured: bool
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """Run the extractor on a prose reply.

    Returns:
        ``(action fields or {}, [extractor's raw answer], [usage record])``;
        nothing is called (empty lists) when the reply is empty or the request asks for words only.
    """
    request = turn.request
    kind = action_kind(request)
    if kind is None or not reply.strip():
        return {}, [], []
    prompt = turn.context.render(
        f"extraction/{kind}",
        reply=" ".join(reply.split())[:REPLY_CHARS].replace('"', "'"),
        team_size=request.team_size or 0,
        players=turn.view.players,
        candidates=list(request.candidates),
        may_pass=request.may_pass,
    )
    action, raw, usage = extract(
        extractor_model(models, turn), request, turn.view.players, reply, prompt, structured=structured
    )
    return action, [f"(extractor) {raw}"], [usage]


def settle(turn: Turn, action: dict[str, Any], attempt: int) -> dict[str, Any]:
    """State update once a reply has been read: the action, or a request to ask again.

    For a team, the team rules run now (`choose_team`): a legal team is kept
    (the first legal players when too many were named), a too-short one is
    asked for again while retries are left, then filled at random.

    Returns:
        ``{"action", "retry", "attempts"[, "problems"]}``.
    """
    request = turn.request
    update: dict[str, Any] = {"attempts": attempt + 1, "retry": False}
    if action_kind(request) != "team":
        update["action"] = dict(action)
        return update
    choice = choose_team(
        request, action.get("team"), turn.seed, retries_left=turn.options.retries - attempt, attempt=attempt
    )
    if choice.retry:
        update.update(action=None, retry=True)
        return update
    update["action"] = {"team": list(choice.team or ())}
    if choice.fallback:
        update["problems"] = [choice.fallback]
    return update
