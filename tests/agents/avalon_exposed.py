"""A hand-built Avalon position for the agents' tests: under ``assassination=after_each_quest`` the Assassin
missed a mid-game shot, so every player knows him as evil (`roundtable.games.avalon.known_evil`)."""

from __future__ import annotations

from roundtable.games import avalon
from roundtable.games.avalon.bots import naive as naive_bot
from roundtable.games.protocol import Decision

CONFIG = avalon.AvalonConfig.build("lan6", rules=["assassination=after_each_quest"])


def position(kind: str, miss: bool = True, seed: int = 1) -> tuple[avalon.AvalonState, list[avalon.Request]]:
    """A ``lan6`` game under ``assassination=after_each_quest`` played by the naive bots, whose Assassin, offered
    the mid-game shot after quest 1, names a good player who is not Merlin and misses (``miss``; else the bots
    play on and the naive Assassin passes); the first position after the offer with a request of ``kind``.
    """
    state = avalon.new_game(CONFIG, seed=seed)
    offered = False
    while not state.is_over:
        requests = avalon.pending(state)
        if offered and any(r.kind == kind for r in requests):
            return state, requests
        if requests[0].kind == "assassinate":
            offered = True
            if miss:
                (request,) = requests
                target = next(p for p in request.candidates if state.role_of(p) is not avalon.Role.MERLIN)
                state = avalon.apply(state, {request.player: Decision(
                    request_id=request.id, player=request.player, kind=request.kind, players=(target,))})
                continue
        state = avalon.apply(state, {r.player: naive_bot.decide(avalon.view(state, r.player), r, seed)
                                     for r in requests})
    raise AssertionError("the game ended before the position")


def assassin(state: avalon.AvalonState) -> int:
    """The Assassin's seat."""
    return state.players_with(avalon.Role.ASSASSIN)[0]
