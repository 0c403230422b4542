"""Avalon's part of the small-model aids (`roundtable.aids.games.GameAids`, the ``roundtable.aids`` entry point
``avalon``; docs/agents/aids.md#each-games-aids): the team vote the player's knowledge, the rules, its own words or the
record settle (`avalon_settled`), the stance its words state against that (`stance_against`), and the words that
give an Avalon player away (`exposure`). Rules: docs/games/avalon.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from roundtable.aids.games import GameAids
from roundtable.aids.holders import hidden_holders
from roundtable.aids.settled import Settled
from roundtable.detectors.exposure import exposes
from roundtable.detectors.knowledge import knowledge_vote
from roundtable.detectors.words import stated_stance
from roundtable.games.avalon import AvalonView, Role, known_evil
from roundtable.games.protocol import PlayerView, Request
from roundtable.tables.avalon import AvalonTable, fifth_team
from roundtable.tables.protocol import GameTable


def team_settled(view: AvalonView, team: Sequence[int], last_chance: bool) -> Settled | None:
    """The vote on ``team`` that the rules (``last_chance``: a rejection wins the game for evil) or the player's own
    knowledge (`roundtable.detectors.knowledge.knowledge_vote`) settle, or None; for a team vote (`avalon_settled`) and
    for words said about the team on the table (`roundtable.aids.review`)."""
    if last_chance:  # a rejection wins the game for evil: that settles every vote, knowledge included
        return Settled("rules", "fifth_team", approve=view.side == "good")
    known = knowledge_vote(Role(view.role), view.player, view.knowledge, team, exposed=view.exposed_assassin)
    if known is None:
        return None
    evil = known_evil(view)  # the reveal's evil players and an exposed Assassin
    if view.side == "evil":
        mine = tuple(p for p in team if p == view.player or p in evil)
        return Settled("knowledge", "side_on_team" if known else "side_off_team", approve=known, players=mine)
    seen = tuple(p for p in team if p in evil)
    return Settled("knowledge", "no_evil_seen" if known else "evil_seen", approve=known, players=seen)


def avalon_settled(table: AvalonTable) -> Settled | None:
    """The team vote the rules, the player's knowledge, its own words or the public record settle on the team in
    hand, or None, in that order of precedence.

    Only for a ``vote_team`` request; the rules and knowledge are the facts the prompt's team lines state
    (`AvalonTable.team_knowledge`, `team_settled`); the words are the stance the player's own words stated on
    this team (`AvalonView.said`, `roundtable.detectors.words.stated_stance`: words and action agree).
    """
    request, view = table.request, table.view
    if request.kind != "vote_team":
        return None
    settled = team_settled(view, list(request.subject), table.last_chance)
    if settled is not None:
        return settled
    stance = stated_stance(view.said) if view.said and set(view.team) == set(request.subject) else None
    if stance is not None:
        return Settled("words", "own_stance", approve=stance)
    if view.side != "good":
        return None
    if not table.failed_members():
        return Settled("record", "no_evidence", approve=True)
    return None


def stance_against(view: PlayerView, request: Request, words: str) -> tuple[bool, Settled] | None:
    """The stance ``words`` state on the team on the table (`roundtable.detectors.words.stated_stance`) and the
    vote on it that the rules or the speaker's own knowledge settle (`roundtable.aids.settled.team_settled`),
    when the two disagree ("I support it" said by an evil player of a team with no one of its side on it, whose
    vote will be a rejection); None otherwise. Only for an Avalon speaker's turn while a team is proposed."""
    if not isinstance(view, AvalonView) or request.kind != "speak" or not request.subject:
        return None
    stance = stated_stance(words)
    if stance is None:
        return None
    settled = team_settled(view, request.subject, fifth_team(view, request.attempt))
    return (stance, settled) if settled is not None and settled.approve != stance else None


def exposure(view: PlayerView, words: str, heard: Sequence[tuple[str, str]] = ()) -> str | None:
    """Why public ``words`` give an Avalon speaker away (`roundtable.detectors.exposure.exposes`), or None: an evil
    player naming its side, role or intent to fail (``"evil side"``) or calling its own number evil (``"own
    number"``), Merlin saying he is Merlin (``"merlin"``) or stating whom he sees as evil (``"merlin names
    evil"``), and any other good player stating who Merlin is (``"names merlin"``,
    `roundtable.aids.holders.hidden_holders`, "the leader" standing for the view's leader: right or wrong, the
    Assassin hears it; the play-quality measure counts it as Merlin exposed when right). Naming a player who
    claimed Merlin at the table in what the speaker ``heard`` gives nothing away."""
    if not isinstance(view, AvalonView):
        return None
    seen = [int(k["player"]) for k in view.knowledge if k.get("is") == "evil"]
    role = Role(view.role)
    why = exposes(words, role, seen, player=view.player, leader=view.leader)
    if why is None and role.side.value == "good" and hidden_holders(words, "merlin", view.player, heard,
                                                                    view.leader):
        return "names merlin"
    return why


def settled(table: GameTable, checked: Mapping[int, bool], statement: str | None,
            action: Mapping[str, Any] | None) -> Settled | None:
    """`avalon_settled` at an Avalon table (`roundtable.aids.games.GameAids.settled`); None at another."""
    return avalon_settled(table) if isinstance(table, AvalonTable) else None


def states_stance(view: PlayerView, request: Request) -> bool:
    """Whether the request is an Avalon speaker's turn while a team is proposed (its words state a stance on it)."""
    return isinstance(view, AvalonView) and request.kind == "speak" and bool(request.subject)


def leader(view: PlayerView) -> int | None:
    """The leader of the Avalon view ("the leader" in words), or None."""
    return view.leader if isinstance(view, AvalonView) else None


AIDS = GameAids("avalon", settled=settled, exposure=exposure, stance=stance_against, states_stance=states_stance,
                leader=leader, proposes_teams=True)
"""Avalon's aids (the ``roundtable.aids`` entry point ``avalon``)."""
