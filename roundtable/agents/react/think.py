"""Reason, then act (Light et al. 2023, §3.1): the zero-shot step-by-step answer to the Host's request.

One call (module ``think``, temperature 0.1, DRY-sampled where the seat's ``dry`` is on: on the embedded model its
reasoning otherwise looped, "I am also aware that ...", past its token cap and left the parser no answer): *Rules*,
*Role*, *Summary*, *Minutes* and the *Request*, in that order, then "think step by step". With the aids off
(template ``react/think``) the Request and the step-by-step line are AvalonBench's (``src/server/tasks/avalon/
prompts.py``), and a pick asked again shows the answer given and the code's request for the right team size, as
its parser asks (``wrapper.py``). With the aids on (``aids/react/think``) they are ours, with the form of the answer
(on the embedded model a reply that was not told to end with its answer often wrote a plan and never named a
team). The reply is free prose, kept whole in ``thought`` for the parser (and in ``thoughts``,
`Decision.thoughts`); nothing is read from it here. With the aids on, asked again after the parser read too few
players, the prompt also holds the Host's note (AvalonBench's parser asks the model once more for a team of the
right size: ``src/server/tasks/avalon/wrapper.py``, ``parse_result``), but not the previous answer, which the
embedded model copied, wrong team size and all; after a team vote against what the player knows
(`roundtable.agents.react.parse`) it holds the previous answer and the note of that check
(docs/agents/checks.md#knowledge-settled-decisions).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.common.model_calls import ModelProvider, call_text
from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn

ACTION_WORDS = 24
"""Room beyond ``thought_words`` for the closing statement of what the player does, in words of ``max_tokens``: a
reply cut before it would leave the parser nothing to read."""


def make_think(models: ModelProvider):
    """The ``think`` node over ``models``: one call."""

    def think(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
        turn = ReactTurn.of(state, runtime)
        retry = bool(state.get("retry"))
        recheck = state.get("recheck")
        if turn.options.aided:
            note = recheck or (turn.table.retry_note(int(state.get("attempts") or 0)) if retry else "")
            variables = dict(
                context=turn.context_text(), instruction=turn.table.instruction(),
                words=turn.options.thought_words, previous=(state.get("thought") or "") if recheck else "",
                retry_note=note, choice=turn.table.choice_help(json=False))
        else:
            request = turn.request
            variables = dict(
                context=turn.context_text(), host=turn.table.instruction(), kind=request.kind,
                count=request.count or 0, players=turn.view.players, team=list(request.subject),
                may_pass=request.may_pass, candidates=list(request.candidates),
                previous=(state.get("thought") or "") if retry or recheck else "",
                named=list(state.get("named") or []), retry=retry, note=recheck or "")
        prompt = turn.context.render(turn.prompt("think"), **variables)
        model = turn.writer(models, turn.options.thought_words + ACTION_WORDS, dry=True)
        raw, usage = call_text(model, turn.messages(prompt), "think")
        return {"thought": raw, "retry": False, "recheck": None, "raw": [raw], "usage": [usage], "thoughts": [raw]}

    return think
