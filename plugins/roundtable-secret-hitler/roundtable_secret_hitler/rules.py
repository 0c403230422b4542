"""Secret Hitler transitions: the deal, the election, the legislative session, the executive actions and the end
(docs/games/secret-hitler.md).

Pure functions over `SecretHitlerState`. `apply` checks the answers against `pending(state)` and raises
`IllegalActionError` naming the broken rule; on success it returns a new state with the new events appended. The
rules, as the rulebook (Goat, Wolf & Cabbage, 2016) gives them:

- **Set Up**: the roles of the player count are dealt from the seed; the Fascists see each other and Hitler, and
  Hitler sees the Fascist at 5 or 6 players (`roundtable_secret_hitler.roles`); the 17 policies are shuffled; the
  first Presidential candidate is drawn at random.
- **Election** (docs/games/secret-hitler.md#election): the presidency passes clockwise to the next living player
  (after a special election, back to the left of the President who called it); the President nominates an
  eligible Chancellor (term limits: `roundtable_secret_hitler.requests.eligible`); with ``discussion`` on, every
  living player speaks once; every living player votes Ja or Nein at once, publicly. More Ja than Nein elects, a
  tie fails. A failed election advances the election tracker; the third in a row throws the country into chaos:
  the top policy is enacted, its power ignored, the term limits forgotten and the tracker reset. Once three
  Fascist policies are enacted, Hitler elected Chancellor wins for the Fascists; any other Chancellor is known
  not to be Hitler.
- **Legislative Session** (docs/games/secret-hitler.md#legislative-session): the President draws three policies,
  discards one in secret and passes two; the Chancellor discards one and enacts the other, face up. Every policy
  enacted resets the tracker. After five Fascist policies the Chancellor may propose a veto instead; if the
  President agrees, both are discarded and the tracker advances (chaos on the third), else the Chancellor
  enacts. With fewer than three policies left at the end of a session (or after chaos), the deck and the discard
  pile are shuffled into a new deck.
- **Executive Action** (docs/games/secret-hitler.md#executive-actions): a Fascist policy enacted by a government on
  a square with a power gives the President that power at once (`roundtable_secret_hitler.powers`): policy peek
  (the top three policies, seen privately), investigate loyalty (a player's party, seen privately; never the same
  player twice), special election (the next President), execution (the player is dead; if Hitler, the Liberals
  win; otherwise the role stays secret).
- **Winning** (docs/games/secret-hitler.md#end-of-the-game): the Liberals with five Liberal policies or Hitler
  executed; the Fascists with six Fascist policies or Hitler elected Chancellor after three Fascist policies.
"""

from __future__ import annotations

from collections.abc import Mapping

from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Event, Request, check_decisions
from roundtable.games.rng import rng_for
from roundtable_secret_hitler.config import SecretHitlerConfig
from roundtable_secret_hitler.deck import FASCIST, FULL_DECK, LIBERAL, refill, shuffled
from roundtable_secret_hitler.powers import FASCIST_WIN, HITLER_ZONE, LIBERAL_WIN, TRACKER_CHAOS, Power, power_for
from roundtable_secret_hitler.requests import pending
from roundtable_secret_hitler.roles import Role, Side, knowledge
from roundtable_secret_hitler.state import Phase, SecretHitlerState

PUBLIC = None

# End reasons recorded in the log and the game record.
LIBERAL_POLICIES = "liberal_policies"
HITLER_EXECUTED = "hitler_executed"
FASCIST_POLICIES = "fascist_policies"
HITLER_ELECTED = "hitler_elected"

POWER_PHASES = {Power.INVESTIGATE: Phase.INVESTIGATE, Power.SPECIAL_ELECTION: Phase.SPECIAL_ELECTION,
                Power.EXECUTION: Phase.EXECUTION}


# --------------------------------------------------------------------- setup


def new_game(config: SecretHitlerConfig, seed: int) -> SecretHitlerState:
    """Deal the roles from ``rng_for(seed, "setup")``, tell each player its role and what it sees in the reveal,
    shuffle the deck and open round 1 with a President drawn from ``rng_for(seed, "first_president")``.

    Returns:
        A state in the ``nomination`` phase of round 1, its log holding the public ``game_start``, each player's
        private ``role`` and ``knowledge``, and the public ``round_start``.
    """
    roles = list(config.roles)
    rng_for(seed, "setup").shuffle(roles)
    dealt = tuple(roles)
    events: list[Event] = [{"type": "game_start", "to": PUBLIC, "players": config.players,
                            "role_set": sorted(r.value for r in config.roles), "rules": config.rules.to_dict(),
                            "preset": "rulebook"}]
    for p, role in enumerate(dealt, start=1):
        events.append({"type": "role", "to": [p], "player": p, "role": role.value, "side": role.side.value})
    for p in range(1, len(dealt) + 1):
        events.append({"type": "knowledge", "to": [p], "player": p, "knows": knowledge(dealt, p)})
    first = rng_for(seed, "first_president").randrange(1, config.players + 1)
    state = SecretHitlerState(config=config, seed=seed, roles=dealt, phase=Phase.NOMINATION,
                              deck=shuffled(FULL_DECK, seed, 0), events=tuple(events))
    return _open_round(state, 1, first, rotation=first)


def _next_clockwise(state: SecretHitlerState, seat: int) -> int:
    n = len(state.roles)
    return next(q for q in ((seat + k - 1) % n + 1 for k in range(1, n + 1)) if q in state.alive)


def _open_round(state: SecretHitlerState, round_: int, president: int, rotation: int) -> SecretHitlerState:
    event = {"type": "round_start", "to": PUBLIC, "round": round_, "president": president, "tracker": state.tracker,
             "liberal": state.liberal, "fascist": state.fascist, "alive": list(state.alive)}
    return state.evolve([event], phase=Phase.NOMINATION, round=round_, president=president, rotation=rotation,
                        nominee=None, hand=(), speakers=())


def _next_round(state: SecretHitlerState) -> SecretHitlerState:
    """Pass the presidency: to the player a special election chose, else clockwise from the rotation."""
    if state.special_next is not None:
        chosen = state.special_next
        return _open_round(state.evolve(special_next=None), state.round + 1, chosen, state.rotation)
    president = _next_clockwise(state, state.rotation)
    return _open_round(state, state.round + 1, president, president)


def _end(state: SecretHitlerState, side: Side, reason: str) -> SecretHitlerState:
    event = {"type": "game_over", "to": PUBLIC, "round": state.round, "winner": side.value, "reason": reason,
             "liberal": state.liberal, "fascist": state.fascist,
             "roles": {str(p): state.role_of(p).value for p in state.players}}
    return state.evolve([event], phase=Phase.OVER, winner=side, end_reason=reason, hand=(), speakers=())


def track_winner(state: SecretHitlerState) -> tuple[Side, str] | None:
    """The side a full policy track wins for, or ``None`` (rulebook, *Winning the Game*)."""
    if state.liberal >= LIBERAL_WIN:
        return Side.LIBERAL, LIBERAL_POLICIES
    if state.fascist >= FASCIST_WIN:
        return Side.FASCIST, FASCIST_POLICIES
    return None


# ----------------------------------------------------------------- election


def nominate(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The President names the Chancellor candidate; the talk (if any) or the vote follows."""
    assert decision.players
    nominee = decision.players[0]
    event = {"type": "nomination", "to": PUBLIC, "round": state.round, "president": state.president,
             "chancellor": nominee}
    state = state.evolve([event], nominee=nominee)
    if not state.talks:
        return state.evolve(phase=Phase.ELECTION)
    alive = state.alive
    start = alive.index(state.president)
    return state.evolve(phase=Phase.DISCUSSION, speakers=alive[start:] + alive[:start])


def speak(state: SecretHitlerState, request: Request, decision: Decision) -> SecretHitlerState:
    """The next speaker says its words; after the last one, the vote opens."""
    event = {"type": "utterance", "to": PUBLIC, "speaker": request.player, "phase": request.phase,
             "round": state.round, "text": decision.utterance or ""}
    state = state.evolve([event], speakers=state.speakers[1:])
    return state if state.speakers else state.evolve(phase=Phase.ELECTION)


def vote(state: SecretHitlerState, decisions: Mapping[int, Decision]) -> SecretHitlerState:
    """Every living player votes at once, publicly; more Ja than Nein elects the government."""
    voters = state.alive
    ja = [p for p in voters if decisions[p].choice]
    elected = len(ja) * 2 > len(voters)
    events: list[Event] = [{"type": "vote", "to": PUBLIC, "round": state.round, "player": p,
                            "ja": bool(decisions[p].choice)} for p in voters]
    events.append({"type": "election", "to": PUBLIC, "round": state.round, "president": state.president,
                   "chancellor": state.nominee, "ja": len(ja), "nein": len(voters) - len(ja), "elected": elected})
    state = state.evolve(events)
    if not elected:
        return _failed_government(state)
    state = state.evolve(last_president=state.president, last_chancellor=state.nominee)
    if state.fascist >= HITLER_ZONE:
        if state.nominee == state.hitler:
            return _end(state, Side.FASCIST, HITLER_ELECTED)
        state = state.evolve([{"type": "not_hitler", "to": PUBLIC, "round": state.round, "player": state.nominee}])
    return _draw(state)


def _failed_government(state: SecretHitlerState) -> SecretHitlerState:
    """A rejected government or a veto: the tracker advances; on the third in a row, chaos."""
    tracker = state.tracker + 1
    state = state.evolve([{"type": "tracker", "to": PUBLIC, "round": state.round, "tracker": tracker}],
                         tracker=tracker)
    if tracker < TRACKER_CHAOS:
        return _next_round(state)
    return _chaos(state)


def _chaos(state: SecretHitlerState) -> SecretHitlerState:
    """The frustrated populace enacts the top policy: no power, term limits forgotten, tracker reset."""
    policy, deck = state.deck[0], state.deck[1:]
    event = {"type": "chaos", "to": PUBLIC, "round": state.round, "policy": policy,
             "liberal": state.liberal + (policy == LIBERAL), "fascist": state.fascist + (policy == FASCIST)}
    state = _enacted(state.evolve([event], deck=deck, last_president=None, last_chancellor=None), policy)
    if state.is_over:
        return state
    return _next_round(_refilled(state))


def _enacted(state: SecretHitlerState, policy: str) -> SecretHitlerState:
    """``policy`` on its track, the tracker reset, and the end checked."""
    liberal, fascist = state.liberal + (policy == LIBERAL), state.fascist + (policy == FASCIST)
    state = state.evolve(liberal=liberal, fascist=fascist, tracker=0)
    won = track_winner(state)
    return _end(state, *won) if won else state


def _refilled(state: SecretHitlerState) -> SecretHitlerState:
    """The end-of-session check: fewer than three policies left, the deck and the discard pile reshuffled."""
    deck, discard, shuffles = refill(state.deck, state.discard, state.seed, state.shuffles)
    if shuffles == state.shuffles:
        return state
    event = {"type": "reshuffle", "to": PUBLIC, "round": state.round, "deck": len(deck)}
    return state.evolve([event], deck=deck, discard=discard, shuffles=shuffles)


# ------------------------------------------------------- legislative session


def _draw(state: SecretHitlerState) -> SecretHitlerState:
    hand, deck = state.deck[:3], state.deck[3:]
    event = {"type": "draw", "to": [state.president], "round": state.round, "player": state.president,
             "policies": list(hand)}
    return state.evolve([event], hand=hand, deck=deck, phase=Phase.PRESIDENT_DISCARD)


def _without(hand: tuple[str, ...], policy: str) -> tuple[str, ...]:
    i = hand.index(policy)
    return hand[:i] + hand[i + 1:]


def president_discard(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The President discards one policy in secret and passes the other two to the Chancellor."""
    policy = LIBERAL if decision.choice else FASCIST
    passed = _without(state.hand, policy)
    assert state.nominee is not None
    events: list[Event] = [
        {"type": "discard", "to": [state.president], "round": state.round, "player": state.president,
         "policy": policy},
        {"type": "pass_policies", "to": [state.president, state.nominee], "round": state.round,
         "president": state.president, "chancellor": state.nominee, "policies": list(passed)},
    ]
    phase = Phase.VETO if state.veto_unlocked else Phase.CHANCELLOR_ENACT
    return state.evolve(events, hand=passed, discard=state.discard + (policy,), phase=phase)


def propose_veto(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The Chancellor proposes a veto (the President is asked) or goes on to enact."""
    if not decision.choice:
        return state.evolve(phase=Phase.CHANCELLOR_ENACT)
    event = {"type": "veto_proposed", "to": PUBLIC, "round": state.round, "chancellor": state.nominee}
    return state.evolve([event], phase=Phase.VETO_CONSENT)


def consent_veto(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The President agrees to the veto (both policies discarded, the tracker advances) or refuses (the Chancellor
    must enact)."""
    event = {"type": "veto", "to": PUBLIC, "round": state.round, "president": state.president,
             "chancellor": state.nominee, "agreed": bool(decision.choice)}
    if not decision.choice:
        return state.evolve([event], phase=Phase.CHANCELLOR_ENACT)
    state = state.evolve([event], discard=state.discard + state.hand, hand=())
    return _failed_government(_refilled(state))


def enact(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The Chancellor discards one policy and enacts the other; then the power of its square, if any."""
    policy = LIBERAL if decision.choice else FASCIST
    dropped = _without(state.hand, policy)
    events: list[Event] = [
        {"type": "chancellor_discard", "to": [state.nominee], "round": state.round, "player": state.nominee,
         "policy": dropped[0]},
        {"type": "enact", "to": PUBLIC, "round": state.round, "president": state.president,
         "chancellor": state.nominee, "policy": policy, "liberal": state.liberal + (policy == LIBERAL),
         "fascist": state.fascist + (policy == FASCIST)},
    ]
    state = _enacted(state.evolve(events, hand=(), discard=state.discard + dropped), policy)
    if state.is_over:
        return state
    state = _refilled(state)
    power = power_for(state.config.players, state.fascist) if policy == FASCIST else None
    return _grant(state, power)


def _grant(state: SecretHitlerState, power: Power | None) -> SecretHitlerState:
    """The President's executive power: the peek at once, the others asked for; without one, the next round."""
    if power is None:
        return _next_round(state)
    events: list[Event] = [{"type": "power", "to": PUBLIC, "round": state.round, "president": state.president,
                            "power": power.value}]
    if power is Power.PEEK:
        events.append({"type": "peek", "to": [state.president], "round": state.round, "player": state.president,
                       "policies": list(state.deck[:3])})
        return _next_round(state.evolve(events))
    if power is Power.INVESTIGATE and not [p for p in state.alive
                                           if p != state.president and p not in state.investigated]:
        return _next_round(state.evolve(events))  # nobody left to investigate (unreachable at 9-10 players)
    return state.evolve(events, phase=POWER_PHASES[power])


# --------------------------------------------------------- executive actions


def investigate(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The President sees one player's party membership (Hitler's says Fascist); the table sees whom."""
    assert decision.players
    target = decision.players[0]
    events: list[Event] = [
        {"type": "investigated", "to": PUBLIC, "round": state.round, "president": state.president, "target": target},
        {"type": "investigation", "to": [state.president], "round": state.round, "player": state.president,
         "target": target, "party": state.role_of(target).side.value},
    ]
    return _next_round(state.evolve(events, investigated=state.investigated + (target,)))


def choose_president(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The President names the next President; the order then resumes from the left of this President."""
    assert decision.players
    event = {"type": "special_election", "to": PUBLIC, "round": state.round, "president": state.president,
             "chosen": decision.players[0]}
    return _next_round(state.evolve([event], special_next=decision.players[0]))


def execute(state: SecretHitlerState, decision: Decision) -> SecretHitlerState:
    """The President executes a player; Hitler executed wins for the Liberals, anyone else's role stays secret."""
    assert decision.players
    target = decision.players[0]
    event = {"type": "execution", "to": PUBLIC, "round": state.round, "president": state.president, "target": target}
    state = state.evolve([event], dead=state.dead + (target,))
    if state.role_of(target) is Role.HITLER:
        return _end(state, Side.LIBERAL, HITLER_EXECUTED)
    return _next_round(state)


# ---------------------------------------------------------------- dispatch


def apply(state: SecretHitlerState, decisions: Mapping[int, Decision]) -> SecretHitlerState:
    """Apply the answers to `pending(state)`.

    Args:
        state: the game before the answers.
        decisions: ``{player: Decision}`` for every request pending.

    Raises:
        IllegalActionError: the game is over, or an answer is missing, extra or illegal (named).
    """
    if state.phase is Phase.OVER:
        raise IllegalActionError("the game is over")
    requests = check_decisions(pending(state), decisions, state.phase.value)
    if state.phase is Phase.ELECTION:
        return vote(state, decisions)
    ((player, request),) = requests.items()
    decision = decisions[player]
    steps = {Phase.NOMINATION: nominate, Phase.PRESIDENT_DISCARD: president_discard, Phase.VETO: propose_veto,
             Phase.VETO_CONSENT: consent_veto, Phase.CHANCELLOR_ENACT: enact, Phase.INVESTIGATE: investigate,
             Phase.SPECIAL_ELECTION: choose_president, Phase.EXECUTION: execute}
    if state.phase is Phase.DISCUSSION:
        return speak(state, request, decision)
    return steps[state.phase](state, decision)
