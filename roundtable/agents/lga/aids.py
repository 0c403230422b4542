"""The ``aids`` step of the ``lga`` graph: how lga hands an answer of its act or respond step to the small-model aids
(`roundtable.aids.interface`, docs/agents/aids.md#the-aids-step), drawn in Studio as a node of its own.

No model call. The act step (a team vote, and words when one call wrote both) or the respond step (words) that
answered marks its answer ``unchecked``; this step gives the aids what the player heard (the utterances among its
memory records, its own among them), its private notes that the prompt showed (summary, analysis, plan), and, for a
team vote, what the player's own lines about the team say its side wants (`roundtable.aids.settled.avalon_settled`).
What the aids return goes back into the state: a re-ask clears the answer, so the step that gave it runs again with
the Host's note (the action kept while words are asked again: the paper's order, action then words in line with
it); an overrule or dropped sentences replace it. With no check on (the aids off), the graph goes past this step.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.lga.context import LgaContext
from roundtable.agents.lga.memory import HOST
from roundtable.agents.lga.state import LgaState
from roundtable.agents.lga.turn import Turn
from roundtable.aids.interface import Answer, avalon_settled, check


def heard(turn: Turn) -> list[tuple[str, str]]:
    """The utterances in the player's records, ``[("Player 3", text), ...]`` (its own among them)."""
    return [(str(r["speaker"]), str(r.get("text") or "")) for r in turn.memory.get("records") or []
            if r.get("speaker") != HOST]


def answer_of(turn: Turn, state: LgaState) -> Answer:
    """The `Answer` the act or respond step left in ``state`` (``unchecked`` names it)."""
    opts, request = turn.options, turn.request
    step = state.get("unchecked")
    vote = step == "act" and request.kind == "vote_team"
    with_words = request.wants_words and (step == "respond" or not opts.separate_response)
    return Answer(context=turn.context, view=turn.view, request=request, options=opts, action=state.get("action"),
                  words=state.get("utterance") if with_words else None, heard=heard(turn), thoughts=turn.notes(),
                  settled=avalon_settled(turn.table) if vote and opts.vote_check != "off" else None,
                  reviewed=bool(state.get("reviewed")), response_words=opts.response_words, chose=vote)


def aids(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
    """The ``aids`` node: the aids' update of the answer ``unchecked`` names, and ``checked_after``: that step."""
    turn = Turn.of(state, runtime)
    return check(answer_of(turn, state)) | {"unchecked": None, "checked_after": state.get("unchecked")}
