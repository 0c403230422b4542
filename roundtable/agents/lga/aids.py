"""The ``aids`` step of the ``lga`` graph: how lga hands an answer of its act or respond step to the small-model aids
(`roundtable.aids.interface`, docs/agents/aids.md#the-aids-step), drawn in Studio as a node of its own.

No model call. The act step (a team vote, and words when one call wrote both) or the respond step (words) that
answered marks its answer ``unchecked``; this step gives the aids what the player heard (the utterances among its
memory records, its own among them), its private notes that the prompt showed (summary, analysis, plan), and, for a
choice, what the player's own knowledge (and its own words) settle at the game's table
(`roundtable.aids.interface.table_settled`: Avalon's team vote; Werewolf's day vote, night kill and Seer's check).
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
from roundtable.aids.interface import Answer, Settled, check, table_settled


def heard(turn: Turn) -> list[tuple[str, str]]:
    """The utterances in the player's records, ``[("Player 3", text), ...]`` (its own among them)."""
    return [(str(r["speaker"]), str(r.get("text") or "")) for r in turn.memory.get("records") or []
            if r.get("speaker") != HOST]


def own_statement(turn: Turn) -> str | None:
    """The player's last words at the table among its records (by a Werewolf day vote: that day's statement), or
    None."""
    mine = [text for speaker, text in heard(turn) if speaker == f"Player {turn.view.player}"]
    return mine[-1] if mine else None


def settled_of(turn: Turn, action: dict[str, Any] | None) -> Settled | None:
    """What the player's own knowledge (and its own words) settle for the choice in hand at the game's table
    (`roundtable.aids.interface.table_settled`), or None: nothing, or the seat's ``vote_check`` is off."""
    if turn.options.vote_check == "off":
        return None
    return table_settled(turn.table, turn.checked, own_statement(turn), action)


def answer_of(turn: Turn, state: LgaState) -> Answer:
    """The `Answer` the act or respond step left in ``state`` (``unchecked`` names it)."""
    opts, request = turn.options, turn.request
    step = state.get("unchecked")
    settled = settled_of(turn, state.get("action")) if step == "act" else None
    with_words = request.wants_words and (step == "respond" or not opts.separate_response)
    return Answer(context=turn.context, view=turn.view, request=request, options=opts, action=state.get("action"),
                  words=state.get("utterance") if with_words else None, heard=heard(turn), thoughts=turn.notes(),
                  settled=settled, reviewed=bool(state.get("reviewed")), response_words=opts.response_words,
                  chose=step == "act", checked=turn.checked)


def aids(state: LgaState, runtime: Runtime[LgaContext]) -> dict[str, Any]:
    """The ``aids`` node: the aids' update of the answer ``unchecked`` names, and ``checked_after``: that step."""
    turn = Turn.of(state, runtime)
    return check(answer_of(turn, state)) | {"unchecked": None, "checked_after": state.get("unchecked")}
