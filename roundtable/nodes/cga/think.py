"""The chain-of-thought answer (Xu et al. 2023; SPEC.md §3.3): reason step by step, then the concise words and the action.

One call at the thought temperature (0): a JSON object ``{"thought", <answer>,
"words"}`` where the endpoint takes JSON schemas (the schema of
`roundtable.nodes.codeact.think.think_schema`), else prose with ``Thought:``,
``Choice:`` and ``Words:`` lines; an unreadable choice goes to the extractor,
and a ``pick`` through the pick rules (too few players named is asked again),
as in the ``lga`` agent (`roundtable.nodes.lga.reading`).
"""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from roundtable.tools.extraction import answer_from_schema, answer_from_text, needs_answer, read_labelled
from roundtable.tools.model_calls import UNUSABLE, ModelProvider, call_structured, call_text

from ..codeact.think import ANSWER_WORDS, think_schema
from ..lga.reading import extract_action, settle
from .state import CgaState
from .suggest import current_reflection
from .turn import CgaTurn

_THOUGHT_LINE = re.compile(r"^\W*thought\s*:.*$", re.IGNORECASE | re.MULTILINE)


def make_think(models: ModelProvider):
    """The ``think`` node over ``models``."""

    def think(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        request, opts = turn.request, turn.options
        attempt = int(state.get("attempts") or 0)
        ask_choice = needs_answer(request)
        with_words = request.wants_words
        if not ask_choice and not with_words:  # one legal answer, no words: no call
            return {"action": {}, "attempts": attempt + 1, "retry": False}
        structured = turn.structured(models)
        pool = state.get("pool") or {}
        suggestion = state.get("suggestion") if state.get("refresh") else pool.get("suggestion")
        retry = turn.table.retry_note(attempt) if state.get("retry") else ""
        prompt = turn.context.render(
            "cga/think", history=turn.history(state.get("recent") or [], state.get("informative") or []),
            reflection=current_reflection(state), suggestion=suggestion or "",
            instruction="\n".join(p for p in (turn.instruction(), retry) if p),
            choice_help=turn.choice_help(structured) if ask_choice else "", with_words=with_words,
            speech=turn.speech(), thought_words=opts.thought_words, format="json" if structured else "prose")
        budget = opts.thought_words + (opts.response_words if with_words else 0) + (ANSWER_WORDS if ask_choice else 0)
        model = turn.model(models, turn.temperature("thought_temperature"), budget)
        words: str | None = None
        if structured:
            schema = think_schema(request, turn.view.players, opts.thought_words,
                                  opts.response_words if with_words else None, ask_choice, turn.context.describe)
            parsed, raw, usage = call_structured(model, turn.messages(prompt), schema, "think")
            action = answer_from_schema(request, parsed) if ask_choice else {}
            if parsed is not None and with_words:
                words = parsed.get("words")
        else:
            raw, usage = call_text(model, turn.messages(prompt), "think")
            choice, said = read_labelled(_THOUGHT_LINE.sub("", raw))
            action = answer_from_text(request, choice) if ask_choice and choice else {}
            words = said if with_words else None
        raws, usages = [raw], [usage]
        if ask_choice and not action and not raw.startswith(UNUSABLE):
            action, more_raw, more_usage = extract_action(models, turn.table, raw, structured)
            raws += more_raw
            usages += more_usage
        update = settle(turn.table, action, attempt) if ask_choice else {"action": {}, "attempts": attempt + 1,
                                                                         "retry": False}
        return update | {"words": words, "raw": raws, "usage": usages}

    return think
