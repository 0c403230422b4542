"""The ``aids`` step of the ``codeact`` and ``cot`` graphs: how they hand the answer of their ``think`` step to the
small-model aids (`roundtable.aids.interface`, docs/agents/aids.md#the-aids-step), drawn in Studio as a node of its
own.

No model call. The ``think`` step that answered marks its answer ``unchecked`` (``chose``: it chose the action in
this call); this step gives the aids what the player's own knowledge settles at the game's table
(`roundtable.aids.interface.table_settled`: Avalon's team vote; Werewolf's votes, night kill and Seer's check, its
own last words at the table as its statement), what it heard (the talk in its global memory) and its private
reasoning (`roundtable.agents.codeact.think.private_texts`: a program and its output are not among it). A re-ask
sends the turn back to ``think`` with the Host's note (the action kept and stated when only the words failed); the
second answer is kept. With no check on (the aids off), the graph goes past this step.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.codeact.state import CodeActState
from roundtable.agents.codeact.think import private_texts
from roundtable.agents.codeact.turn import CodeActTurn
from roundtable.aids.interface import Answer, check, checked_of, table_settled


def aids(state: CodeActState, runtime: Runtime[Any]) -> dict[str, Any]:
    """The ``aids`` node: the aids' update of the ``think`` step's answer, and ``checked_after``: that step."""
    turn = CodeActTurn.of(state, runtime)
    opts, request = turn.options, turn.request
    action = state.get("action")
    checked = checked_of(turn.memory.get("checked"))  # a Seer's own results: the pool keeps none today
    mine = [text for speaker, text in turn.heard() if speaker == f"Player {turn.view.player}"]
    settled = table_settled(turn.table, checked, mine[-1] if mine else None, action)
    answer = Answer(context=turn.context, view=turn.view, request=request, options=opts, action=action,
                    words=state.get("utterance") if request.wants_words else None, heard=turn.heard(),
                    thoughts=private_texts(state), settled=settled, checked=checked or None,
                    reviewed=bool(state.get("reviewed")), response_words=opts.response_words,
                    chose=bool(state.get("chose")))
    return check(answer) | {"unchecked": None, "chose": False, "checked_after": "think"}
