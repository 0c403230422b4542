"""Chain of thought (the ``cot`` kind, and the ``codeact`` kind outside team selection): reason in prose, then answer.

One call at the prose temperature (0.7): a JSON object ``{"thought", <answer>,
"words"}`` where the endpoint takes JSON schemas (the answer fields are those of
`roundtable.agents.common.extraction.answer_schema`), else prose with ``Thought:``,
``Choice:`` and ``Words:`` lines. When a program (or the ReAct loop) has
already chosen the team, the call only reasons and says the words.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.extraction import needs_answer
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.thought import ask_thought, think_budget


def make_think(models: ModelProvider):
    """The ``think`` node over ``models``."""

    def think(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        request, opts = turn.request, turn.options
        decided = state.get("action")
        ask_choice = needs_answer(request) and not decided
        with_words = request.wants_words
        structured = turn.structured(models)
        prompt = turn.context.render(
            "codeact/think", memory=turn.memory_text(), instruction=turn.table.instruction(),
            decided=turn.table.decided(decided) if decided else "",
            choice_help=turn.table.choice_help(structured) if ask_choice else "", with_words=with_words,
            speech=turn.table.speech(), thought_words=opts.thought_words, format="json" if structured else "prose")
        model = turn.text_model(models, think_budget(opts, with_words, ask_choice))
        action, words, _, raw, usage = ask_thought(model, turn.messages(prompt), request, turn.view.players, opts,
                                                with_words, ask_choice, structured, turn.context.describe)
        update: dict[str, Any] = {"raw": [raw], "usage": [usage], "utterance": words}
        if ask_choice:
            update["action"] = action or None
        return update

    return think
