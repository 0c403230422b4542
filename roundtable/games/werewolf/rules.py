"""Werewolf transitions: the deal, the night (werewolves, guard, witch, seer), dawn, the day (talk, vote,
last words) and the end (docs/games/werewolf.md; Xu et al. 2023).

Pure functions over `WerewolfState`. `apply` checks the answers against
`pending(state)` and raises `IllegalActionError` naming the broken rule; on
success it returns a new state with the new events appended. The rules, as
played here:

- **Night**, in this order; a role whose player is dead is skipped:
  1. *werewolves*, by the ``werewolf_night`` variant:

     - ``sequential`` (Xu et al.; the ``xu7`` default): the living werewolves
       vote in seat order, one request at a time. Each names a living player
       or passes and, when a teammate lives, may add words for its teammates;
       its words and vote go at once to the living werewolves only, so every
       later voter has them before it votes. Once all have voted, the target
       is the player named more often than any other choice, a pass counting
       as a choice; otherwise there is no consensus and no kill (two
       werewolves kill only when they name the same player). This is the
       moderator of Xu et al.'s code (``chatarena/environments/werewolf.py``:
       passes are tallied with the names, and a tie for the most is a pass);
       their rules prompt says "no consensus" kills nobody, and night 2 of
       their appendix's game shows a split vote killing nobody.
     - ``simultaneous``: each living werewolf names a living player or
       passes, at once; the player named most often is the target (passes
       not counted); a tie or all passes means no kill.

     Either way the werewolves see each other's votes and the target.
  2. *guard*: protects one living player (itself allowed), never the one it
     protected the night before; protection cancels the werewolf kill only.
  3. *witch*: while she holds the antidote she is told the target (or that
     there is none) and, when there is one, asked whether to save it; then,
     while she holds the poison, she may poison one living player other than
     herself. Each potion is used once per game; under
     ``potions_per_night=one`` (the default) a night she saves she is not
     offered the poison.
  4. *seer*: checks one living player other than itself and learns
     privately whether it is a werewolf.
- **Dawn** (automatic): the target dies unless protected or saved (protected
  *and* saved also survives); a poisoned player dies whatever the Guard did.
  The dead are announced, not how they died nor their roles.
- **Day**: the living speak once each in an order drawn fresh each day from
  the game seed; then each living player votes to eliminate another living
  player or passes, at once, and the votes are public; the most votes is
  eliminated, a tie (or no votes) eliminates nobody; the eliminated player
  says last words, unless the elimination ended the game.
- **End**, checked after dawn and after an elimination: the village wins
  when no werewolf is alive; the werewolves win when the living werewolves
  are at least as many as the other living players or, under
  ``werewolf_win=parity_or_villagers`` (Xu et al.), when every plain Villager
  is dead. When both sides' conditions hold at once (the last werewolf and the
  last villager die the same night), the village wins. A day that ends with
  ``day == max_days`` and no winner ends the game in a draw.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Event, Request, check_decisions
from roundtable.games.rng import rng_for
from roundtable.games.werewolf.config import PotionsPerNight, WerewolfConfig, WerewolfNight, WerewolfWin
from roundtable.games.werewolf.roles import Role, Side
from roundtable.games.werewolf.state import Phase, WerewolfState

PUBLIC = None

# End reasons recorded in the log and the game record.
WEREWOLVES_DEAD = "werewolves_dead"
PARITY = "werewolves_at_parity"
VILLAGERS_DEAD = "villagers_dead"
MAX_DAYS = "max_days"

SAVE_WORDS = ("save", "pass")
NIGHT_ORDER = (Phase.WEREWOLVES, Phase.GUARD, Phase.WITCH, Phase.SEER, Phase.DAWN)


# --------------------------------------------------------------------- setup


def new_game(config: WerewolfConfig, seed: int) -> WerewolfState:
    """Deal the roles from ``rng_for(seed, "setup")``, tell each player its role (the werewolves also
    each other) and open night 1.

    Returns:
        A state in the ``werewolves`` phase of day 1, its log holding the public ``game_start``, each
        player's private ``role`` and ``knowledge``, and the public ``night_start``.
    """
    roles = list(config.roles)
    rng_for(seed, "setup").shuffle(roles)
    dealt = tuple(roles)
    wolves = [p for p in range(1, len(dealt) + 1) if dealt[p - 1] is Role.WEREWOLF]
    events: list[Event] = [{"type": "game_start", "to": PUBLIC, "players": len(dealt),
                            "role_set": sorted(r.value for r in config.roles), "rules": config.rules.to_dict(),
                            "preset": config.preset}]
    for p, role in enumerate(dealt, start=1):
        events.append({"type": "role", "to": [p], "player": p, "role": role.value, "side": role.side.value})
    for p, role in enumerate(dealt, start=1):
        knows = [{"player": q, "is": "werewolf"} for q in wolves if q != p] if role is Role.WEREWOLF else []
        events.append({"type": "knowledge", "to": [p], "player": p, "knows": knows})
    state = WerewolfState(config=config, seed=seed, roles=dealt, phase=Phase.WEREWOLVES, events=tuple(events))
    return _open_night(state, 1)


def _open_night(state: WerewolfState, day: int) -> WerewolfState:
    event = {"type": "night_start", "to": PUBLIC, "day": day, "alive": list(state.alive)}
    return state.evolve([event], phase=Phase.WEREWOLVES, day=day, target=None, kill_votes=(), saved=False,
                        poisoned=None, protected=None, speakers=(), eliminated=None, witch_step=None)


# ------------------------------------------------------------------- queries


def winner(state: WerewolfState) -> tuple[Side, str] | None:
    """The side that has won in ``state`` and why, or ``None`` (docs/games/werewolf.md#end-of-the-game; see the module
    docstring)."""
    wolves = state.living(Role.WEREWOLF)
    if not wolves:
        return Side.VILLAGE, WEREWOLVES_DEAD
    if len(wolves) >= len(state.alive) - len(wolves):
        return Side.WEREWOLVES, PARITY
    if (state.config.rules.werewolf_win is WerewolfWin.PARITY_OR_VILLAGERS
            and Role.VILLAGER in state.roles and not state.living(Role.VILLAGER)):
        return Side.WEREWOLVES, VILLAGERS_DEAD
    return None


def pending(state: WerewolfState) -> list[Request]:
    """The decisions the game waits for now, one `Request` per player asked.

    Kinds (the game's own words) and shapes: ``kill`` (pick one living player, or pass: under
    ``werewolf_night=sequential`` the next living werewolf in seat order, wanting words for its living
    teammates when it has any (``audience``: the living werewolves), ``details["votes"]`` the votes cast before
    it tonight; under ``simultaneous`` each living werewolf at once), ``protect`` (pick one, not last night's),
    ``save`` (yes/no: ``save`` or ``pass``; unclear counts as pass), ``poison`` (pick one, or pass), ``see``
    (pick one), ``speak`` and ``last_words`` (words), ``eliminate`` (each living player at once: pick one other
    living player, or pass). Dawn (automatic) and a finished game give none.
    """
    base = {"round": state.day, "phase": state.phase.value}
    tag = f"d{state.day}"
    alive = state.alive
    phase = state.phase
    if phase is Phase.WEREWOLVES:
        wolves = state.living(Role.WEREWOLF)
        if _in_turn(state):
            voted = {p for p, _ in state.kill_votes}
            p = next(q for q in wolves if q not in voted)
            votes = [{"player": q, "target": t} for q, t in state.kill_votes]
            return [Request(id=f"{tag}.kill.p{p}", kind="kill", player=p, answer="pick", count=1, candidates=alive,
                            may_pass=True, wants_words=len(wolves) > 1, audience=wolves,
                            details={"werewolves": list(wolves), "votes": votes}, **base)]
        return [Request(id=f"{tag}.kill.p{p}", kind="kill", player=p, answer="pick", count=1, candidates=alive,
                        may_pass=True, details={"werewolves": list(wolves)}, **base) for p in wolves]
    if phase is Phase.GUARD:
        (guard,) = state.living(Role.GUARD)
        candidates = tuple(p for p in alive if p != state.last_protected)
        return [Request(id=f"{tag}.protect.p{guard}", kind="protect", player=guard, answer="pick", count=1,
                        candidates=candidates, details={"last_protected": state.last_protected}, **base)]
    if phase is Phase.WITCH:
        (witch,) = state.living(Role.WITCH)
        if state.witch_step == "save":
            return [Request(id=f"{tag}.save.p{witch}", kind="save", player=witch, answer="yes_no",
                            options=SAVE_WORDS, unclear=False, subject=(state.target,),
                            details={"target": state.target}, **base)]
        return [Request(id=f"{tag}.poison.p{witch}", kind="poison", player=witch, answer="pick", count=1,
                        candidates=tuple(p for p in alive if p != witch), may_pass=True, **base)]
    if phase is Phase.SEER:
        (seer,) = state.living(Role.SEER)
        return [Request(id=f"{tag}.see.p{seer}", kind="see", player=seer, answer="pick", count=1,
                        candidates=tuple(p for p in alive if p != seer), **base)]
    if phase is Phase.DAY_TALK:
        speaker = state.speakers[0]
        return [Request(id=f"{tag}.speak.p{speaker}", kind="speak", player=speaker, answer="words",
                        wants_words=True, **base)]
    if phase is Phase.DAY_VOTE:
        return [Request(id=f"{tag}.eliminate.p{p}", kind="eliminate", player=p, answer="pick", count=1,
                        candidates=tuple(q for q in alive if q != p), may_pass=True, **base) for p in alive]
    if phase is Phase.LAST_WORDS:
        assert state.eliminated is not None
        return [Request(id=f"{tag}.last_words.p{state.eliminated}", kind="last_words", player=state.eliminated,
                        answer="words", wants_words=True, **base)]
    return []


# --------------------------------------------------------------- transitions


def _most_named(names: Sequence[int | None]) -> int | None:
    """The player named most often; ``None`` on a tie for the most or when nobody is named."""
    counts = Counter(p for p in names if p is not None).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def _consensus(names: Sequence[int | None]) -> int | None:
    """Xu et al.'s night count: the player named more often than any other choice, a pass (``None``) counting as
    one; ``None`` when there is no such player ("no consensus": a tie for the most, or passes the most)."""
    counts = Counter(names).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def _in_turn(state: WerewolfState) -> bool:
    """Whether the werewolves vote on the kill one after another (``werewolf_night=sequential``)."""
    return state.config.rules.werewolf_night is WerewolfNight.SEQUENTIAL


def _tally(names: Sequence[int | None]) -> list[dict[str, int]]:
    counts = Counter(p for p in names if p is not None)
    return [{"player": p, "votes": n} for p, n in sorted(counts.items())]


def _picked(decision: Decision) -> int | None:
    return decision.players[0] if decision.players else None


def _next_night_phase(state: WerewolfState, after: Phase) -> WerewolfState:
    """Move to the first night phase after ``after`` whose role has something to do, else to dawn."""
    for phase in NIGHT_ORDER[NIGHT_ORDER.index(after) + 1:]:
        if phase is Phase.GUARD and state.living(Role.GUARD):
            return state.evolve(phase=phase)
        if phase is Phase.WITCH and state.living(Role.WITCH):
            state, step = _witch_wakes(state)
            if step is not None:
                return state.evolve(phase=phase, witch_step=step)
        if phase is Phase.SEER and state.living(Role.SEER):
            return state.evolve(phase=phase)
        if phase is Phase.DAWN:
            return state.evolve(phase=phase, witch_step=None)
    raise AssertionError("dawn always follows")


def _witch_wakes(state: WerewolfState) -> tuple[WerewolfState, str | None]:
    """Tell the Witch the target while she holds the antidote; her first question, or ``None``."""
    (witch,) = state.living(Role.WITCH)
    if state.antidote:
        told = {"type": "night_target", "to": [witch], "day": state.day, "target": state.target}
        state = state.evolve([told])
        if state.target is not None:
            return state, "save"
    return state, ("poison" if state.poison else None)


def kill(state: WerewolfState, decisions: Mapping[int, Decision]) -> WerewolfState:
    """The werewolves' kill vote all at once (``werewolf_night=simultaneous``): the most named player is the
    target; a tie or all passes means no kill."""
    wolves = list(state.living(Role.WEREWOLF))
    named = [_picked(decisions[p]) for p in wolves]
    target = _most_named(named)
    events: list[Event] = [{"type": "kill", "to": wolves, "day": state.day, "by": p, "target": t}
                           for p, t in zip(wolves, named, strict=True)]
    events.append({"type": "night_target", "to": wolves, "day": state.day, "target": target})
    return _next_night_phase(state.evolve(events, target=target), Phase.WEREWOLVES)


def kill_in_turn(state: WerewolfState, request: Request, decision: Decision) -> WerewolfState:
    """One werewolf's kill vote under ``werewolf_night=sequential``: its words (when asked and given) and its vote
    go to the living werewolves; after the last vote, the target by Xu et al.'s count (`_consensus`)."""
    wolves = list(state.living(Role.WEREWOLF))
    named = _picked(decision)
    events: list[Event] = []
    if request.wants_words and decision.utterance:
        events.append({"type": "utterance", "to": wolves, "speaker": decision.player, "phase": request.phase,
                       "day": state.day, "text": decision.utterance})
    events.append({"type": "kill", "to": wolves, "day": state.day, "by": decision.player, "target": named})
    votes = state.kill_votes + ((decision.player, named),)
    if len(votes) < len(wolves):
        return state.evolve(events, kill_votes=votes)
    target = _consensus([t for _, t in votes])
    events.append({"type": "night_target", "to": wolves, "day": state.day, "target": target})
    return _next_night_phase(state.evolve(events, target=target, kill_votes=()), Phase.WEREWOLVES)


def protect(state: WerewolfState, decision: Decision) -> WerewolfState:
    """The Guard protects one living player (not last night's) against tonight's werewolf kill."""
    player = _picked(decision)
    event = {"type": "protect", "to": [decision.player], "day": state.day, "by": decision.player, "target": player}
    return _next_night_phase(state.evolve([event], protected=player), Phase.GUARD)


def save(state: WerewolfState, decision: Decision) -> WerewolfState:
    """The Witch saves the target with the antidote, or passes; then the poison, when still offered."""
    event = {"type": "save", "to": [decision.player], "day": state.day, "by": decision.player, "target": state.target,
             "saved": bool(decision.choice)}
    state = state.evolve([event], antidote=not decision.choice, saved=bool(decision.choice))
    one_a_night = state.config.rules.potions_per_night is PotionsPerNight.ONE
    if state.poison and not (state.saved and one_a_night):
        return state.evolve(witch_step="poison")
    return _next_night_phase(state, Phase.WITCH)


def use_poison(state: WerewolfState, decision: Decision) -> WerewolfState:
    """The Witch poisons one living player other than herself, or passes."""
    player = _picked(decision)
    event = {"type": "poison", "to": [decision.player], "day": state.day, "by": decision.player, "target": player}
    state = state.evolve([event], poison=player is None, poisoned=player)
    return _next_night_phase(state, Phase.WITCH)


def see(state: WerewolfState, decision: Decision) -> WerewolfState:
    """The Seer learns privately whether one living player is a werewolf."""
    player = _picked(decision)
    assert player is not None
    event = {"type": "seer_result", "to": [decision.player], "day": state.day, "by": decision.player, "target": player,
             "werewolf": state.role_of(player) is Role.WEREWOLF}
    return _next_night_phase(state.evolve([event]), Phase.SEER)


def dawn(state: WerewolfState) -> WerewolfState:
    """Resolve the night, announce the dead, check the end, open the day's talk in a freshly drawn order."""
    deaths: list[int] = []
    if state.target is not None and state.target != state.protected and not state.saved:
        deaths.append(state.target)
    if state.poisoned is not None and state.poisoned not in deaths:
        deaths.append(state.poisoned)
    deaths.sort()
    events: list[Event] = [
        {"type": "night_result", "to": [], "day": state.day, "target": state.target, "protected": state.protected,
         "saved": state.saved, "poisoned": state.poisoned, "deaths": deaths},
        {"type": "deaths", "to": PUBLIC, "day": state.day, "players": deaths},
    ]
    state = state.evolve(events, dead=state.dead + tuple(deaths), last_protected=state.protected, protected=None,
                         target=None, saved=False, poisoned=None)
    won = winner(state)
    if won is not None:
        return _end(state, *won)
    order = list(state.alive)
    rng_for(state.seed, "speaking_order", state.day).shuffle(order)
    event = {"type": "day_start", "to": PUBLIC, "day": state.day, "order": order}
    return state.evolve([event], phase=Phase.DAY_TALK, speakers=tuple(order))


def _utterance(state: WerewolfState, request: Request, text: str) -> Event:
    return {"type": "utterance", "to": PUBLIC, "speaker": request.player, "phase": request.phase,
            "day": state.day, "text": text}


def speak(state: WerewolfState, request: Request, decision: Decision) -> WerewolfState:
    """The next speaker says its words; after the last one, the vote opens."""
    state = state.evolve([_utterance(state, request, decision.utterance or "")], speakers=state.speakers[1:])
    return state if state.speakers else state.evolve(phase=Phase.DAY_VOTE)


def eliminate(state: WerewolfState, decisions: Mapping[int, Decision]) -> WerewolfState:
    """Every living player votes at once, publicly; the most votes is eliminated, a tie nobody."""
    voters = list(state.alive)
    named = [_picked(decisions[p]) for p in voters]
    out = _most_named(named)
    events: list[Event] = [{"type": "eliminate", "to": PUBLIC, "day": state.day, "player": p, "target": t}
                           for p, t in zip(voters, named, strict=True)]
    events.append({"type": "vote_result", "to": PUBLIC, "day": state.day, "tally": _tally(named), "eliminated": out})
    state = state.evolve(events)
    if out is None:
        return _end_of_day(state)
    state = state.evolve(dead=state.dead + (out,))
    won = winner(state)
    if won is not None:
        return _end(state, *won)
    return state.evolve(phase=Phase.LAST_WORDS, eliminated=out)


def last_words(state: WerewolfState, request: Request, decision: Decision) -> WerewolfState:
    """The eliminated player's last statement; then the day ends."""
    return _end_of_day(state.evolve([_utterance(state, request, decision.utterance or "")]))


def _end_of_day(state: WerewolfState) -> WerewolfState:
    if state.day >= state.config.rules.max_days:
        return _end(state, None, MAX_DAYS)
    return _open_night(state, state.day + 1)


def _end(state: WerewolfState, side: Side | None, reason: str) -> WerewolfState:
    event = {"type": "game_over", "to": PUBLIC, "day": state.day, "winner": side.value if side else None,
             "reason": reason, "roles": {str(p): state.role_of(p).value for p in state.players}}
    return state.evolve([event], phase=Phase.OVER, winner=side, end_reason=reason, speakers=(), eliminated=None,
                        witch_step=None)


def apply(state: WerewolfState, decisions: Mapping[int, Decision]) -> WerewolfState:
    """Apply the answers to `pending(state)`, whatever the phase (dawn, automatic, takes ``{}``).

    Args:
        state: the game before the answers.
        decisions: ``{player: Decision}`` for every request pending.

    Raises:
        IllegalActionError: the game is over, or an answer is missing, extra or illegal (named).
    """
    if state.phase is Phase.OVER:
        raise IllegalActionError("the game is over")
    requests = check_decisions(pending(state), decisions, state.phase.value)
    phase = state.phase
    if phase is Phase.DAWN:
        return dawn(state)
    if phase is Phase.WEREWOLVES and not _in_turn(state):
        return kill(state, decisions)
    if phase is Phase.DAY_VOTE:
        return eliminate(state, decisions)
    ((player, request),) = requests.items()
    decision = decisions[player]
    if phase is Phase.WEREWOLVES:
        return kill_in_turn(state, request, decision)
    if phase is Phase.GUARD:
        return protect(state, decision)
    if phase is Phase.WITCH:
        return save(state, decision) if request.kind == "save" else use_poison(state, decision)
    if phase is Phase.SEER:
        return see(state, decision)
    if phase is Phase.DAY_TALK:
        return speak(state, request, decision)
    return last_words(state, request, decision)
