"""Agent kind ``random``: uniform legal play, for baselines and property tests."""

from __future__ import annotations

from ...rng import rng_for
from ..requests import Decision, Request
from ..view import PlayerView
from .words import words_for


def decide(view: PlayerView, request: Request, seed: int) -> Decision:
    """A uniformly random legal decision for ``request``, drawn from ``rng_for(seed, request.id)``.

    Teams are uniform among legal teams, votes and cards among legal values,
    the Assassin's target among the candidates (and passing, when allowed).
    """
    rng = rng_for(seed, "random", request.id)
    base = {"request_id": request.id, "player": request.player, "kind": request.kind}
    if request.kind in ("propose_team", "speak"):
        team = tuple(sorted(rng.sample(request.candidates, request.team_size))) if request.team_size else None
        words = words_for(view, request, team) if request.wants_words else None
        return Decision(**base, team=team, utterance=words)
    if request.kind == "vote_team":
        return Decision(**base, approve=rng.random() < 0.5)
    if request.kind == "quest_card":
        return Decision(**base, success=rng.choice(request.cards))
    options: list[int | None] = list(request.candidates) + ([None] if request.may_pass else [])
    return Decision(**base, target=rng.choice(options), utterance=words_for(view, request, None) if request.wants_words else None)
