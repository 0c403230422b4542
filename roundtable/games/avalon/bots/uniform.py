"""Agent kind ``random``: uniform legal play, for baselines and property tests."""

from __future__ import annotations

from ...protocol import Decision, PlayerView, Request
from ...rng import rng_for
from .words import words_for


def decide(view: PlayerView, request: Request, seed: int) -> Decision:
    """A uniformly random legal decision for ``request``, drawn from ``rng_for(seed, request.id)``.

    Teams are uniform among legal teams, votes and cards among legal values,
    the Assassin's target among the candidates (and passing, when allowed).
    """
    rng = rng_for(seed, "random", request.id)
    if request.answer == "pick":
        if request.count == 1:
            options: list[tuple[int, ...] | None] = [(p,) for p in request.candidates]
            players = rng.choice(options + ([None] if request.may_pass else []))
            named = None
        else:
            players = named = tuple(sorted(rng.sample(request.candidates, request.count or 0)))
        return Decision.to(request, players=players,
                           utterance=words_for(view, request, named) if request.wants_words else None)
    if request.answer == "yes_no":
        # A team vote draws random() < 0.5, a card choice() among the legal ones (kept as recorded games drew them).
        choice = rng.random() < 0.5 if request.kind == "vote_team" else rng.choice(request.allowed)
        return Decision.to(request, choice=choice)
    return Decision.to(request, utterance=words_for(view, request, None))
