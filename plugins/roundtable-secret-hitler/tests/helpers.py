"""Building and driving Secret Hitler states in the rule tests: a game with chosen fields, and answers by kind."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from roundtable.games.protocol import Decision
from roundtable_secret_hitler import RULES
from roundtable_secret_hitler.roles import FASCISTS, Role, knowledge
from roundtable_secret_hitler.rules import _open_round
from roundtable_secret_hitler.state import SecretHitlerState

L, F = "liberal", "fascist"


def roles_for(players: int, hitler: int = 1, fascists: tuple[int, ...] = (2,)) -> tuple[Role, ...]:
    """Roles with Hitler and the Fascists at the seats given, Liberals elsewhere."""
    return tuple(Role.HITLER if p == hitler else Role.FASCIST if p in fascists else Role.LIBERAL
                 for p in range(1, players + 1))


def game(players: int = 5, *, seed: int = 0, talk: bool = False, president: int = 1, hitler: int = 1,
         fascists: tuple[int, ...] | None = None, **changes: Any) -> SecretHitlerState:
    """A new game with the roles, first President and any other fields chosen (``deck``, ``fascist``, ...)."""
    config = RULES.config({"players": players, "rules": {"discussion": "after_nomination" if talk else "none"}})
    state = RULES.new_game(config, seed)
    if fascists is None:
        fascists = tuple(q for q in range(1, players + 1) if q != hitler)[: FASCISTS[players]]
    roles = roles_for(players, hitler, fascists)
    events = [state.events[0]]
    events += [{"type": "role", "to": [p], "player": p, "role": r.value, "side": r.side.value}
               for p, r in enumerate(roles, start=1)]
    events += [{"type": "knowledge", "to": [p], "player": p, "knows": knowledge(roles, p)}
               for p in range(1, players + 1)]
    state = replace(state, roles=roles, events=tuple(events), **changes)
    return _open_round(state, 1, president, president)


def answer(state: SecretHitlerState, **by_player: Any) -> SecretHitlerState:
    """Apply one answer per pending request: an int or a tuple names players, a bool is a yes/no choice, a str
    words; players not named answer ja (votes) or the first legal answer."""
    decisions = {}
    for request in RULES.pending(state):
        value = by_player.get(f"p{request.player}")
        if request.answer == "pick":
            players = (value,) if isinstance(value, int) else value or tuple(request.candidates[: request.count])
            decisions[request.player] = Decision.to(request, players=players)
        elif request.answer == "yes_no":
            choice = value if isinstance(value, bool) else (True if request.kind == "vote" else request.allowed[0])
            decisions[request.player] = Decision.to(request, choice=choice)
        else:
            decisions[request.player] = Decision.to(request, utterance=value or "words")
    return RULES.apply(state, decisions)


def votes(state: SecretHitlerState, ja: set[int]) -> SecretHitlerState:
    """The election answered: ja by the players of ``ja``, nein by the others."""
    return answer(state, **{f"p{p}": p in ja for p in state.alive})


def govern(state: SecretHitlerState, chancellor: int, *, discard: bool | None = None,
           enact: bool | None = None) -> SecretHitlerState:
    """Nominate ``chancellor``, elect the government unanimously, and legislate: the President discards (``True``: a
    Liberal policy) and the Chancellor enacts (``True``: a Liberal one), the first legal answer when not given or
    not held; a veto phase is answered with no veto."""
    state = answer(state, **{f"p{state.president}": chancellor})
    state = votes(state, set(state.alive))
    if state.phase.value != "president_discard":
        return state
    request = RULES.pending(state)[0]
    state = answer(state, **{f"p{state.president}": discard if discard in request.allowed else request.allowed[0]})
    if state.phase.value == "veto":
        state = answer(state, **{f"p{chancellor}": False})
    request = RULES.pending(state)[0]
    return answer(state, **{f"p{chancellor}": enact if enact in request.allowed else request.allowed[0]})


def kinds(state: SecretHitlerState) -> list[str]:
    """The kinds of the pending requests."""
    return [r.kind for r in RULES.pending(state)]


def events_of(state: SecretHitlerState, kind: str) -> list[dict[str, Any]]:
    """The log entries of type ``kind``."""
    return [e for e in state.events if e["type"] == kind]
