"""The belief probe (AvalonBench's end-of-game question, docs/measures.md#deduction-accuracy) in Shi et al.'s
chain-of-thought style, for the ``cot`` and ``codeact`` kinds alike (the probe needs no program): the player thinks
step by step over its global memory and the facts its player may know (`roundtable.agents.codeact.facts`), then
writes how likely each other player is to be good; a parser call at temperature 0 turns the answer into numbers
(`roundtable.agents.common.beliefs.state_beliefs`).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.beliefs import (
    LINE_WORDS,
    avalonbench_beliefs,
    parser_tokens,
    state_beliefs,
)
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.thought import LAYOUT_WORDS


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the free answer (the prose temperature; template ``codeact/believe``,
    AvalonBench's question, with the aids off, ``aids/codeact/believe`` with them on, Avalon's
    ``aids/codeact/avalon/believe``: `CodeActTurn.game_prompt`) and the parser call
    (AvalonBench's, `avalonbench_beliefs`, with the aids off, ``extraction/belief`` with them on; the extraction
    temperature, 0); returns
    ``action`` ``{"beliefs": {player: P(first probe side)}}`` (``{}``: nothing read), ``raw``, ``usage``."""

    def believe(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        others = list(turn.request.candidates)
        words = turn.options.thought_words
        model = turn.text_model(models, words + LAYOUT_WORDS + LINE_WORDS * len(others))
        parser = models.chat(turn.seat.model, turn.context.extraction_temperature, parser_tokens(turn.request),
                             slot=turn.slot(models))
        if not turn.options.aided:
            prompt = turn.context.render("codeact/believe", memory=turn.memory_text(), players=turn.view.players,
                                         sides=turn.table.probe_sides)
            return avalonbench_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request,
                                       turn.view.players, "codeact/parse_beliefs", turn.table.probe_sides)
        prompt = turn.context.render(turn.game_prompt("believe"), memory=turn.memory_text(), facts=turn.facts_text(),
                                     others=others, thought_words=words, sides=turn.table.probe_sides,
                                     roles=turn.table.probe_roles)
        return state_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request, turn.view.players,
                             turn.structured(models), turn.table)

    return believe
