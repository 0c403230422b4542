"""The parser (Light et al. 2023, §3.1, *Parse*): a separate call at temperature 0 maps the free answer to the action.

One call (module ``parse``) shown only the ``think`` reply and asked what it chose: with the aids off as
AvalonBench's parser asks it (template ``react/parse``: one user message, the answer and the code's ``CHECK_*``
prompt, ``Answer: [player_ids]`` or ``Answer: {Yes|No}``; `paper_extract`), with them on with our worked examples
(``aids/react/parse``, after the extractor's system prompt: a team, yes or no in the game's two words, or one
player; `roundtable.agents.common.extraction.extract`). Where the endpoint takes JSON schemas the reply is held to
the extractor's schema; otherwise its ``Answer:`` line is read. What was read then goes through the pick rules at once
(`roundtable.agents.common.reading.settle`): too few players sends the turn back to ``think`` while retries are
left (AvalonBench's parser asks once more for a team of the right size, ``src/server/tasks/avalon/wrapper.py``);
what cannot be read falls to the fallback rules of docs/games/protocol.md#fallback-rules, named in the decision's
``fallback``. A team vote read is checked against what the player's own knowledge settles
(`roundtable.aids.settled`, seat option ``vote_check``; docs/agents/checks.md): against it, the turn goes
back to ``think`` once with the Host's note, and the second answer is kept.
"""

from __future__ import annotations

import re
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from langgraph.runtime import Runtime

from roundtable.agents.common.extraction import answer_from_text, extract, extractor_schema
from roundtable.agents.common.model_calls import ModelProvider, call_structured, call_text
from roundtable.agents.common.reading import REPLY_CHARS, settle
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.games.protocol import Request


def paper_extract(model: BaseChatModel, request: Request, players: int, prompt: str,
                  structured: bool) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """AvalonBench's parser call (``wrapper.py``, ``parse_result``): its history cleared, one user message (the
    answer and the ``CHECK_*`` prompt), no system message; the reply's first line read with "Answer:" stripped (or the
    extractor's JSON schema where the endpoint takes one), as `roundtable.agents.common.extraction.extract` reads it.

    Returns:
        ``(answer or {}, the parser's raw answer, usage record)``.
    """
    messages: list[BaseMessage] = [HumanMessage(prompt)]
    if structured:
        parsed, raw, usage = call_structured(model, messages, extractor_schema(request, players), "parse")
        if parsed is None:
            return answer_from_text(request, raw), raw, usage
        if request.answer == "pick":
            named = [p for p in parsed["players"] if p != 0]
            passed = request.may_pass and parsed["players"] == [0]
            return ({"players": named} if named else {"passed": True} if passed else {}), raw, usage
        return answer_from_text(request, parsed["answer"]), raw, usage
    raw, usage = call_text(model, messages, "parse")
    first = next((line for line in raw.splitlines() if line.strip()), "")
    return answer_from_text(request, re.sub(r"^\W*answer\s*:\s*", "", first, flags=re.IGNORECASE)), raw, usage


def make_parse(models: ModelProvider):
    """The ``parse`` node over ``models``: one call (none when the reasoning is empty)."""

    def parse(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        request = turn.request
        thought = " ".join((state.get("thought") or "").split())
        attempt = int(state.get("attempts") or 0)
        if not thought:
            return settle(request, turn.seed, turn.options.retries, {}, attempt)
        if turn.options.aided:
            prompt = turn.context.render(
                turn.game_prompt("parse"), reply=thought[:REPLY_CHARS].replace('"', "'"), me=turn.view.player,
                players=turn.view.players, kind=request.kind, answer=request.answer, count=request.count or 0,
                candidates=list(request.candidates), may_pass=request.may_pass, options=list(request.options),
                game_title=turn.table.game_title)
            action, raw, usage = extract(turn.parser(models), request, turn.view.players, prompt,
                                         system=turn.context.render("extraction/system"),
                                         structured=turn.structured(models), module="parse")
        else:
            prompt = turn.context.render(turn.prompt("parse"), reply=(state.get("thought") or "").strip(),
                                         kind=request.kind, answer=request.answer, count=request.count or 0)
            action, raw, usage = paper_extract(turn.parser(models), request, turn.view.players, prompt,
                                               turn.structured(models))
        update = settle(request, turn.seed, turn.options.retries, action, attempt)
        if update["retry"]:
            update["named"] = [int(p) for p in action.get("players") or []]
        if not update["retry"] and turn.options.checks_answers():
            update["unchecked"] = "parse"  # the aids step checks it next (roundtable.agents.react.aids)
        return update | {"raw": [f"(parser) {raw}"], "usage": [usage]}

    return parse
