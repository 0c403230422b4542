"""Werewolf game helpers for the agent tests: play the naive bots until a moment of interest; a ``cga`` seat's
options with the aids on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roundtable.games import werewolf
from roundtable.games.protocol import Request
from roundtable.games.werewolf.bots import naive
from roundtable.models.spec import is_small

# xu7, seed 1: 1 Seer, 2 Witch, 3 Guard, 4 and 5 Villagers, 6 and 7 Werewolves.


def play_werewolf_until(predicate: Callable[[werewolf.WerewolfState, list[Request]], bool],
                        seed: int = 1) -> tuple[werewolf.WerewolfState, list[Request]]:
    """Play an ``xu7`` game with the naive bots until ``predicate(state, pending)`` holds.

    Raises:
        AssertionError: the game ended first.
    """
    state = werewolf.new_game(werewolf.WerewolfConfig.build(), seed=seed)
    while not state.is_over:
        requests = werewolf.pending(state)
        if predicate(state, requests):
            return state, requests
        state = werewolf.apply(state, {r.player: naive.decide(werewolf.view(state, r.player), r, seed)
                                       for r in requests})
    raise AssertionError("the game ended before the predicate held")


def werewolf_request(kind: str, player: int, day: int = 1) -> tuple[werewolf.WerewolfState, Request]:
    """The first ``kind`` request of ``player`` on ``day`` or later, with the state it is asked in."""
    state, requests = play_werewolf_until(
        lambda s, rs: s.day >= day and any(r.kind == kind and r.player == player for r in rs))
    return state, next(r for r in requests if r.kind == kind and r.player == player)


def cga_aids_on(model: str | None) -> dict[str, Any]:
    """Seat options of a ``cga`` seat that plays with the aids on, as every ``cga`` test seat played before the aids
    had a switch of their own: ``aids`` on, and each ``auto`` aid switch as it resolved for ``model`` then (on for
    a small model such as ``local``; off for the tests' ``fake`` or any other), so a test of the tuned behaviour
    renders the aids' prompts (``aids/cga/...``) and keeps testing exactly what it tested."""
    if is_small(model):
        return {"aids": "on"}
    return {"aids": "on", "overrule": False, "drop_sentences": False, "dry": False, "refresh": "action",
            "merge_answers": False}
