"""Legislative Session (docs/games/secret-hitler.md#legislative-session): the draw, the discards, the reshuffle and
the veto."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import F, L, answer, events_of, game, votes

from roundtable.games.errors import IllegalActionError
from roundtable_secret_hitler import RULES
from roundtable_secret_hitler.state import Phase


def elected(state, chancellor):
    return votes(answer(state, **{f"p{state.president}": chancellor}), set(state.alive))


def test_the_president_draws_three_discards_one_and_the_chancellor_enacts_one_of_two():
    state = elected(game(5, president=1, deck=(F, L, F) + (F,) * 14), 3)
    assert state.hand == (F, L, F) and len(state.deck) == 14
    (request,) = RULES.pending(state)
    assert (request.kind, request.player, request.options) == ("discard", 1, ("liberal", "fascist"))
    assert request.allowed == (True, False) and request.unclear is False  # the first drawn: Fascist
    state = answer(state, p1=False)  # discards a Fascist
    assert state.hand == (L, F) and state.discard == (F,) and state.phase is Phase.CHANCELLOR_ENACT
    (request,) = RULES.pending(state)
    assert (request.kind, request.player, request.unclear) == ("enact", 3, True)
    state = answer(state, p3=True)
    assert state.liberal == 1 and state.discard == (F, F) and state.phase is Phase.NOMINATION
    (enacted,) = events_of(state, "enact")
    assert (enacted["policy"], enacted["president"], enacted["chancellor"], enacted["to"]) == (L, 1, 3, None)


def test_only_the_kinds_in_hand_may_be_discarded_or_enacted():
    state = elected(game(5, president=1, deck=(F, F, F) + (L,) * 14), 3)
    (request,) = RULES.pending(state)
    assert request.allowed == (False,) and request.forced
    with pytest.raises(IllegalActionError):
        answer(state, p1=True)


def test_the_discards_are_secret_and_the_passed_policies_known_to_both():
    state = answer(elected(game(5, president=1, deck=(F, L, L) + (F,) * 14), 3), p1=False)
    assert events_of(state, "draw")[0]["to"] == [1] and events_of(state, "discard")[0]["to"] == [1]
    assert events_of(state, "pass_policies")[0]["to"] == [1, 3]
    assert RULES.view(state, 3).hand == (L, L) and RULES.view(state, 1).passed == (L, L)
    assert all(RULES.view(state, p).hand == () and RULES.view(state, p).passed == () for p in (2, 4, 5))
    state = answer(state, p3=True)
    assert events_of(state, "chancellor_discard")[0]["to"] == [3]


def test_fewer_than_three_policies_left_at_the_end_of_a_session_are_reshuffled_with_the_discard_pile():
    state = game(5, president=1, deck=(L, F, F, L, F), discard=(F,) * 8 + (L,) * 4)  # all 17 policies
    state = answer(answer(elected(state, 3), p1=False), p3=True)  # a Liberal enacted, 2 left in the deck
    assert len(events_of(state, "reshuffle")) == 1 and state.discard == () and state.shuffles == 1
    assert Counter(state.deck) == Counter({F: 11, L: 5})  # the 16 policies not on the tracks


def test_three_policies_left_are_not_reshuffled():
    state = game(5, president=1, deck=(L, F, F, L, F, F), discard=(F,) * 11)
    state = answer(answer(elected(state, 3), p1=False), p3=True)
    assert not events_of(state, "reshuffle") and state.deck == (L, F, F)


def test_no_veto_before_five_fascist_policies():
    state = answer(elected(game(7, president=1, fascist=4, deck=(F,) * 17), 3), p1=False)
    assert state.phase is Phase.CHANCELLOR_ENACT


def test_after_five_fascist_policies_the_chancellor_may_propose_a_veto_and_the_president_agree():
    state = answer(elected(game(7, president=1, fascist=5, deck=(F,) * 3 + (L,) * 14), 3), p1=False)
    (request,) = RULES.pending(state)
    assert (request.kind, request.player, request.options, request.unclear) == ("propose_veto", 3,
                                                                                ("veto", "enact"), False)
    state = answer(state, p3=True)
    (request,) = RULES.pending(state)
    assert (request.kind, request.player, request.options) == ("consent_veto", 1, ("agree", "refuse"))
    state = answer(state, p1=True)
    assert state.fascist == 5 and state.tracker == 1 and state.discard == (F, F, F)
    assert events_of(state, "veto")[0]["agreed"] and state.president == 2


def test_a_refused_veto_makes_the_chancellor_enact():
    state = answer(elected(game(7, president=1, fascist=5, deck=(F,) * 3 + (L,) * 14), 3), p1=False)
    state = answer(answer(state, p3=True), p1=False)
    assert state.phase is Phase.CHANCELLOR_ENACT
    state = answer(state, p3=False)
    assert RULES.result(state).reason == "fascist_policies"


def test_a_veto_on_the_third_failure_throws_the_country_into_chaos():
    state = game(7, president=1, fascist=5, liberal=1, tracker=2, deck=(F, F, F, L) + (F,) * 3)
    state = answer(answer(answer(elected(state, 3), p1=False), p3=True), p1=True)
    (chaos,) = events_of(state, "chaos")
    assert chaos["policy"] == L and state.liberal == 2 and state.tracker == 0
