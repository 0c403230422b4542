"""The ``lga`` agent's check of its own words before it says them: the shared words checks
(`roundtable.aids.review`, docs/agents/checks.md#words-checks) over what this agent heard and wrote.

No model call. What the player heard is the utterances among its memory records (another player's or its own);
its private thoughts are the notes this decision's prompt showed (summary, analysis, plan: `notes`). On a
problem the words are asked for once more, with the Host's note (template ``checks/words_note``, the context's
``review_note_prompt``) after the instruction, by the respond step (the action already chosen is kept and stated
in its prompt); words asked for again after a near copy are sampled warmer
(`roundtable.aids.sampling.AGAIN_TEMPERATURE`). The second answer is kept whatever it says. Each check
that fired is named in `Decision.checks` (``"near copy of Player 3: asked again"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roundtable.agents.lga.memory import HOST
from roundtable.agents.lga.turn import Turn
from roundtable.aids.review import words_update


def heard(turn: Turn) -> list[tuple[str, str]]:
    """The utterances in the player's records, ``[("Player 3", text), ...]`` (its own among them)."""
    return [(str(r["speaker"]), str(r.get("text") or "")) for r in turn.memory.get("records") or []
            if r.get("speaker") != HOST]


def notes(turn: Turn) -> list[str]:
    """The notes a prompt of this decision shows: summary, analysis and plan (an ablated module's left out)."""
    memory, opts = turn.memory, turn.options
    shown = [memory.get("summary"), None if opts.no_analysis else memory.get("analysis"),
             None if opts.no_plan else memory.get("plan")]
    return [str(note) for note in shown if note]


def review_update(turn: Turn, state: Mapping[str, Any], words: str | None,
                  players: list[int] | None) -> dict[str, Any]:
    """The state update of a step that spoke (`roundtable.aids.review.words_update`): ask again once with
    the Host's note, or record what a re-ask left.

    Returns:
        ``{"recheck": note, "reviewed": True, "copied": bool, "checks": [...: asked again]}`` when the words must be
        asked for again; after a re-ask, ``{"recheck": None, "checks": [...: kept]}`` for problems that
        remain (or none); ``{}`` when nothing was found on a first answer.
    """
    opts = turn.options
    return words_update(turn.context, turn.view, turn.request, words, players, heard=heard(turn),
                        thoughts=notes(turn), checks=opts.word_checks, response_words=opts.response_words,
                        reviewed=bool(state.get("reviewed")), drop=opts.drops_sentences())
