"""Agent kind ``random``'s policy for every game: uniform legal play, for baselines and property tests.

It reads only the request (its answer shape, candidates and allowed answers),
so it plays any game of `roundtable.games.GAMES`; its words are the game's
plain words for the action (`GameRules.plain_words`).
"""

from __future__ import annotations

from roundtable.games import GAMES
from roundtable.games.protocol import Decision, PlayerView, Request
from roundtable.games.rng import rng_for


def decide(view: PlayerView, request: Request, seed: int) -> Decision:
    """A uniformly random legal decision for ``request``, drawn from ``rng_for(seed, "random", request.id)``.

    Picks are uniform among legal sets of players (a pick of one also among
    passing, when allowed), a vote ``random() < 0.5`` and any other yes/no
    uniform among the allowed answers.
    """
    rng = rng_for(seed, "random", request.id)
    fields: dict = {}
    if request.answer == "pick":
        if request.count == 1:
            options: list[tuple[int, ...] | None] = [(p,) for p in request.candidates]
            fields["players"] = rng.choice(options + ([None] if request.may_pass else []))
        else:
            fields["players"] = tuple(sorted(rng.sample(request.candidates, request.count or 0)))
    elif request.answer == "yes_no":
        # A team vote draws random() < 0.5, a card choice() among the legal ones (kept as recorded games drew them).
        fields["choice"] = rng.random() < 0.5 if request.kind == "vote_team" else rng.choice(request.allowed)
    if request.wants_words or request.answer == "words":
        fields["utterance"] = GAMES[view.game].plain_words(view, request, Decision.to(request, **fields))
    return Decision.to(request, **fields)
