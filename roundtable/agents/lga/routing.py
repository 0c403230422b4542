"""Which step of the ``lga`` graph runs next.

The steps run in the order summarize, analyze, plan, act, respond, decide;
each is taken only when needed, so Studio shows a skipped module as an edge
that jumps over it:

- ``summarize``: records of a finished round are still in memory;
- ``analyze`` / ``plan``: not yet done this round (and not ablated);
- ``act``: the request asks for an action that needs a model, not yet read
  (or a too-short team is asked for again); not under ``no_action``;
- ``respond``: words are asked for and not yet said (among them words that
  failed the aids' check, asked for again with the action kept), or
  ``no_action`` needs the action read from a direct answer;
- ``aids``: right after the act or respond step whose answer is ``unchecked``
  (a check of the aids is on: `roundtable.agents.lga.aids`); after it the
  steps go on from the one it checked, which runs again when asked again;
- ``decide``: always last.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

from roundtable.agents.common.extraction import needs_answer
from roundtable.agents.lga import memory as mem
from roundtable.agents.lga.options import LgaOptions
from roundtable.agents.lga.respond import responds_directly
from roundtable.games.protocol import BELIEF, Request

log = logging.getLogger(__name__)

Step = Literal["summarize", "analyze", "plan", "act", "respond", "aids", "believe", "decide"]
STEPS: tuple[Step, ...] = ("summarize", "analyze", "plan", "act", "respond", "decide")


def _options(state: dict[str, Any]) -> LgaOptions:
    seat = state.get("seat") or {}
    return LgaOptions.parse(seat.get("options"), seat.get("model"))


def needs(step: Step, state: dict[str, Any]) -> bool:
    """Whether ``step`` has work to do in ``state``."""
    opts = _options(state)
    memory = state.get("pool") or {}
    round_ = int(state["view"]["round"])
    request = Request.model_validate(state["request"])
    if step == "summarize":
        return bool(mem.stale_records(memory, round_))
    if step == "analyze":
        return not opts.no_analysis and memory.get("analysis_round") != round_
    if step == "plan":
        return not opts.no_plan and memory.get("plan_round") != round_
    if step == "act":
        return (
            not opts.no_action
            and needs_answer(request)
            and (state.get("action") is None or bool(state.get("retry")))
        )
    if step == "respond":
        if responds_directly(state, request, opts.no_action):
            return True
        return request.wants_words and state.get("utterance") is None and not state.get("retry")
    return True


def next_step(state: dict[str, Any], after: str) -> Step:
    """The first step after ``after`` that needs to run (``act`` and ``respond`` may repeat themselves); the
    belief probe goes ``observe -> believe -> decide``."""
    if state["request"].get("kind") == BELIEF:
        return "believe" if after == "observe" else "decide"
    if after in ("act", "respond"):
        start = STEPS.index(after)  # a too-short team is asked for again by the same step
    elif after in STEPS:
        start = STEPS.index(after) + 1
    else:  # observe
        start = 0
    for step in STEPS[start:]:
        if needs(step, state):
            return step
        log.debug("player %s: %s skipped", state["view"].get("player"), step)
    return "decide"


def route_after(step: str) -> Callable[[dict[str, Any]], Step]:
    """The conditional-edge function leaving ``step`` (``observe`` for the first)."""

    def route(state: dict[str, Any]) -> Step:
        if step in ("act", "respond") and state.get("unchecked"):
            return "aids"
        if step == "aids":
            return next_step(state, str(state.get("checked_after") or "act"))
        return next_step(state, step)

    route.__name__ = f"after_{step}"
    return route
