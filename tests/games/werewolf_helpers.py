"""Driving Werewolf games in tests: answer the pending requests by kind until a phase is reached."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from roundtable.games import werewolf as W
from roundtable.games.protocol import Decision, Request

Answer = Callable[[Request], Any]
"""``answer(request)``: a player number (a pick), ``None`` (a pass), a bool (yes/no) or words."""

DEFAULTS: dict[str, Answer] = {
    "kill": lambda r: None, "protect": lambda r: r.candidates[0], "save": lambda r: False,
    "poison": lambda r: None, "see": lambda r: r.candidates[0], "speak": lambda r: f"words of {r.player}",
    "eliminate": lambda r: None, "last_words": lambda r: f"last words of {r.player}",
}


def decision(request: Request, value: Any) -> Decision:
    """The decision answering ``request`` with ``value`` (see `Answer`)."""
    if request.answer == "pick":
        return Decision.to(request, players=None if value is None else (value,))
    if request.answer == "yes_no":
        return Decision.to(request, choice=bool(value))
    return Decision.to(request, utterance=str(value))


def step(state: W.WerewolfState, **answers: Answer) -> W.WerewolfState:
    """Apply one decision point, each request answered by ``answers[kind]`` (else `DEFAULTS`)."""
    requests = W.pending(state)
    return W.apply(state, {r.player: decision(r, answers.get(r.kind, DEFAULTS[r.kind])(r)) for r in requests})


def until(state: W.WerewolfState, phase: W.Phase, **answers: Answer) -> W.WerewolfState:
    """Play (at least one step) until the game is in ``phase`` or over."""
    state = step(state, **answers)
    for _ in range(500):
        if state.phase in (phase, W.Phase.OVER):
            return state
        state = step(state, **answers)
    raise AssertionError(f"{phase} never reached")


def seat(state: W.WerewolfState, role: W.Role) -> int:
    """The (first) player holding ``role``."""
    return next(p for p in state.players if state.role_of(p) is role)


def seats(state: W.WerewolfState, role: W.Role) -> list[int]:
    """Every player holding ``role``."""
    return [p for p in state.players if state.role_of(p) is role]


def game(*rules: str, seed: int = 1, roles: list[str] | None = None) -> W.WerewolfState:
    """A new game of the ``xu7`` preset (or ``roles``) under ``rules`` (``KEY=VALUE``)."""
    return W.new_game(W.WerewolfConfig.build(roles=roles, rules=list(rules)), seed)
