"""What the game asks, and of whom: `pending(state)` (docs/games/secret-hitler.md#requests-and-answers).

Every request offers the legal answers only. Kinds (the game's own words) and answer shapes:

- ``nominate`` (pick one): the President names a Chancellor candidate among the eligible players (rulebook,
  *Election*: term limits, `eligible`);
- ``speak`` (words): each living player once, from the President clockwise, after a nomination
  (``discussion=after_nomination``);
- ``vote`` (yes/no ``ja`` / ``nein``): every living player at once; an unclear vote counts as ``nein``;
- ``discard`` (yes/no ``liberal`` / ``fascist``, the policy the President discards of the three drawn): only the
  kinds in hand are allowed; an unclear answer discards the first policy drawn;
- ``propose_veto`` (yes/no ``veto`` / ``enact``): the Chancellor, once five Fascist policies are enacted; unclear
  enacts;
- ``consent_veto`` (yes/no ``agree`` / ``refuse``): the President, when the Chancellor proposed a veto; unclear
  refuses;
- ``enact`` (yes/no ``liberal`` / ``fascist``, the policy the Chancellor enacts of the two passed): only the kinds
  in hand are allowed; an unclear answer enacts the first of the two;
- ``investigate``, ``choose_president``, ``execute`` (pick one): the President's executive action (rulebook,
  *Executive Action*): a living player not investigated before; any other living player; any other living player.

Ids are ``r<round>.<kind>.p<player>``, unique within a game. A finished game asks nothing.
"""

from __future__ import annotations

from typing import Any

from roundtable.games.protocol import Request
from roundtable_secret_hitler.deck import FASCIST, LIBERAL
from roundtable_secret_hitler.state import Phase, SecretHitlerState

VOTE_WORDS = ("ja", "nein")
POLICY_WORDS = (LIBERAL, FASCIST)
VETO_WORDS = ("veto", "enact")
CONSENT_WORDS = ("agree", "refuse")
TERM_LIMIT_RELAXED = 5
"""With this many players alive or fewer, only the last Chancellor is term-limited (rulebook, *Election*)."""


def eligible(state: SecretHitlerState) -> tuple[int, ...]:
    """The players the President may nominate: the living others, minus the last elected Chancellor and, with more
    than five players alive, the last elected President (rulebook, *Election*, "Term Limits")."""
    limited = {state.last_chancellor}
    if len(state.alive) > TERM_LIMIT_RELAXED:
        limited.add(state.last_president)
    return tuple(p for p in state.alive if p != state.president and p not in limited)


def term_limited(state: SecretHitlerState) -> tuple[int, ...]:
    """The living players the term limits bar from the chancellorship this round, in seat order."""
    return tuple(p for p in state.alive if p != state.president and p not in eligible(state))


def _kinds(hand: tuple[str, ...]) -> tuple[bool, ...]:
    """The ``allowed`` of a choice among the policies of ``hand``: ``True`` for a Liberal one, ``False`` for a
    Fascist one, the kinds held."""
    return tuple(choice for choice, policy in ((True, LIBERAL), (False, FASCIST)) if policy in hand)


def pending(state: SecretHitlerState) -> list[Request]:
    """The decisions the game waits for now, one `Request` per player asked (see the module docstring)."""
    phase = state.phase
    base: dict[str, Any] = {"round": state.round, "phase": phase.value}
    president, nominee = state.president, state.nominee

    def ask(kind: str, player: int, **fields: Any) -> Request:
        return Request(id=f"r{state.round}.{kind}.p{player}", kind=kind, player=player, **base, **fields)

    if phase is Phase.NOMINATION:
        return [ask("nominate", president, answer="pick", count=1, candidates=eligible(state),
                    details={"term_limited": list(term_limited(state)), "tracker": state.tracker})]
    if phase is Phase.DISCUSSION:
        return [ask("speak", state.speakers[0], answer="words", wants_words=True, subject=(president, nominee))]
    if phase is Phase.ELECTION:
        return [ask("vote", p, answer="yes_no", options=VOTE_WORDS, unclear=False, subject=(president, nominee),
                    details={"president": president, "chancellor": nominee, "tracker": state.tracker})
                for p in state.alive]
    if phase is Phase.PRESIDENT_DISCARD:
        return [ask("discard", president, answer="yes_no", options=POLICY_WORDS, allowed=_kinds(state.hand),
                    unclear=state.hand[0] == LIBERAL, subject=(nominee,), details={"hand": list(state.hand)})]
    if phase is Phase.VETO:
        assert nominee is not None
        return [ask("propose_veto", nominee, answer="yes_no", options=VETO_WORDS, unclear=False,
                    subject=(president,), details={"hand": list(state.hand)})]
    if phase is Phase.VETO_CONSENT:
        return [ask("consent_veto", president, answer="yes_no", options=CONSENT_WORDS, unclear=False,
                    subject=(nominee,), details={"passed": list(state.hand)})]
    if phase is Phase.CHANCELLOR_ENACT:
        assert nominee is not None
        return [ask("enact", nominee, answer="yes_no", options=POLICY_WORDS, allowed=_kinds(state.hand),
                    unclear=state.hand[0] == LIBERAL, subject=(president,), details={"hand": list(state.hand)})]
    others = tuple(p for p in state.alive if p != president)
    if phase is Phase.INVESTIGATE:
        return [ask("investigate", president, answer="pick", count=1,
                    candidates=tuple(p for p in others if p not in state.investigated),
                    details={"investigated": list(state.investigated)})]
    if phase is Phase.SPECIAL_ELECTION:
        return [ask("choose_president", president, answer="pick", count=1, candidates=others)]
    if phase is Phase.EXECUTION:
        return [ask("execute", president, answer="pick", count=1, candidates=others)]
    return []
