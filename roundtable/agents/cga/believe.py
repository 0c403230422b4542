"""The belief probe (AvalonBench's end-of-game question, docs/measures.md#deduction-accuracy) in Xu et al.'s style:
from the history (the recent and the informative messages of its memory) and its last reflection of the game, the
player thinks step by step, at the chain-of-thought temperature (0), then writes how likely each other player is to
be good; a parser call at temperature 0 turns the answer into numbers
(`roundtable.agents.common.beliefs.state_beliefs`). No question, retrieval or reflection is asked afresh: the
probe reads what the agent already made of the game.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.suggest import current_reflection
from roundtable.agents.cga.turn import CgaTurn
from roundtable.agents.common.beliefs import LINE_WORDS, parser_tokens, state_beliefs
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.thought import LAYOUT_WORDS


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the free answer (template `CgaTurn.game_prompt` ``believe``:
    ``cga/believe``, ``aids/cga/believe`` with the aids on, Avalon's ``cga/avalon/believe`` and
    ``aids/cga/avalon/believe``; the thought temperature) and the parser call (``extraction/belief``, Avalon's
    ``extraction/avalon/belief``, the extraction temperature); returns ``action``
    ``{"beliefs": {player: P(first probe side)}}`` (``{}``: nothing read), ``raw``, ``usage``."""

    def believe(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CgaTurn.of(state, runtime, models)
        others = list(turn.request.candidates)
        words = turn.options.thought_words
        prompt = turn.context.render(
            turn.game_prompt("believe"),
            history=turn.history(state.get("recent") or [], state.get("informative") or []),
            reflection=current_reflection(state), others=others, thought_words=words,
            sides=list(turn.table.probe_sides), roles=turn.table.probe_roles)
        model = turn.model(models, turn.temperature("thought_temperature"),
                           words + LAYOUT_WORDS + LINE_WORDS * len(others))
        parser = models.chat(turn.seat.model, turn.temperature("extraction_temperature"), parser_tokens(turn.request),
                             slot=turn.slot)
        return state_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request, turn.view.players,
                             turn.structured(models), turn.table)

    return believe
