"""Which node of the ``react`` graph runs next (conditional edges Studio draws).

After ``observe``: ``summarize`` when an ended round's minutes wait to be folded into the summary, else the step
that answers the request. After ``summarize``: that step. ``think`` always leads to ``parse``; after ``parse``:
``think`` again when too few players were read and a retry is left, or when a team vote went against what the player
knows (``recheck``, docs/agents/checks.md), else ``speak`` for the words when asked, else ``decide``. After
``speak``: ``speak`` once more when its sentence failed a check, else ``decide``. With a check of the aids on, the
answer of ``parse`` and the sentence of ``speak`` go through ``aids`` first (`roundtable.agents.react.aids`).
The step that answers a request is
chosen by its answer shape (`ANSWERED_BY`): a request that needs a model's answer (a ``pick``, or a ``yes_no`` with
a choice) is thought about first; words alone go to ``speak``; a forced answer (a good player's quest card) goes
straight to ``decide``; the belief probe at game over goes to ``believe``, then ``decide``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from roundtable.agents.common.extraction import needs_answer
from roundtable.agents.react import memory as mem
from roundtable.games.protocol import Request

Step = Literal["summarize", "think", "parse", "speak", "aids", "believe", "decide"]

ANSWERED_BY: dict[str, Step] = {"pick": "think", "yes_no": "think", "belief": "believe"}
"""The step that answers a request a model must answer, by answer shape (another shape adds its step here, and
the graph its node and edges)."""


def answer_step(state: Mapping[str, Any]) -> Step:
    """The next step of a turn whose notes are written: the step answering the request (`ANSWERED_BY`) while no
    answer is read, then ``speak`` while words are asked and not said, then ``decide``."""
    request = Request.model_validate(state["request"])
    step = ANSWERED_BY.get(request.answer)
    if step is not None and (needs_answer(request) or request.answer == "belief") and state.get("action") is None:
        return step
    if request.wants_words and state.get("utterance") is None:
        return "speak"
    return "decide"


def after_observe(state: Mapping[str, Any]) -> Step:
    """``summarize`` when the pool holds an ended round's minutes, else `answer_step`."""
    if mem.ended(state.get("pool") or {}, int(state["view"]["round"])):
        return "summarize"
    return answer_step(state)


def after_summarize(state: Mapping[str, Any]) -> Step:
    """`answer_step`."""
    return answer_step(state)


def after_parse(state: Mapping[str, Any]) -> Step:
    """``aids`` when the answer waits for the aids' check; ``think`` again when the parser read too few players and a
    retry is left, or a check asked again, else `answer_step`."""
    if state.get("unchecked"):
        return "aids"
    return "think" if state.get("retry") or state.get("recheck") else answer_step(state)


def after_speak(state: Mapping[str, Any]) -> Step:
    """``aids`` when the sentence waits for the aids' check; ``speak`` once more when a check of it asked again, else
    ``decide``."""
    if state.get("unchecked"):
        return "aids"
    return "speak" if state.get("recheck") else "decide"


def after_aids(state: Mapping[str, Any]) -> Step:
    """After the aids' check, the turn goes on from the step it checked (`after_parse`, `after_speak`)."""
    return after_parse(state) if state.get("checked_after") == "parse" else after_speak(state)
