"""The ``lga`` agent's check of its own team vote before it is cast: the shared check of knowledge-settled
decisions (`roundtable.aids.settled`, docs/agents/checks.md#knowledge-settled-decisions) on Avalon's
team vote.

No model call. A team vote read from the act step is compared with the vote that the player's own lines about
the team (templates ``avalon/team_knowledge`` and ``avalon/team_record``) say its side wants
(`roundtable.aids.settled.avalon_settled`). Which of them are checked is the seat option
``vote_check`` (``off``; ``knowledge``, the default; ``record``). A vote against the wanted one is asked for
once more, with the Host's note (template ``checks/vote_note``, the context's ``vote_note_prompt``) after the
instruction and no reason asked before the answer (the act step's ``reason_before`` is for first answers); the
second answer is kept whatever it says. With the seat option ``overrule`` (``auto``: on the embedded model, where
no re-ask changed a vote) it is replaced at once by the wanted one, with no second call.
Each check that fired is named in `Decision.checks` (``"vote reject against knowledge (no_evil_seen): asked
again"``), as the words checks of `roundtable.agents.lga.review` are.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roundtable.agents.lga.turn import Turn
from roundtable.aids.settled import avalon_settled, settled_update


def vote_update(turn: Turn, state: Mapping[str, Any], action: dict[str, Any] | None) -> dict[str, Any]:
    """The act step's state update for a team vote just read (`roundtable.aids.settled.settled_update`).

    Returns:
        ``{"action": None, "recheck": note, "reviewed": True, "checks": [...: asked again]}`` when the
        vote goes against the wanted one on a first answer; after a re-ask, ``{"recheck": None, "checks": [...:
        kept after asking again]}`` when it still does; with ``overrule``, ``{"action": the wanted vote,
        "checks": [...: overruled]}``; ``{}`` otherwise (no vote read, nothing wanted, or the option off).
    """
    mode = turn.options.vote_check
    settled = avalon_settled(turn.table) if mode != "off" else None
    return settled_update(turn.context, turn.view, turn.request, settled, action, mode, bool(state.get("reviewed")),
                          turn.options.overrules())
