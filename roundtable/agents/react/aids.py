"""The ``aids`` step of the ``react`` graph: how react hands an answer of its parse or speak step to the small-model
aids (`roundtable.aids.interface`, docs/agents/aids.md#the-aids-step), drawn in Studio as a node of its own.

No model call. The parse step (the answer read from the reasoning) or the speak step (the sentence) that answered
marks it ``unchecked``; this step gives the aids what the player heard (the talk among its minutes), its private
texts (the running summary and the reasoning written so far) and, for the answer parsed, what the player's own
lines about the team say its side wants (`roundtable.aids.interface.avalon_settled`). A re-ask sends the turn back
to the step that gave the answer (``think`` for the answer, ``speak`` for the sentence) with the Host's note; an
overrule or dropped sentences replace it. With no check on (the aids off), the graph goes past this step.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.aids.interface import Answer, avalon_settled, check


def aids(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
    """The ``aids`` node: the aids' update of the answer ``unchecked`` names, and ``checked_after``: that step."""
    turn = ReactTurn.of(state, runtime)
    opts, step = turn.options, state.get("unchecked")
    answered = step == "parse"
    answer = Answer(context=turn.context, view=turn.view, request=turn.request, options=opts,
                    action=state.get("action"), words=state.get("utterance") if step == "speak" else None,
                    heard=turn.heard(), thoughts=turn.private_texts(list(state.get("thoughts") or [])),
                    settled=avalon_settled(turn.table) if answered and opts.vote_check != "off" else None,
                    reviewed=bool(state.get("reviewed")), response_words=opts.response_words, chose=answered)
    return check(answer) | {"unchecked": None, "checked_after": step}
