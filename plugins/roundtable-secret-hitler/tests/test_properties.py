"""Properties of random legal play (hypothesis): every game ends with a legal winner within a bound, and no view
ever holds what its player may not know (docs/games/secret-hitler.md#what-a-player-sees)."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roundtable.games.protocol import can_see
from roundtable.testing.games import legal_answer
from roundtable_secret_hitler import RULES
from roundtable_secret_hitler.powers import FASCIST_WIN, HITLER_ZONE, LIBERAL_WIN
from roundtable_secret_hitler.roles import Role
from roundtable_secret_hitler.state import CHANCELLOR_PHASES, Phase, SecretHitlerState

STEP_BOUND = 600
"""Steps a game ends within: at most 10 policies reach the tracks before one is full (4 Liberal and 5 Fascist), each
after at most 3 governments (the third failure enacts one), each of at most 17 steps (nomination, 10 speeches, the
vote, discard, veto, consent, enactment, a power): 510."""
PRIVATE = {"role", "knowledge", "draw", "discard", "pass_policies", "chancellor_discard", "peek", "investigation"}


def allowed_to_see(state: SecretHitlerState, event: dict, player: int) -> bool:
    """Who the rules let see each private event (docs/games/secret-hitler.md#what-the-log-records)."""
    kind = event["type"]
    if kind in ("role", "knowledge", "draw", "discard", "chancellor_discard", "peek", "investigation"):
        return event["player"] == player
    if kind == "pass_policies":
        return player in (event["president"], event["chancellor"])
    return event.get("to") is None


def check_views(state: SecretHitlerState) -> None:
    holder = state.holder()
    for p in state.players:
        view = RULES.view(state, p)
        assert all(can_see(e, p) and allowed_to_see(state, e, p) for e in view.events), "an event not for it"
        assert [e for e in view.events if e["type"] == "role"] == [e for e in state.events
                                                                  if e["type"] == "role" and e["player"] == p]
        assert view.role == state.role_of(p).value
        mine = state.role_of(p)
        sees = mine is Role.FASCIST or (mine is Role.HITLER and len(state.roles) <= 6)
        others = {q for q in state.players if q != p and state.role_of(q) is not Role.LIBERAL}
        assert {k["player"] for k in view.knowledge} == (others if sees else set())
        assert view.hand == (state.hand if holder == p else ())
        passed = state.phase in CHANCELLOR_PHASES and p == state.president
        assert view.passed == (state.hand if passed else ())
        found = [e for e in state.events if e["type"] == "investigation" and e["player"] == p]
        assert len(view.investigations) == len(found)
        # the table's fields are the same whatever the hidden facts: the deck's order, the roles behind them
        hidden = replace(state, deck=state.deck[::-1], roles=state.roles[::-1])
        assert RULES.view(hidden, p).model_dump(exclude={"events", "role", "side", "knowledge"}) == (
            view.model_dump(exclude={"events", "role", "side", "knowledge"}))


def check_result(state: SecretHitlerState) -> None:
    result = RULES.result(state)
    assert result is not None and result.winner in ("liberal", "fascist")
    reason = result.reason
    if reason == "liberal_policies":
        assert result.winner == "liberal" and state.liberal == LIBERAL_WIN
    elif reason == "hitler_executed":
        assert result.winner == "liberal" and state.dead[-1] == state.hitler
    elif reason == "fascist_policies":
        assert result.winner == "fascist" and state.fascist == FASCIST_WIN
    else:
        assert reason == "hitler_elected" and result.winner == "fascist"
        assert state.nominee == state.hitler and state.fascist >= HITLER_ZONE
    assert state.liberal <= LIBERAL_WIN and state.fascist <= FASCIST_WIN
    assert len(state.deck) + len(state.discard) + state.liberal + state.fascist == 17


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(5, 10), talk=st.booleans(), seed=st.integers(0, 2**32), play=st.integers(0, 2**32))
def test_random_legal_play_ends_with_a_legal_winner_and_never_leaks(players, talk, seed, play):
    config = RULES.config({"players": players, "rules": {"discussion": "after_nomination" if talk else "none"}})
    state = RULES.new_game(config, seed)
    rng = random.Random(play)
    for _ in range(STEP_BOUND):
        check_views(state)
        if RULES.result(state) is not None:
            break
        requests = RULES.pending(state)
        assert requests, "every phase asks someone"
        state = RULES.apply(state, {r.player: legal_answer(r, rng) for r in requests})
        assert len(state.deck) + len(state.discard) + len(state.hand) + state.liberal + state.fascist == 17
        assert len(state.deck) >= 3 or state.phase is not Phase.NOMINATION
    check_result(state)
