"""The agent's check of its own team vote before it is cast: one re-ask when the vote goes against what it knows.

No model call here. A team vote read from the act step is compared with the
vote that the player's own lines about the team (templates
``avalon/team_knowledge`` and ``avalon/team_record``) say its side wants:

- **knowledge** (`roundtable.games.avalon.knowledge_vote`): Merlin on a team
  with or without a player he sees as evil; an evil player on a team with or
  without a player of its side;
- **record**: the fifth team of a quest, whose rejection wins the game for
  evil (every player: good approves, evil rejects, whatever its knowledge
  says of the team), and, for good players whose knowledge settles nothing,
  a team none of whose other members has been on a failed quest (the role
  cards' "without evidence against a member, approve").

Which of them are checked is the seat option ``vote_check`` (``off``,
``knowledge``, ``record``: both). A vote against the wanted one is asked for
once more, with the Host's note (template ``lga/vote_note``) after the
instruction and no reason asked before the answer (the act step's
``reason_before`` is for first answers); the second answer is kept whatever
it says. Each check that
fired is named in `Decision.checks` (``"vote reject against knowledge: asked
again"``), as the word checks of `roundtable.agents.lga.review` are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from roundtable.agents.lga.turn import Turn
from roundtable.games.avalon import Role, knowledge_vote


@dataclass(frozen=True)
class WantedVote:
    """The vote the player's lines say its side wants.

    Attributes:
        approve: True to approve the team. source: ``knowledge`` or ``record`` (see the module docstring).
        reason: why, for the Host's note: ``side_on_team``, ``side_off_team``, ``evil_seen``,
            ``no_evil_seen``, ``fifth_team`` or ``no_evidence``. players: the players the reason names.
    """

    approve: bool
    source: str
    reason: str
    players: tuple[int, ...] = ()


def wanted_vote(turn: Turn) -> WantedVote | None:
    """The vote the player's knowledge or the public record settles on the team in hand, or None.

    Only for a ``vote_team`` request; the same facts the prompt's team lines state
    (`Turn.team_knowledge`), so the check asks for nothing the player was not told.
    """
    request, view = turn.request, turn.view
    if request.kind != "vote_team":
        return None
    if turn.last_chance:  # a rejection wins the game for evil: that settles every vote, knowledge included
        return WantedVote(view.side == "good", "record", "fifth_team")
    team = list(request.subject)
    known = knowledge_vote(Role(view.role), view.player, view.knowledge, team)
    if known is not None:
        evil = {int(k["player"]) for k in view.knowledge if k.get("is") == "evil"}
        if view.side == "evil":
            mine = tuple(p for p in team if p == view.player or p in evil)
            return WantedVote(known, "knowledge", "side_on_team" if known else "side_off_team", mine)
        seen = tuple(p for p in team if p in evil)
        return WantedVote(known, "knowledge", "no_evil_seen" if known else "evil_seen", seen)
    if view.side != "good":
        return None
    if not turn.table.failed_members():
        return WantedVote(True, "record", "no_evidence")
    return None


def vote_update(turn: Turn, state: Mapping[str, Any], action: dict[str, Any] | None) -> dict[str, Any]:
    """The act step's state update for a team vote just read: ask again once, or record what a re-ask left.

    Returns:
        ``{"action": None, "recheck": note, "reviewed": True, "checks": [...: asked again]}`` when the
        vote goes against the wanted one on a first answer; after a re-ask, ``{"checks": [...: kept after
        asking again]}`` when it still does; ``{}`` otherwise (no vote read, nothing wanted, or the option off).
    """
    mode = turn.options.vote_check
    if mode == "off" or not action or "choice" not in action:
        return {}
    wanted = wanted_vote(turn)
    if wanted is None or (mode == "knowledge" and wanted.source != "knowledge"):
        return {}
    cast = bool(action["choice"])
    if cast == wanted.approve:
        return {}
    word = turn.request.word(cast)
    finding = f"vote {word} against {wanted.source} ({wanted.reason})"
    if state.get("reviewed"):
        return {"checks": [f"{finding}: kept after asking again"]}
    note = turn.context.render("lga/vote_note", cast=word, wanted=turn.request.word(wanted.approve),
                               reason=wanted.reason, players=list(wanted.players), me=turn.view.player)
    return {"action": None, "recheck": note, "reviewed": True, "checks": [f"{finding}: asked again"]}
