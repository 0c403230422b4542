"""The belief probe of AvalonBench (docs/measures.md#deduction-accuracy), the ``react`` way: think step by step over
the running summary and the minutes, then the parser call at temperature 0 turns the answer into a probability of
being on the table's first probe side (`roundtable.tables.protocol.GameTable.probe_sides`: Avalon's good) per
player (`roundtable.agents.common.beliefs.state_beliefs`). AvalonBench asks its good players the same
after the game loop (``src/server/tasks/avalon/task.py`` of github.com/jonathanmli/Avalon-LLM).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.beliefs import (
    avalonbench_beliefs,
    parser_tokens,
    state_beliefs,
)
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.think import ACTION_WORDS
from roundtable.agents.react.turn import ReactTurn


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the answer (template ``react/believe``, AvalonBench's question, with
    the aids off, ``aids/react/believe``, step by step, with them on, Avalon's ``aids/react/avalon/believe``:
    `ReactTurn.game_prompt`; the kind's temperature, ``thought_words`` plus a line per player) and the parser call
    (AvalonBench's, `avalonbench_beliefs`, with the aids off, ``extraction/belief`` with them on; the parse
    temperature); returns ``action`` ``{"beliefs": {player: P(first probe side)}}`` (``{}``: nothing read), ``raw``,
    ``usage``."""

    def believe(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        others = list(turn.request.candidates)
        words = turn.options.thought_words
        prompt = turn.context.render(turn.game_prompt("believe"), context=turn.context_text(), others=others,
                                     words=words, players=turn.view.players, sides=turn.table.probe_sides,
                                     roles=turn.table.probe_roles)
        t = turn.options.parse_temperature
        parser = models.chat(turn.seat.model, turn.context.parse_temperature if t is None else t,
                             parser_tokens(turn.request), slot=turn.slot(models))
        model = turn.writer(models, words + ACTION_WORDS + 4 * len(others))
        if not turn.options.aided:
            return avalonbench_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request,
                                       turn.view.players, "react/parse_beliefs", turn.table.probe_sides)
        return state_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request, turn.view.players,
                             turn.structured(models), turn.table)

    return believe
