"""Legal and illegal text actions built from the request in hand, for the environments' tests."""

from __future__ import annotations

import random

from roundtable.games.protocol import Request


def legal_text(request: Request, rng: random.Random) -> str:
    """A random legal action text for ``request``, in the answer format the observation states."""
    if request.answer == "words":
        return f"I am player {request.player} and I have words."
    if request.answer == "pick":
        if request.may_pass and rng.random() < 0.2:
            head = "pass"
        else:
            head = ", ".join(str(p) for p in rng.sample(list(request.candidates), request.count or 0))
    else:
        head = request.word(rng.choice(request.allowed))
    return head + (f"\nPlayer {request.player} speaks." if request.wants_words else "")
