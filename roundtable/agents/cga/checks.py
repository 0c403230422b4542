"""The ``cga`` agent's checks of its answer before it gives it: the checks every kind shares
(`roundtable.aids.answer_checks`; docs/agents/checks.md), over this agent's memory and private texts.

No model call. After each ``think`` call (`roundtable.agents.cga.think`):

- a choice it read is checked against what the player's own knowledge settles (Avalon's team vote,
  `avalon_settled`; Werewolf's day vote, night kill and Seer's check, `werewolf_settled`), and a Werewolf day
  vote against the player's own statement of that day where its knowledge leaves the vote open
  (`werewolf_day_settled`): on a problem the whole answer is asked for again;
- the words are checked against what the player heard (the utterances among its memory's messages), its own
  private texts (`private_texts`: the reflection, the answers to its questions, its chains of thought, this
  one's included; and the reflections of its earlier decisions, kept in its pool's experience: Xu et al.'s
  reflection said aloud is the commonest copy of a small model), the players it chose, and what gives it away:
  on a problem the words are asked for again, the action kept.

Either way ``think`` runs once more with the Host's note; the second answer is kept whatever it says.
"""

from __future__ import annotations

from typing import Any

from roundtable.agents.cga.state import CgaState
from roundtable.agents.cga.suggest import current_reflection
from roundtable.agents.cga.turn import CgaTurn
from roundtable.aids.answer_checks import check_answer
from roundtable.aids.settled import avalon_settled
from roundtable.aids.werewolf_knowledge import werewolf_day_settled


def private_texts(state: CgaState, thought: str = "") -> list[str]:
    """The private texts behind the decision in hand: its reflection (this decision's, else the round's), the
    answers to its questions (likewise), every chain of thought written so far and ``thought`` (`Decision.thoughts`)."""
    pool = state.get("pool") or {}
    answers = state.get("answers") if state.get("refresh") else pool.get("answers")
    texts = [current_reflection(state), *(str(a.get("answer") or "") for a in answers or [])]
    return [text for text in (*texts, *(state.get("thoughts") or []), thought) if text]


def own_statement(turn: CgaTurn) -> str | None:
    """The player's last words at the table among its memory's messages (by a day vote: that day's statement,
    every living player speaking before the vote), or None."""
    mine = [text for speaker, text in turn.heard() if speaker == f"Player {turn.view.player}"]
    return mine[-1] if mine else None


def check_update(turn: CgaTurn, state: CgaState, action: dict[str, Any] | None, chose: bool,
                 words: str | None, thought: str) -> dict[str, Any]:
    """The checks' state update after a ``think`` call (`roundtable.aids.answer_checks.check_answer`).

    Args:
        turn: the decision in hand.
        state: the graph state before the call (``reviewed``: this is the second answer).
        action: the action the decision now holds (``None``: none).
        chose: the call chose the action (a choice kept from the first answer is not checked again).
        words: the words read (None: none asked or given).
        thought: the call's chain of thought.
    """
    settled = (avalon_settled(turn.table) if turn.table is not None
               else werewolf_day_settled(turn.view, turn.request, turn.checked, own_statement(turn), action))
    earlier = [str(e.get("reflection") or "") for e in turn.memory.get("experience") or []]  # earlier rounds'
    thoughts = [*private_texts(state, thought), *earlier]
    return check_answer(turn.context, turn.view, turn.request, turn.options, settled=settled, action=action,
                        chose=chose, words=words, heard=turn.heard(), thoughts=thoughts,
                        response_words=turn.options.response_words, reviewed=bool(state.get("reviewed")),
                        overrule=turn.options.overrules(),
                        drop=turn.options.drops_sentences(), checked=turn.checked)
