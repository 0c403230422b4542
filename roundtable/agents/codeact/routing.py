"""Which node of the ``codeact``/``cot`` graph runs next (conditional edges Studio draws).

After ``observe``: a team proposal by a CodeAct or ReAct leader goes to
``gather`` (the final naming after the discussion keeps the team: ``answer``);
any other request that needs an answer or words goes to ``think``; a forced
answer (a good player's quest card) goes straight to ``decide``; the belief
probe at game over goes to ``believe`` (then ``decide``). After
``run``: a usable team, an unavailable sandbox or the last attempt goes to
``answer``, otherwise to ``debug``. ``react`` loops until it finishes or its
steps run out. After ``answer``: ``think`` for the words, when asked. After ``think``: ``aids`` when the aids'
checks are on, else ``decide``; after ``aids``: ``think`` once more when a check asked again (``recheck``), else
``decide``.
"""

from __future__ import annotations

from typing import Any, Literal

from roundtable.agents.codeact.options import CodeActOptions, CotOptions
from roundtable.agents.common.extraction import needs_answer
from roundtable.games.protocol import BELIEF, Request


def _options(state: dict[str, Any]) -> CotOptions:
    seat = state.get("seat") or {}
    kind = CodeActOptions if seat.get("kind") == "codeact" else CotOptions
    return kind.parse(seat.get("options"), seat.get("model"))


def after_observe(state: dict[str, Any]) -> Literal["gather", "answer", "think", "believe", "decide"]:
    """``gather`` / ``answer`` for a CodeAct or ReAct leader's proposal, ``believe`` for the belief probe, else
    ``think`` or ``decide``."""
    request = Request.model_validate(state["request"])
    if request.kind == BELIEF:
        return "believe"
    if request.kind == "propose_team" and _options(state).team_by != "cot":
        return "answer" if request.details.get("final") and request.subject else "gather"
    return "think" if needs_answer(request) or request.wants_words else "decide"


def after_gather(state: dict[str, Any]) -> Literal["write", "react"]:
    """``write`` for a CodeAct leader, ``react`` for a ReAct one."""
    return "react" if _options(state).team_by == "react" else "write"


def after_run(state: dict[str, Any]) -> Literal["debug", "answer"]:
    """``answer`` once a program printed a legal team, the sandbox is unavailable or the attempts are spent."""
    attempts = state.get("attempts") or []
    last = attempts[-1] if attempts else {}
    opts = _options(state)
    limit = opts.max_attempts if isinstance(opts, CodeActOptions) else 1
    if last.get("team") or last.get("fatal") or len(attempts) >= limit:
        return "answer"
    return "debug"


def after_react(state: dict[str, Any]) -> Literal["react", "answer"]:
    """``answer`` once a step finished or the steps are spent."""
    steps = state.get("steps") or []
    opts = _options(state)
    limit = opts.react_steps if isinstance(opts, CodeActOptions) else 1
    if (steps and steps[-1].get("team") is not None) or len(steps) >= limit:
        return "answer"
    return "react"


def after_answer(state: dict[str, Any]) -> Literal["think", "decide"]:
    """``think`` to say the words with the chosen team, when words are asked."""
    return "think" if Request.model_validate(state["request"]).wants_words else "decide"


def after_think(state: dict[str, Any]) -> Literal["aids", "decide"]:
    """``aids`` when the answer waits for the aids' checks (``unchecked``), else ``decide``."""
    return "aids" if state.get("unchecked") else "decide"


def after_aids(state: dict[str, Any]) -> Literal["think", "decide"]:
    """``think`` once more when a check of its answer asked again (docs/agents/checks.md), else ``decide``."""
    return "think" if state.get("recheck") else "decide"
