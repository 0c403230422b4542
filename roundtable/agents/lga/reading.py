"""Reading the answer from the act or respond reply, shared by both nodes.

The schema path gives the answer directly; otherwise a labelled ``Choice:``
line is read; otherwise the extractor (temperature 0, worked examples) reads
the prose. A ``pick`` then goes through the pick rules at once, because too few
players named is asked for again (``retry``) by the node that asked.
"""

from __future__ import annotations

from typing import Any

from roundtable.games.fallbacks import choose_pick
from roundtable.agents.common.extraction import extract
from roundtable.agents.common.model_calls import ModelProvider

from roundtable.agents.lga.calls import extractor_model
from roundtable.agents.lga.turn import Turn

REPLY_CHARS = 1200
"""Longest reply passed to the extractor, in characters."""


def extract_action(
    models: ModelProvider, turn: Turn, reply: str, structured: bool
) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """Run the extractor (template ``extraction/<answer shape>``) on a prose reply.

    Returns:
        ``(answer or {}, [extractor's raw answer], [usage record])``; nothing
        is called (empty lists) when the reply is empty or the request asks for words only.
    """
    request = turn.request
    if request.answer == "words" or not reply.strip():
        return {}, [], []
    prompt = turn.context.render(
        f"extraction/{request.answer}",
        reply=" ".join(reply.split())[:REPLY_CHARS].replace('"', "'"),
        kind=request.kind,
        count=request.count or 0,
        players=turn.view.players,
        candidates=list(request.candidates),
        may_pass=request.may_pass,
        options=list(request.options),
    )
    action, raw, usage = extract(extractor_model(models, turn), request, turn.view.players, prompt,
                                 system=turn.context.render("extraction/system"), structured=structured)
    return action, [f"(extractor) {raw}"], [usage]


def settle(turn: Turn, action: dict[str, Any], attempt: int) -> dict[str, Any]:
    """State update once a reply has been read: the answer, or a request to ask again.

    For a ``pick``, the pick rules run now (`choose_pick`): a legal answer is
    kept (the first legal players when too many were named), too few are asked
    for again while retries are left, then filled at random (or passed, where
    passing is allowed).

    Returns:
        ``{"action", "retry", "attempts"[, "problems"]}``.
    """
    request = turn.request
    update: dict[str, Any] = {"attempts": attempt + 1, "retry": False}
    if request.answer != "pick":
        update["action"] = dict(action)
        return update
    choice = choose_pick(request, action.get("players"), turn.seed, passed=bool(action.get("passed")),
                         retries_left=turn.options.retries - attempt, attempt=attempt)
    if choice.retry:
        update.update(action=None, retry=True)
        return update
    update["action"] = {"players": list(choice.players)} if choice.players is not None else {"passed": True}
    if choice.fallback:
        update["problems"] = [choice.fallback]
    return update
