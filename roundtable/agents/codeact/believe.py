"""The belief probe (AvalonBench's end-of-game question, docs/measures.md#deduction-accuracy) in Shi et al.'s
chain-of-thought style, for the ``cot`` and ``codeact`` kinds alike (the probe needs no program): the player thinks
step by step over its global memory and the facts its player may know (`roundtable.agents.codeact.facts`), then
writes how likely each other player is to be good; a parser call at temperature 0 turns the answer into numbers
(`roundtable.agents.common.beliefs.state_beliefs`).
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.agents.common.beliefs import (
    BELIEVE_MODULE,
    LINE_WORDS,
    PARSE_MODULE,
    beliefs_from_text,
    listed_beliefs,
    parser_tokens,
    state_beliefs,
)
from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.common.thought import LAYOUT_WORDS


def paper_beliefs(model: BaseChatModel, messages: list[BaseMessage], parser: BaseChatModel,
                  turn: CodeActTurn) -> dict[str, Any]:
    """AvalonBench's probe (Shi et al. ask none): the player's answer, then AvalonBench's parser call, one user
    message (the answer and ``CHECK_BELIEVED_SIDES_PROMPT``, template ``codeact/parse_beliefs``), read as
    ``Answer: {1: 0.9, ...}`` (`roundtable.agents.common.beliefs.beliefs_from_text`); an answer that lists a
    probability for every player asked as the parser would (`listed_beliefs`) needs no parser call, as for every kind.

    Returns:
        The node's update, as `roundtable.agents.common.beliefs.state_beliefs` gives it.
    """
    text, usage = call_text(model, messages, BELIEVE_MODULE)
    listed = listed_beliefs(text, turn.request.candidates)  # already as the parser would write it: no second call
    if not text.strip() or listed is not None:
        return {"action": {"beliefs": listed} if listed else {}, "raw": [text], "usage": [usage]}
    prompt = turn.context.render("codeact/parse_beliefs", reply=text.strip(), players=turn.view.players)
    raw, more = call_text(parser, [HumanMessage(prompt)], PARSE_MODULE)
    read = beliefs_from_text(raw.split("Answer:")[-1], turn.request.candidates)
    return {"action": {"beliefs": read} if read else {}, "raw": [text, f"(parser) {raw}"], "usage": [usage, more]}


def make_believe(models: ModelProvider):
    """The ``believe`` node over ``models``: the free answer (the prose temperature; template ``codeact/believe``,
    AvalonBench's question, with the aids off, ``aids/codeact/believe`` with them on) and the parser call
    (`paper_beliefs` with the aids off, ``extraction/belief`` with them on; the extraction temperature, 0); returns
    ``action`` ``{"beliefs": {player: P(good)}}`` (``{}``: nothing read), ``raw``, ``usage``."""

    def believe(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = CodeActTurn.of(state, runtime)
        others = list(turn.request.candidates)
        words = turn.options.thought_words
        model = turn.text_model(models, words + LAYOUT_WORDS + LINE_WORDS * len(others))
        parser = models.chat(turn.seat.model, turn.context.extraction_temperature, parser_tokens(turn.request),
                             slot=turn.slot(models))
        if not turn.options.aided:
            prompt = turn.context.render("codeact/believe", memory=turn.memory_text(), players=turn.view.players)
            return paper_beliefs(model, turn.messages(prompt), parser, turn)
        prompt = turn.context.render("aids/codeact/believe", memory=turn.memory_text(), facts=turn.facts_text(),
                                     others=others, thought_words=words)
        return state_beliefs(model, turn.messages(prompt), parser, turn.context, turn.request, turn.view.players,
                             turn.structured(models))

    return believe
