"""The parser (Light et al. 2023, §3.1, *Parse*): a separate call at temperature 0 maps the free answer to the action.

One call (module ``parse``) shown only the ``think`` reply and asked what it chose, with worked examples
(template ``react/parse``): a team, yes or no (in the game's two words), or one player. Where the endpoint takes
JSON schemas the reply is held to the extractor's schema; otherwise its ``Answer:`` line is read, both by
`roundtable.agents.common.extraction.extract`. What was read then goes through the pick rules at once
(`roundtable.agents.common.reading.settle`): too few players sends the turn back to ``think`` while retries are
left (AvalonBench's parser asks once more for a team of the right size, ``src/server/tasks/avalon/wrapper.py``);
what cannot be read falls to the fallback rules of docs/games/protocol.md#fallback-rules, named in the decision's
``fallback``. A team vote read is checked against what the player's own knowledge settles
(`roundtable.aids.settled`, seat option ``vote_check``; docs/agents/checks.md): against it, the turn goes
back to ``think`` once with the Host's note, and the second answer is kept.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.extraction import extract
from roundtable.agents.common.model_calls import ModelProvider
from roundtable.agents.common.reading import REPLY_CHARS, settle
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.aids.settled import avalon_settled, settled_update


def make_parse(models: ModelProvider):
    """The ``parse`` node over ``models``: one call (none when the reasoning is empty)."""

    def parse(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        request = turn.request
        thought = " ".join((state.get("thought") or "").split())
        attempt = int(state.get("attempts") or 0)
        if not thought:
            return settle(request, turn.seed, turn.options.retries, {}, attempt)
        prompt = turn.context.render(
            "react/parse", reply=thought[:REPLY_CHARS].replace('"', "'"), me=turn.view.player,
            players=turn.view.players, kind=request.kind, answer=request.answer, count=request.count or 0,
            candidates=list(request.candidates), may_pass=request.may_pass, options=list(request.options))
        action, raw, usage = extract(turn.parser(models), request, turn.view.players, prompt,
                                     system=turn.context.render("extraction/system"),
                                     structured=turn.structured(models), module="parse")
        update = settle(request, turn.seed, turn.options.retries, action, attempt)
        if not update["retry"]:
            update |= settled_update(turn.context, turn.view, request, avalon_settled(turn.table),
                                     update.get("action"), turn.options.vote_check, bool(state.get("reviewed")),
                                     turn.options.overrules())
        return update | {"raw": [f"(parser) {raw}"], "usage": [usage]}

    return parse
