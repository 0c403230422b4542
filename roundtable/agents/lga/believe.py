"""The belief probe (AvalonBench's end-of-game question, docs/measures.md#deduction-accuracy): the ``lga`` player
states how likely each other player is to be good, from its memory (summary, analysis, plan and this round's
records), then a parser call at temperature 0 turns the answer into numbers
(`roundtable.agents.common.beliefs.parse_beliefs`).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.beliefs import parser_tokens, state_beliefs
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.lga.calls import agent_model, uses_json_schema
from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn

BELIEF_WORDS = 80
"""Room for the answer: a line per player and a sentence, in words."""


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the free answer (template ``lga/believe``, ``aids/lga/believe`` with the
    aids on, Avalon's ``aids/lga/avalon/believe``: `Turn.template`; the agent modules' temperature) and the parser
    call (``extraction/belief``, Avalon's ``extraction/avalon/belief``, temperature 0); returns ``action``
    ``{"beliefs": {player: P(first probe side)}}`` (``{}``: nothing read), ``raw``, ``usage``."""

    def believe(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
        turn = Turn.of(state, runtime, models)
        variables = turn.base_variables()
        context = turn.context_text(variables, analysis=str(turn.memory.get("analysis") or ""),
                                    plan=str(turn.memory.get("plan") or ""))
        prompt = turn.context.render(turn.template("believe"), **variables | {"context": context},
                                     others=list(turn.request.candidates))
        parser = models.chat(turn.seat.model, turn.extraction_temperature, parser_tokens(turn.request), slot=turn.slot)
        return state_beliefs(agent_model(models, turn, BELIEF_WORDS), turn.messages(prompt), parser, turn.context,
                             turn.request, turn.view.players, uses_json_schema(models, turn), turn.table)

    return believe
