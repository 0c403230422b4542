"""Response (Lan et al. 2024, module 6): the words said to the host and the table, consistent with the action.

Runs only where words are needed: a talk turn with no action to take, a
``separate_response`` seat after its action, a combined reply whose words were
unusable, and, for the ``no_action`` ablation, every request: the agent then
answers the Host directly in words and the action is extracted from them
(extractor call at temperature 0). The words are checked before they are said
(the graph's ``aids`` step, `roundtable.agents.lga.aids`) and asked for once more when they would spoil
the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.extraction import needs_answer
from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.lga.calls import agent_model, uses_json_schema
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.reading import extract_action, settle
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn
from roundtable.games.protocol import Request


def responds_directly(state: Mapping[str, Any], request: Request, no_action: bool) -> bool:
    """Whether the response must also carry the action (``no_action`` ablation, action still to read)."""
    return (
        no_action
        and needs_answer(request)
        and (state.get("action") is None or bool(state.get("retry")))
    )


def make_respond(models: ModelProvider):
    """The ``respond`` node over ``models``: one call (plus the extractor under ``no_action``)."""

    def respond(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
        turn = Turn.of(state, runtime, models)
        request, opts = turn.request, turn.options
        direct = responds_directly(state, request, opts.no_action)
        attempt = int(state.get("attempts") or 0)
        prompt = turn.context.render(
            turn.template("respond"),
            **turn.base_variables(),
            instruction=turn.instruction(),
            action_text="" if direct else turn.decided(state.get("action")),
            direct=direct,
            choice_help=turn.choice_help(False),
            speech=turn.speech(),
            words=opts.response_words,
            retry_note=state.get("recheck") or (turn.retry_note(attempt) if direct and state.get("retry") else ""),
        )
        model = agent_model(models, turn, opts.response_words, speaking=request.wants_words,
                            again=bool(state.get("copied")))
        text, usage = call_text(model, turn.messages(prompt), "respond")
        update: dict[str, Any] = {"raw": [text], "usage": [usage], "recheck": None, "copied": False}
        if direct:
            action, raws, usages = extract_action(models, turn, text, uses_json_schema(models, turn))
            update = update | settle(turn, action, attempt)
            update["raw"] += raws
            update["usage"] += usages
            if update["retry"]:
                return update
        if request.wants_words:
            update["utterance"] = text
            if opts.checks_answers():
                update["unchecked"] = "respond"  # the aids step checks the words next (roundtable.agents.lga.aids)
        return update

    return respond
