"""The belief probe of AvalonBench (docs/measures.md#deduction-accuracy), the ``react`` way: think step by step over
the running summary and the minutes, then the parser call at temperature 0 turns the answer into a probability of
being good per player (`roundtable.agents.common.beliefs.state_beliefs`). AvalonBench asks its good players the same
after the game loop (``src/server/tasks/avalon/task.py`` of github.com/jonathanmli/Avalon-LLM).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.beliefs import parser_tokens, state_beliefs
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.think import ACTION_WORDS
from roundtable.agents.react.turn import ReactTurn


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the step-by-step answer (template ``react/believe``, the kind's
    temperature, ``thought_words`` plus a line per player) and the parser call (``extraction/belief``, the parse
    temperature); returns ``action`` ``{"beliefs": {player: P(good)}}`` (``{}``: nothing read), ``raw``, ``usage``."""

    def believe(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        others = list(turn.request.candidates)
        words = turn.options.thought_words
        prompt = turn.context.render("react/believe", context=turn.context_text(), others=others, words=words)
        t = turn.options.parse_temperature
        parser = models.chat(turn.seat.model, turn.context.parse_temperature if t is None else t,
                             parser_tokens(turn.request), slot=turn.slot(models))
        return state_beliefs(turn.writer(models, words + ACTION_WORDS + 4 * len(others)), turn.messages(prompt),
                             parser, turn.context, turn.request, turn.view.players, turn.structured(models))

    return believe
