"""The belief probe of AvalonBench (docs/measures.md#deduction-accuracy), the ``react`` way: think step by step over
the running summary and the minutes, then the parser call at temperature 0 turns the answer into a probability of
being good per player (`roundtable.agents.common.beliefs.state_beliefs`). AvalonBench asks its good players the same
after the game loop (``src/server/tasks/avalon/task.py`` of github.com/jonathanmli/Avalon-LLM).
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.runtime import Runtime

from roundtable.agents.common.beliefs import (
    BELIEVE_MODULE,
    PARSE_MODULE,
    beliefs_from_text,
    listed_beliefs,
    parser_tokens,
    state_beliefs,
)
from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.think import ACTION_WORDS
from roundtable.agents.react.turn import ReactTurn


def paper_beliefs(model: BaseChatModel, messages: list[BaseMessage], parser: BaseChatModel,
                  turn: ReactTurn) -> dict[str, Any]:
    """AvalonBench's probe (``get_believed_sides``): the player's answer, then its parser call, one user
    message (the answer and ``CHECK_BELIEVED_SIDES_PROMPT``, template ``react/parse_beliefs``), read as
    ``Answer: {1: 0.9, ...}`` (`roundtable.agents.common.beliefs.beliefs_from_text`); an answer that lists a
    probability for every player asked as the parser would (`listed_beliefs`) needs no parser call, as for every kind.

    Returns:
        The node's update, as `roundtable.agents.common.beliefs.state_beliefs` gives it.
    """
    text, usage = call_text(model, messages, BELIEVE_MODULE)
    listed = listed_beliefs(text, turn.request.candidates)  # already as the parser would write it: no second call
    if not text.strip() or listed is not None:
        return {"action": {"beliefs": listed} if listed else {}, "raw": [text], "usage": [usage]}
    prompt = turn.context.render("react/parse_beliefs", reply=text.strip(), players=turn.view.players)
    raw, more = call_text(parser, [HumanMessage(prompt)], PARSE_MODULE)
    read = beliefs_from_text(raw.split("Answer:")[-1], turn.request.candidates)
    return {"action": {"beliefs": read} if read else {}, "raw": [text, f"(parser) {raw}"], "usage": [usage, more]}


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the answer (template ``react/believe``, AvalonBench's question, with
    the aids off, ``aids/react/believe``, step by step, with them on; the kind's temperature, ``thought_words`` plus
    a line per player) and the parser call (`paper_beliefs` with the aids off, ``extraction/belief`` with them on;
    the parse temperature); returns ``action`` ``{"beliefs": {player: P(good)}}`` (``{}``: nothing read), ``raw``,
    ``usage``."""

    def believe(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        others = list(turn.request.candidates)
        words = turn.options.thought_words
        prompt = turn.context.render(turn.prompt("believe"), context=turn.context_text(), others=others,
                                     words=words, players=turn.view.players)
        t = turn.options.parse_temperature
        parser = models.chat(turn.seat.model, turn.context.parse_temperature if t is None else t,
                             parser_tokens(turn.request), slot=turn.slot(models))
        model = turn.writer(models, words + ACTION_WORDS + 4 * len(others))
        if not turn.options.aided:
            return paper_beliefs(model, turn.messages(prompt), parser, turn)
        return state_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request, turn.view.players,
                             turn.structured(models))

    return believe
