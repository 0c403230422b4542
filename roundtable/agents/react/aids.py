"""The ``aids`` step of the ``react`` graph: how react hands an answer of its parse or speak step to the small-model
aids (`roundtable.aids.interface`, docs/agents/aids.md#the-aids-step), drawn in Studio as a node of its own.

No model call. The parse step (the answer read from the reasoning) or the speak step (the sentence) that answered
marks it ``unchecked``; this step gives the aids what the player heard (the talk among its minutes), its private
texts (the running summary and the reasoning written so far) and, for the answer parsed, what the player's own
knowledge settles at the game's table (`roundtable.aids.interface.table_settled`: Avalon's team vote; Werewolf's
votes, night kill and Seer's check, its own last words at the table as its statement). A re-ask sends the turn back
to the step that gave the answer (``think`` for the answer, ``speak`` for the sentence) with the Host's note; an
overrule or dropped sentences replace it. With no check on (the aids off), the graph goes past this step.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.react.state import ReactState
from roundtable.agents.react.turn import ReactTurn
from roundtable.aids.interface import Answer, check, checked_of, table_settled


def aids(state: ReactState, runtime: Runtime[Any]) -> dict[str, Any]:
    """The ``aids`` node: the aids' update of the answer ``unchecked`` names, and ``checked_after``: that step."""
    turn = ReactTurn.of(state, runtime)
    opts, step = turn.options, state.get("unchecked")
    answered = step == "parse"
    action = state.get("action")
    checked = checked_of(turn.memory.get("checked"))  # a Seer's own results: react's pool keeps none today
    mine = [text for speaker, text in turn.heard() if speaker == f"Player {turn.view.player}"]
    settled = (table_settled(turn.table, checked, mine[-1] if mine else None, action)
               if answered and opts.vote_check != "off" else None)
    answer = Answer(context=turn.context, view=turn.view, request=turn.request, options=opts,
                    action=action, words=state.get("utterance") if step == "speak" else None,
                    heard=turn.heard(), thoughts=turn.private_texts(list(state.get("thoughts") or [])),
                    settled=settled, checked=checked or None,
                    reviewed=bool(state.get("reviewed")), response_words=opts.response_words, chose=answered)
    return check(answer) | {"unchecked": None, "checked_after": step}
