"""The ``aids`` step of the ``cga`` graph: how cga hands the answer of its ``think`` step to the small-model aids
(`roundtable.aids.interface`, docs/agents/aids.md#the-aids-step), drawn in Studio as a node of its own.

No model call. The ``think`` step that answered marks its answer ``unchecked`` (``chose``: it chose the action in
this call); this step gives the aids:

- for a choice, what the player's own knowledge settles at the game's table (`roundtable.aids.interface.table_settled`:
  Avalon's team vote; Werewolf's day vote, night kill and Seer's check, and a day vote against the player's own
  statement of that day where its knowledge leaves the vote open);
- for the words, what the player heard (the utterances among its memory's messages), its private texts
  (`private_texts`: the reflection, the answers to its questions, its chains of thought, and the reflections of
  its earlier decisions, kept in its pool's experience: Xu et al.'s reflection said aloud is the commonest copy of
  a small model), and a Seer's own checks.

A re-ask sends the turn back to ``think`` with the Host's note (the action kept when only the words failed); the
second answer is kept whatever it says. With no check on (the aids off), the graph goes past this step.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.suggest import private_texts
from roundtable.agents.cga.turn import CgaTurn
from roundtable.aids.interface import Answer, check, table_settled


def own_statement(turn: CgaTurn) -> str | None:
    """The player's last words at the table among its memory's messages (by a day vote: that day's statement,
    every living player speaking before the vote), or None."""
    mine = [text for speaker, text in turn.heard() if speaker == f"Player {turn.view.player}"]
    return mine[-1] if mine else None


def answer_of(turn: CgaTurn, state: CgaState) -> Answer:
    """The `Answer` the ``think`` step left in ``state``."""
    action = state.get("action")
    settled = table_settled(turn.table, turn.checked, own_statement(turn), action)
    earlier = [str(e.get("reflection") or "") for e in turn.memory.get("experience") or []]  # earlier rounds'
    opts = turn.options
    return Answer(context=turn.context, view=turn.view, request=turn.request, options=opts, action=action,
                  words=state.get("utterance") if turn.request.wants_words else None, heard=turn.heard(),
                  thoughts=[*private_texts(state), *earlier], settled=settled, reviewed=bool(state.get("reviewed")),
                  response_words=opts.response_words, chose=bool(state.get("chose")), checked=turn.checked)


def aids(state: CgaState, runtime: Runtime[Any]) -> dict[str, Any]:
    """The ``aids`` node: the aids' update of the ``think`` step's answer, and ``checked_after``: that step."""
    turn = CgaTurn.of(state, runtime)
    return check(answer_of(turn, state)) | {"unchecked": None, "chose": False, "checked_after": "think"}
