"""Avalon transitions: deal, proposals, discussion, team votes, quests, assassination.

Pure functions over `AvalonState` (docs/games/avalon.md#flow-of-a-game). Each transition validates its
input against `pending(state)` and raises `IllegalActionError` explaining the
broken rule; on success it returns a new state with the new events appended.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from roundtable.games.avalon.config import (
    Assassination,
    AssassinationTargets,
    AvalonConfig,
    Discussion,
    EvilQuestCard,
    FifthRejection,
    VoteVisibility,
)
from roundtable.games.avalon.roles import (
    EVIL_ROLES,
    MAX_PROPOSALS,
    QUESTS_TO_WIN,
    Role,
    Side,
    fails_needed,
    team_size,
)
from roundtable.games.avalon.state import AvalonState, Phase
from roundtable.games.errors import IllegalActionError
from roundtable.games.protocol import Decision, Event, Request, check_decision
from roundtable.games.rng import rng_for

PUBLIC = None

# End reasons recorded in the log and the game record.
THREE_FAILED_QUESTS = "three_failed_quests"
THREE_SUCCESSFUL_QUESTS = "three_successful_quests"
FIVE_REJECTIONS = "five_rejected_proposals"
MERLIN_ASSASSINATED = "merlin_assassinated"
# Records played before a mid-game miss let play go on (`assassinate`) may also end with "assassination_missed".


# --------------------------------------------------------------------- setup


def knowledge_of(roles: tuple[Role, ...], player: int) -> list[dict[str, Any]]:
    """What ``player`` learns in the reveal, per the role table of docs/games/avalon.md#roles-and-what-they-learn.

    Returns:
        ``[{"player": q, "is": label}]`` with label ``evil`` (Merlin's and the
        evil players' sight), ``merlin_or_morgana`` or ``merlin`` (Percival's).
    """
    role = roles[player - 1]
    seats = range(1, len(roles) + 1)
    if role is Role.MERLIN:
        return [{"player": q, "is": "evil"} for q in seats if roles[q - 1] in EVIL_ROLES - {Role.MORDRED}]
    if role is Role.PERCIVAL:
        label = "merlin_or_morgana" if Role.MORGANA in roles else "merlin"
        return [{"player": q, "is": label} for q in seats if roles[q - 1] in (Role.MERLIN, Role.MORGANA)]
    if role.side is Side.EVIL and role is not Role.OBERON:
        return [
            {"player": q, "is": "evil"}
            for q in seats
            if q != player and roles[q - 1] in EVIL_ROLES - {Role.OBERON}
        ]
    return []


def rejection_wins(attempt: int, fifth_rejection: str | FifthRejection = FifthRejection.EVIL_WINS) -> bool:
    """Whether a rejection of proposal ``attempt`` (1-based) of a round wins the game for evil: the fifth
    proposal under ``fifth_rejection=evil_wins`` (the official rule, docs/games/avalon.md#fifth_rejection); the other
    variants send
    the fifth team without a vote.

    Raises:
        ValueError: an unknown ``fifth_rejection`` value.
    """
    return attempt >= MAX_PROPOSALS and FifthRejection(fifth_rejection) is FifthRejection.EVIL_WINS


def new_game(config: AvalonConfig, seed: int) -> AvalonState:
    """Deal the roles, reveal what each player learns and open round 1 (docs/games/avalon.md#flow-of-a-game steps 1-2).

    Equivalent to ``reveal(deal(config, seed))``.
    """
    return reveal(deal(config, seed))


def deal(config: AvalonConfig, seed: int) -> AvalonState:
    """Setup: deal the roles and draw the first leader from the generator seeded with ``seed``.

    Every seat can be the first leader. Each player is told its own role
    privately. The seed stays in the ground truth only: with it, anyone could
    recompute the deal.

    Returns:
        A state in the ``reveal`` phase whose log holds the public
        ``game_start`` event and each player's private ``role`` event.
    """
    rng = rng_for(seed, "setup")
    roles = list(config.roles)
    rng.shuffle(roles)
    leader = rng.randrange(len(roles)) + 1
    dealt = tuple(roles)
    events: list[Event] = [
        {
            "type": "game_start",
            "to": PUBLIC,
            "players": len(dealt),
            "role_set": sorted(r.value for r in config.roles),
            "rules": config.rules.to_dict(),
            "preset": config.preset,
        }
    ]
    for p in range(1, len(dealt) + 1):
        role = dealt[p - 1]
        events.append({"type": "role", "to": [p], "player": p, "role": role.value, "side": role.side.value})
    return AvalonState(config=config, seed=seed, roles=dealt, phase=Phase.REVEAL, leader=leader, events=tuple(events))


def reveal(state: AvalonState) -> AvalonState:
    """The reveal: each player privately learns what its role sees (`knowledge_of`); round 1 opens.

    Raises:
        IllegalActionError: the state is not in the ``reveal`` phase.
    """
    if state.phase is not Phase.REVEAL:
        raise IllegalActionError(f"the reveal happens once, after the deal (phase: {state.phase.value})")
    events = [
        {"type": "knowledge", "to": [p], "player": p, "knows": knowledge_of(state.roles, p)}
        for p in state.players
    ]
    return _open_proposal(state.evolve(events), round_=1, attempt=1, leader=state.leader)


# ------------------------------------------------------------ phase openings


def _open_proposal(state: AvalonState, round_: int, attempt: int, leader: int) -> AvalonState:
    """Start proposal ``attempt`` of ``round_`` led by ``leader``, with discussion first if the variant says so."""
    events: list[Event] = []
    if attempt == 1:
        n = len(state.roles)
        events.append(
            {
                "type": "round_start",
                "to": PUBLIC,
                "round": round_,
                "team_size": team_size(n, round_),
                "fails_needed": fails_needed(n, round_, state.config.rules.two_fail_quests.value),
            }
        )
    events.append({"type": "leader", "to": PUBLIC, "round": round_, "attempt": attempt, "leader": leader})
    state = state.evolve(events, round=round_, attempt=attempt, leader=leader, team=(), proposal_final=False)
    if state.config.rules.discussion is Discussion.BEFORE_PROPOSAL:
        return state.evolve(phase=Phase.DISCUSSION, speakers=_seats_after(state, leader) + (leader,))
    return state.evolve(phase=Phase.PROPOSAL, speakers=())


def _seats_after(state: AvalonState, player: int) -> tuple[int, ...]:
    """Every other player in seat order, starting after ``player``."""
    n = len(state.roles)
    return tuple((player - 1 + k) % n + 1 for k in range(1, n))


def _next_leader(state: AvalonState) -> int:
    return state.leader % len(state.roles) + 1


def _after_proposal_talk(state: AvalonState) -> AvalonState:
    """The team is final: vote on it, or send it straight to the quest on an unvoted fifth proposal."""
    rules = state.config.rules
    if state.attempt == MAX_PROPOSALS and rules.fifth_rejection is not FifthRejection.EVIL_WINS:
        how = "leader_assigns" if rules.fifth_rejection is FifthRejection.LEADER_ASSIGNS else "auto_approve"
        event = {"type": "team_approved", "to": PUBLIC, "round": state.round, "attempt": state.attempt,
                 "team": list(state.team), "by": how}
        return state.evolve([event], phase=Phase.QUEST)
    return state.evolve(phase=Phase.VOTE)


def _evil_council(state: AvalonState) -> tuple[int, ...]:
    """Evil players who know each other (all evil but Oberon), in seat order."""
    return state.players_with(*(EVIL_ROLES - {Role.OBERON}))


def _assassin(state: AvalonState) -> int | None:
    found = state.players_with(Role.ASSASSIN)
    return found[0] if found else None


def _open_assassination(state: AvalonState, optional: bool) -> AvalonState:
    """Before the Assassin decides, the other evil players talk among themselves (if talk is on)."""
    assassin = _assassin(state)
    talk = state.config.rules.discussion is not Discussion.NONE and not optional
    speakers = tuple(p for p in _evil_council(state) if p != assassin) if talk else ()
    event = {"type": "assassination_phase", "to": PUBLIC, "round": state.round, "optional": optional}
    return state.evolve([event], phase=Phase.ASSASSINATION, speakers=speakers)


def _end(state: AvalonState, winner: Side, reason: str) -> AvalonState:
    event = {
        "type": "game_over",
        "to": PUBLIC,
        "winner": winner.value,
        "reason": reason,
        "roles": {str(p): state.role_of(p).value for p in state.players},
    }
    return state.evolve([event], phase=Phase.OVER, winner=winner, end_reason=reason, speakers=(), team=())


# ------------------------------------------------------------------- queries


def assassination_optional(state: AvalonState) -> bool:
    """In the assassination phase: whether the Assassin may still decline (mid-game shot)."""
    return state.phase is Phase.ASSASSINATION and state.quest_results.count(True) < QUESTS_TO_WIN


VOTE_WORDS = ("approve", "reject")
CARD_WORDS = ("success", "fail")


def pending(state: AvalonState) -> list[Request]:
    """The decisions the game waits for now, one `Request` per player asked.

    Simultaneous decisions (team votes, quest cards) give several requests;
    sequential ones (proposal, each speaker, the assassination) give one; the
    reveal (automatic) and a finished game give none. Answer shapes: a
    proposal, a suggestion and the assassination are ``pick``s (the
    assassination of one player, passing where allowed); a team vote and a
    quest card are ``yes_no`` in the game's words (an unclear vote counts as
    approve, an evil player's unclear card as fail: docs/games/avalon.md#fallback-rules; under
    ``evil_quest_card=must_fail`` an evil player's only legal card is fail); the rest of
    the talk is ``words``.
    """
    n = len(state.roles)
    rules = state.config.rules
    talk = rules.discussion is not Discussion.NONE
    base = {"round": state.round, "attempt": state.attempt, "phase": state.phase.value}
    tag = f"r{state.round}.a{state.attempt}"
    if state.phase is Phase.PROPOSAL:
        final = state.proposal_final or rules.discussion is not Discussion.LEADER_FIRST_AND_LAST
        stage = "final" if state.proposal_final else "first"
        return [
            Request(
                id=f"{tag}.propose_team.{stage}.p{state.leader}", kind="propose_team", player=state.leader,
                answer="pick", count=team_size(n, state.round), candidates=state.players, subject=state.team,
                wants_words=talk, details={"final": final}, **base,
            )
        ]
    if state.phase is Phase.DISCUSSION:
        speaker = state.speakers[0]
        if rules.discussion is Discussion.BEFORE_PROPOSAL:  # every speaker suggests a team (optional)
            shape = {"answer": "pick", "count": team_size(n, state.round), "candidates": state.players,
                     "may_pass": True}
        else:
            shape = {"answer": "words"}
        return [
            Request(id=f"{tag}.speak.p{speaker}", kind="speak", player=speaker, subject=state.team,
                    wants_words=True, **shape, **base)
        ]
    if state.phase is Phase.VOTE:
        return [
            Request(id=f"{tag}.vote_team.p{p}", kind="vote_team", player=p, answer="yes_no", options=VOTE_WORDS,
                    unclear=True, subject=state.team, **base)
            for p in state.players
        ]
    if state.phase is Phase.QUEST:
        requests = []
        must_fail = rules.evil_quest_card is EvilQuestCard.MUST_FAIL
        for p in state.team:
            good = state.side_of(p) is Side.GOOD
            allowed = (True,) if good else (False,) if must_fail else (True, False)
            requests.append(Request(
                id=f"r{state.round}.quest_card.p{p}", kind="quest_card", player=p, answer="yes_no",
                options=CARD_WORDS, allowed=allowed, unclear=good,
                subject=state.team, **base,
            ))
        return requests
    if state.phase is Phase.ASSASSINATION:
        council = _evil_council(state)
        if state.speakers:
            speaker = state.speakers[0]
            return [
                Request(id=f"r{state.round}.assassination.speak.p{speaker}", kind="speak", player=speaker,
                        answer="words", wants_words=True, audience=council, **base)
            ]
        assassin = _assassin(state)
        assert assassin is not None
        any_seat = state.config.rules.assassination_targets is AssassinationTargets.ANY_SEAT
        return [
            Request(
                id=f"r{state.round}.assassinate.p{assassin}", kind="assassinate", player=assassin,
                answer="pick", count=1,
                candidates=state.players if any_seat else tuple(p for p in state.players if p not in council),
                may_pass=assassination_optional(state), wants_words=talk, audience=council, **base,
            )
        ]
    return []


# --------------------------------------------------------------- transitions


def _only_request(state: AvalonState, decision: Decision) -> Request:
    requests = pending(state)
    matching = [r for r in requests if r.id == decision.request_id]
    if not matching:
        waiting = ", ".join(r.id for r in requests) or "nothing (the game is over)"
        raise IllegalActionError(f"the game waits for {waiting}, not for {decision.request_id}")
    request = matching[0]
    check_decision(request, decision)
    return request


def _utterance(state: AvalonState, request: Request, text: str, team: tuple[int, ...] | None = None) -> Event:
    event: Event = {
        "type": "utterance",
        "to": list(request.audience) if request.audience is not None else PUBLIC,
        "speaker": request.player,
        "phase": request.phase,
        "round": state.round,
        "attempt": state.attempt,
        "text": text,
    }
    if team is not None:
        event["team"] = list(team)
    return event


def propose(state: AvalonState, decision: Decision) -> AvalonState:
    """The leader names a team (and speaks, when talk is on).

    With ``leader_first_and_last`` the first proposal opens the discussion and
    the second one, after everybody has spoken, is final. With ``leader_first``
    the one proposal is final and opens the discussion; the vote follows it.

    Raises:
        IllegalActionError: not the proposal phase, wrong player, or an illegal team.
    """
    request = _only_request(state, decision)
    assert decision.players is not None
    team = tuple(decision.players)
    events: list[Event] = []
    if decision.utterance:
        events.append(_utterance(state, request, decision.utterance, team))
    final = bool(request.details.get("final"))
    events.append({"type": "proposal", "to": PUBLIC, "round": state.round, "attempt": state.attempt,
                   "leader": state.leader, "team": list(team), "final": final})
    state = state.evolve(events, team=team)
    if not final:
        return state.evolve(phase=Phase.DISCUSSION, speakers=_seats_after(state, state.leader), proposal_final=False)
    if state.config.rules.discussion is Discussion.LEADER_FIRST:  # the others speak about the team as named
        return state.evolve(phase=Phase.DISCUSSION, speakers=_seats_after(state, state.leader), proposal_final=True)
    return _after_proposal_talk(state.evolve(proposal_final=True))


def speak(state: AvalonState, decision: Decision) -> AvalonState:
    """The next speaker says its words (with a team suggestion in ``before_proposal``).

    When the last one has spoken: the leader names the team (``before_proposal``) or its final team
    (``leader_first_and_last``), or the team already named goes to the vote (``leader_first``).

    Raises:
        IllegalActionError: nobody is due to speak, or another player is.
    """
    request = _only_request(state, decision)
    text = decision.utterance or ""
    suggestion = tuple(decision.players) if decision.players is not None else None
    state = state.evolve([_utterance(state, request, text, suggestion)], speakers=state.speakers[1:])
    if state.speakers:
        return state
    if state.phase is Phase.ASSASSINATION:
        return state
    if state.config.rules.discussion is Discussion.LEADER_FIRST:  # no last word: the team named goes to the vote
        return _after_proposal_talk(state)
    return state.evolve(phase=Phase.PROPOSAL, proposal_final=state.config.rules.discussion
                        is Discussion.LEADER_FIRST_AND_LAST)


def vote(state: AvalonState, decisions: Mapping[int, Decision]) -> AvalonState:
    """All players vote at once on the proposed team; a strict majority approves.

    A rejection passes leadership to the next seat; the fifth rejection of a
    round wins for evil under ``fifth_rejection=evil_wins``.

    Raises:
        IllegalActionError: not the voting phase, or a vote missing/extra/illegal.
    """
    if state.phase is not Phase.VOTE:
        raise IllegalActionError(f"no team vote is open (phase: {state.phase.value})")
    _check_all(state, decisions)
    public = state.config.rules.vote_visibility is VoteVisibility.PUBLIC
    events: list[Event] = [
        {"type": "vote_team", "to": PUBLIC if public else [p], "round": state.round, "attempt": state.attempt,
         "player": p, "approve": bool(decisions[p].choice)}
        for p in state.players
    ]
    approvals = sum(1 for p in state.players if decisions[p].choice)
    approved = approvals * 2 > len(state.players)
    result: Event = {"type": "vote_result", "to": PUBLIC, "round": state.round, "attempt": state.attempt,
                     "team": list(state.team), "approvals": approvals,
                     "rejections": len(state.players) - approvals, "approved": approved}
    if public:
        result["approvers"] = [p for p in state.players if decisions[p].choice]
    state = state.evolve(events + [result])
    if approved:
        return state.evolve(phase=Phase.QUEST)
    if state.attempt == MAX_PROPOSALS:
        return _end(state, Side.EVIL, FIVE_REJECTIONS)
    return _open_proposal(state, state.round, state.attempt + 1, _next_leader(state))


def play_quest(state: AvalonState, decisions: Mapping[int, Decision]) -> AvalonState:
    """The team plays its cards at once; only the number of fails is made public.

    Raises:
        IllegalActionError: not the quest phase, a card missing or extra, or a good player's fail.
    """
    if state.phase is not Phase.QUEST:
        raise IllegalActionError(f"no quest is under way (phase: {state.phase.value})")
    _check_all(state, decisions)
    events: list[Event] = [
        {"type": "quest_card", "to": [p], "round": state.round, "player": p, "success": bool(decisions[p].choice)}
        for p in state.team
    ]
    fails = sum(1 for p in state.team if not decisions[p].choice)
    needed = fails_needed(len(state.roles), state.round, state.config.rules.two_fail_quests.value)
    success = fails < needed
    events.append({"type": "quest_result", "to": PUBLIC, "round": state.round, "team": list(state.team),
                   "fails": fails, "fails_needed": needed, "success": success})
    state = state.evolve(events, quest_results=state.quest_results + (success,), team=())
    if state.quest_results.count(False) == QUESTS_TO_WIN:
        return _end(state, Side.EVIL, THREE_FAILED_QUESTS)
    can_assassinate = _assassin(state) is not None and state.players_with(Role.MERLIN)
    if state.quest_results.count(True) == QUESTS_TO_WIN:
        if can_assassinate and not state.assassination_used:
            return _open_assassination(state, optional=False)
        return _end(state, Side.GOOD, THREE_SUCCESSFUL_QUESTS)
    if (can_assassinate and not state.assassination_used
            and state.config.rules.assassination is Assassination.AFTER_EACH_QUEST):
        return _open_assassination(state, optional=True)
    return next_round(state)


def next_round(state: AvalonState) -> AvalonState:
    """Open the next quest; leadership passes to the next seat."""
    return _open_proposal(state, state.round + 1, 1, _next_leader(state))


def assassinate(state: AvalonState, decision: Decision) -> AvalonState:
    """The Assassin names a player (or, on a mid-game offer, passes).

    A hit on Merlin wins for evil. A miss after the third successful quest
    wins for good. A mid-game miss (``after_each_quest``, Lan et al. 2024)
    ends nothing: the public ``assassination`` entry tells the table that the
    named player is not Merlin and who the Assassin is (``exposed``), the
    shot is spent and the next round opens. A pass is announced without the
    Assassin's seat (the evil side alone knows who passed) and the next
    round opens.

    Raises:
        IllegalActionError: not the Assassin's turn, evil talk not finished, or an illegal target.
    """
    request = _only_request(state, decision)
    events: list[Event] = []
    if decision.utterance:
        events.append(_utterance(state, request, decision.utterance))
    target = decision.players[0] if decision.players else None
    if target is None:
        events.append({"type": "assassination", "to": PUBLIC, "round": state.round, "target": None, "hit": None})
        return next_round(state.evolve(events))
    hit = state.role_of(target) is Role.MERLIN
    shot: Event = {"type": "assassination", "to": PUBLIC, "round": state.round,
                   "assassin": request.player, "target": target, "hit": hit}
    over = hit or state.quest_results.count(True) == QUESTS_TO_WIN
    if not over:
        shot["exposed"] = True
    state = state.evolve(events + [shot], assassination_used=True)
    if hit:
        return _end(state, Side.EVIL, MERLIN_ASSASSINATED)
    if over:
        return _end(state, Side.GOOD, THREE_SUCCESSFUL_QUESTS)
    return next_round(state)


def _check_all(state: AvalonState, decisions: Mapping[int, Decision]) -> None:
    requests = {r.player: r for r in pending(state)}
    missing = sorted(set(requests) - set(decisions))
    extra = sorted(set(decisions) - set(requests))
    if missing or extra:
        raise IllegalActionError(f"decisions are missing for players {missing} / not asked of players {extra}")
    for player, request in requests.items():
        check_decision(request, decisions[player])


def apply(state: AvalonState, decisions: Mapping[int, Decision]) -> AvalonState:
    """Apply the answers to `pending(state)`, whatever the phase (the reveal, automatic, takes ``{}``).

    Args:
        state: the game before the answers.
        decisions: ``{player: Decision}`` for every request pending.

    Raises:
        IllegalActionError: the game is over, or a decision is illegal.
    """
    phase = state.phase
    if phase is Phase.OVER:
        raise IllegalActionError("the game is over")
    if phase is Phase.REVEAL:
        if decisions:
            raise IllegalActionError("the reveal takes no decisions")
        return reveal(state)
    if phase is Phase.VOTE:
        return vote(state, decisions)
    if phase is Phase.QUEST:
        return play_quest(state, decisions)
    if len(decisions) != 1:
        raise IllegalActionError(f"the {phase.value} phase takes one decision, not {len(decisions)}")
    (decision,) = decisions.values()
    if decision.kind == "propose_team":
        return propose(state, decision)
    if decision.kind == "speak":
        return speak(state, decision)
    if decision.kind == "assassinate":
        return assassinate(state, decision)
    raise IllegalActionError(f"a {decision.kind} decision does not fit the {phase.value} phase")
