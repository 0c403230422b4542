"""Reading a request's answer from a model's reply, for every model-driven kind.

The schema path gives the answer directly; otherwise a labelled ``Choice:``
line is read; otherwise the extractor (temperature 0, worked examples, template
``extraction/<answer shape>``) reads the prose. A ``pick`` then goes through the
pick rules at once (`settle`), because too few players named is asked for again
by the node that asked; what cannot be read falls to the fallback rules (docs/games/protocol.md).
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

from roundtable.agents.common.extraction import extract
from roundtable.games.fallbacks import choose_pick
from roundtable.games.protocol import Request
from roundtable.prompts.rendering import PromptContext

REPLY_CHARS = 1200
"""Longest reply passed to the extractor, in characters."""


def extract_action(extractor: BaseChatModel, context: PromptContext, request: Request, players: int, reply: str,
                   structured: bool) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
    """Run the extractor (template ``extraction/<answer shape>``, rendered through ``context``) on a prose reply.

    Args:
        extractor: the chat model that reads the reply (temperature 0, a short cap).
        context: the kind's prompt context (its overrides of the extraction templates).
        request: the request answered.
        players: how many players the game has.
        reply: the model's prose.
        structured: ask the extractor for schema-constrained output.

    Returns:
        ``(answer or {}, [extractor's raw answer], [usage record])``; nothing
        is called (empty lists) when the reply is empty or the request asks for words only.
    """
    if request.answer == "words" or not reply.strip():
        return {}, [], []
    prompt = context.render(
        f"extraction/{request.answer}",
        reply=" ".join(reply.split())[:REPLY_CHARS].replace('"', "'"),
        kind=request.kind,
        count=request.count or 0,
        players=players,
        candidates=list(request.candidates),
        may_pass=request.may_pass,
        options=list(request.options),
    )
    action, raw, usage = extract(extractor, request, players, prompt,
                                 system=context.render("extraction/system"), structured=structured)
    return action, [f"(extractor) {raw}"], [usage]


def settle(request: Request, seed: int, retries: int, action: dict[str, Any], attempt: int) -> dict[str, Any]:
    """State update once a reply has been read: the answer, or a request to ask again.

    For a ``pick``, the pick rules run now (`choose_pick`): a legal answer is
    kept (the first legal players when too many were named), too few are asked
    for again while retries are left (``retries`` in all, ``attempt`` used so
    far), then filled at random from ``seed`` (or passed, where passing is allowed).

    Returns:
        ``{"action", "retry", "attempts"[, "problems"]}``.
    """
    update: dict[str, Any] = {"attempts": attempt + 1, "retry": False}
    if request.answer != "pick":
        update["action"] = dict(action)
        return update
    choice = choose_pick(request, action.get("players"), seed, passed=bool(action.get("passed")),
                         retries_left=retries - attempt, attempt=attempt)
    if choice.retry:
        update.update(action=None, retry=True)
        return update
    update["action"] = {"players": list(choice.players)} if choice.players is not None else {"passed": True}
    if choice.fallback:
        update["problems"] = [choice.fallback]
    return update
