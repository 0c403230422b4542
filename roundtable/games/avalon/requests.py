"""The seat interface: what the game asks a player (`Request`) and what comes back (`Decision`).

Every agent kind, from the rule bots to the language-model agents, receives a
`PlayerView` and a `Request` and returns a `Decision`. A request carries its
legal options, so an agent never needs the game state.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .errors import IllegalActionError

RequestKind = Literal["propose_team", "speak", "vote_team", "quest_card", "assassinate"]


class Request(BaseModel):
    """One decision the game waits for.

    Attributes:
        id: deterministic id, unique within a game, e.g. ``r2.a3.vote_team.p4``.
        kind: ``propose_team`` (leader names a team), ``speak`` (say something,
            optionally suggesting a team), ``vote_team`` (approve/reject),
            ``quest_card`` (success/fail), ``assassinate`` (name Merlin).
        player: the player asked (1-based seat number).
        round: quest number 1..5; attempt: proposal number 1..5 within the round.
        phase: the game phase the request belongs to.
        team_size: players to name (``propose_team``; ``speak`` when a suggestion is asked).
        candidates: players that may be named (``propose_team``, ``assassinate``, suggestions).
        team: the team under vote or on the quest.
        cards: legal quest cards (``[True]`` for good players, ``[True, False]`` for evil).
        may_pass: ``assassinate`` only: the Assassin may decline (after-each-quest variant).
        wants_words: an utterance is asked for together with the action.
        final: ``propose_team`` only: this is the leader's final word on the team.
        audience: who hears the words (``None``: everyone).
    """

    model_config = ConfigDict(frozen=True)

    id: str
    kind: RequestKind
    player: int
    round: int
    attempt: int
    phase: str
    team_size: int | None = None
    candidates: tuple[int, ...] = ()
    team: tuple[int, ...] = ()
    cards: tuple[bool, ...] = ()
    may_pass: bool = False
    wants_words: bool = False
    final: bool = False
    audience: tuple[int, ...] | None = None


class Decision(BaseModel):
    """A player's answer to a `Request`.

    Exactly the action field of the request's kind is set: ``team``
    (``propose_team``; optionally ``speak`` as a suggestion), ``approve``
    (``vote_team``), ``success`` (``quest_card``), ``target`` (``assassinate``;
    ``None`` with ``may_pass`` means pass).

    Attributes:
        raw: the raw model text behind the decision (``None`` for rule bots).
        fallback: which fallback rule of SPEC.md §3.2 produced the action, or
            ``None`` when the response met the request (counts for VRR).
        usage: model cost of the decision: calls, tokens, latency (see records).
    """

    request_id: str
    player: int
    kind: RequestKind
    team: tuple[int, ...] | None = None
    approve: bool | None = None
    success: bool | None = None
    target: int | None = None
    utterance: str | None = None
    raw: str | None = None
    fallback: str | None = None
    usage: dict[str, Any] = Field(default_factory=dict)


def check_decision(request: Request, decision: Decision) -> None:
    """Check that ``decision`` is a legal answer to ``request``.

    Raises:
        IllegalActionError: naming what is wrong (wrong player or kind, team of
            the wrong size, duplicates, players outside the candidates, a card
            the player may not play, a target not allowed).
    """
    if decision.player != request.player or decision.request_id != request.id:
        raise IllegalActionError(
            f"decision for request {decision.request_id!r} of player {decision.player} "
            f"does not answer request {request.id!r} of player {request.player}"
        )
    if decision.kind != request.kind:
        raise IllegalActionError(f"request {request.id} asks for {request.kind}, not {decision.kind}")
    if request.kind == "propose_team" or (request.kind == "speak" and decision.team is not None):
        check_team(decision.team, request.team_size, request.candidates)
    elif request.kind == "vote_team":
        if decision.approve is None:
            raise IllegalActionError("a team vote must approve or reject")
    elif request.kind == "quest_card":
        if decision.success is None or decision.success not in request.cards:
            allowed = " or ".join("success" if c else "fail" for c in request.cards)
            raise IllegalActionError(f"player {request.player} may only play {allowed} on this quest")
    elif request.kind == "assassinate":
        if decision.target is None:
            if not request.may_pass:
                raise IllegalActionError("the Assassin must name a player now")
        elif decision.target not in request.candidates:
            raise IllegalActionError(
                f"player {decision.target} cannot be assassinated; choose one of {list(request.candidates)}"
            )


def check_team(team: tuple[int, ...] | None, size: int | None, candidates: tuple[int, ...]) -> None:
    """Check a named team: exactly ``size`` distinct players, all among ``candidates``.

    Raises:
        IllegalActionError: naming the problem.
    """
    if team is None:
        raise IllegalActionError("a team must be named")
    if len(set(team)) != len(team):
        raise IllegalActionError(f"team {list(team)} names a player twice")
    if size is not None and len(team) != size:
        raise IllegalActionError(f"the team must have {size} players, not {len(team)}")
    outside = [p for p in team if p not in candidates]
    if outside:
        raise IllegalActionError(f"players {outside} cannot be on this team (valid players: {list(candidates)})")
