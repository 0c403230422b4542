"""A toy third game, shipped by a package of its own (declared under the ``roundtable.games`` entry points).

Three to five players, one spy dealt at random; every player speaks, then names whom they accuse; the most
accused (the lowest seat among ties) confesses or denies, and the agents win when they caught the spy.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from roundtable.games.errors import ConfigurationError, IllegalActionError
from roundtable.games.protocol import (
    Decision,
    Event,
    GameRules,
    PlayerView,
    Request,
    Result,
    check_decision,
    view_fields,
)
from roundtable.games.rng import rng_for

PHASES = {"talk": "Every player says something.", "accuse": "Every player names whom they accuse.",
          "confirm": "The most accused confesses or denies."}
SIDES = {"spy": "spies", "agent": "agents"}


@dataclass(frozen=True)
class ToyState:
    roles: tuple[str, ...]
    phase: str
    accused: int = 0
    events: tuple[Event, ...] = ()
    winner: str | None = None
    reason: str = ""


def config(data: dict[str, Any]) -> dict[str, int]:
    unknown = set(data) - {"players"}
    if unknown:
        raise ConfigurationError(f"unknown toy options {sorted(unknown)}")
    players = int(data.get("players", 3))
    if not 3 <= players <= 5:
        raise ConfigurationError("the toy game is for 3 to 5 players")
    return {"players": players}


def new_game(cfg: dict[str, int], seed: int) -> ToyState:
    players = cfg["players"]
    spy = rng_for(seed, "toy", "deal").randrange(1, players + 1)
    roles = tuple("spy" if p == spy else "agent" for p in range(1, players + 1))
    events: list[Event] = [{"type": "game_start", "to": None, "players": players, "rules": {}}]
    events += [{"type": "role", "to": [p], "player": p, "role": r, "side": SIDES[r]} for p, r in enumerate(roles, 1)]
    return ToyState(roles, "talk", 0, tuple(events))


def pending(state: ToyState) -> list[Request]:
    players = range(1, len(state.roles) + 1)
    if state.phase == "talk":
        return [Request(id=f"talk.p{p}", kind="speak", player=p, phase="talk", round=1, answer="words",
                        wants_words=True) for p in players]
    if state.phase == "accuse":
        return [Request(id=f"accuse.p{p}", kind="accuse", player=p, phase="accuse", round=1, answer="pick", count=1,
                        candidates=tuple(q for q in players if q != p)) for p in players]
    if state.phase == "confirm":
        return [Request(id=f"confirm.p{state.accused}", kind="confess", player=state.accused, phase="confirm",
                        round=1, answer="yes_no", options=("confess", "deny"), unclear=False)]
    return []


def apply(state: ToyState, decisions: dict[int, Decision]) -> ToyState:
    requests = pending(state)
    if not requests:
        raise IllegalActionError("the game is over")
    if set(decisions) != {r.player for r in requests}:
        raise IllegalActionError(f"answers expected from players {sorted(r.player for r in requests)}")
    for request in requests:
        check_decision(request, decisions[request.player])
    events = list(state.events)
    if state.phase == "talk":
        events += [{"type": "utterance", "to": None, "speaker": p, "phase": "talk", "round": 1,
                    "text": decisions[p].utterance} for p in sorted(decisions)]
        return ToyState(state.roles, "accuse", 0, tuple(events))
    if state.phase == "accuse":
        targets = {p: decisions[p].players[0] for p in sorted(decisions)}
        events += [{"type": "accusation", "to": None, "player": p, "target": t} for p, t in targets.items()]
        counts = Counter(targets.values())
        accused = min(p for p, n in counts.items() if n == max(counts.values()))
        return ToyState(state.roles, "confirm", accused, tuple(events))
    caught = state.roles[state.accused - 1] == "spy"
    confess = decisions[state.accused].choice
    events.append({"type": "confession", "to": None, "player": state.accused, "confess": confess})
    winner, reason = ("agents", "the spy was caught") if caught else ("spies", "an agent was accused")
    events.append({"type": "game_over", "to": None, "winner": winner, "reason": reason})
    return ToyState(state.roles, "game_over", state.accused, tuple(events), winner, reason)


def view(state: ToyState, player: int) -> PlayerView:
    return PlayerView(game="toy", phase=state.phase, round=1,
                      **view_fields(state.events, player, len(state.roles), state.roles, {}))


def result(state: ToyState) -> Result | None:
    return Result(winner=state.winner, reason=state.reason) if state.phase == "game_over" else None


def action_of(request: Request, decision: Decision) -> dict[str, Any]:
    if request.answer == "pick":
        return {"target": decision.players[0] if decision.players else None}
    return {"confess": decision.choice} if request.answer == "yes_no" else {}


RULES: GameRules = GameRules(
    name="toy",
    phases=PHASES,
    roles=("spy", "agent"),
    config=config,
    config_dict=dict,
    configurations=lambda: [{"players": 3}, {"players": 5}],
    new_game=new_game,
    pending=pending,
    apply=apply,
    view=view,
    result=result,
    phase=lambda state: state.phase,
    events=lambda state: state.events,
    seats=lambda state: [(r, SIDES[r]) for r in state.roles],
    snapshot=lambda state: {"roles": list(state.roles), "phase": state.phase, "accused": state.accused,
                            "winner": state.winner, "reason": state.reason},
    restore=lambda snap, events: ToyState(tuple(snap["roles"]), snap["phase"], snap["accused"], tuple(events),
                                          snap["winner"], snap["reason"]),
    action_of=action_of,
    plain_words=lambda view, request, decision: "I am an agent.",
    round_name="hunt",
)
