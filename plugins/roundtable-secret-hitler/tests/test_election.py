"""Election (docs/games/secret-hitler.md#election): the presidency, term limits, the vote, the tracker and chaos,
the table talk."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import F, L, answer, events_of, game, govern, kinds, votes

from roundtable.games.errors import IllegalActionError
from roundtable_secret_hitler import RULES
from roundtable_secret_hitler.state import Phase


def candidates(state):
    (request,) = RULES.pending(state)
    assert request.kind == "nominate"
    return set(request.candidates)


def test_the_presidency_passes_clockwise_skipping_the_dead():
    state = game(7, president=6, dead=(7,))
    state = votes(answer(state, p6=2), set())  # rejected
    assert state.president == 1  # 7 is dead: from 6 to 1
    state = votes(answer(state, p1=2), set())
    assert state.president == 2


def test_term_limits_bar_the_last_elected_president_and_chancellor():
    state = govern(game(7, president=1, deck=(L,) * 3 + (F,) * 14), 3)
    assert state.president == 2 and (state.last_president, state.last_chancellor) == (1, 3)
    assert candidates(state) == {4, 5, 6, 7}
    assert RULES.view(state, 5).term_limited == (1, 3)
    with pytest.raises(IllegalActionError):
        answer(state, p2=1)


def test_with_five_players_alive_only_the_last_chancellor_is_term_limited():
    state = govern(game(5, president=1, deck=(L,) * 3 + (F,) * 14), 3)
    assert candidates(state) == {1, 4, 5}
    state = govern(game(7, president=1, dead=(6, 7), deck=(L,) * 3 + (F,) * 14), 3)
    assert candidates(state) == {1, 4, 5}


def test_a_rejected_nominee_is_not_term_limited():
    state = votes(answer(game(7, president=1), p1=3), {1, 2, 3})  # 3 ja of 7
    assert state.tracker == 1 and state.last_chancellor is None
    assert 3 in candidates(state)


def test_a_majority_of_ja_elects_and_a_tie_fails():
    state = answer(game(6, president=1), p1=2)
    assert votes(state, {1, 2, 3, 4}).phase is Phase.PRESIDENT_DISCARD
    tied = votes(state, {1, 2, 3})
    assert tied.phase is Phase.NOMINATION and tied.tracker == 1
    (result,) = events_of(tied, "election")
    assert (result["ja"], result["nein"], result["elected"]) == (3, 3, False)
    assert {e["player"]: e["ja"] for e in events_of(tied, "vote")} == {1: True, 2: True, 3: True, 4: False,
                                                                       5: False, 6: False}


def test_only_the_living_vote():
    state = answer(game(7, president=1, dead=(5,)), p1=2)
    assert sorted(r.player for r in RULES.pending(state)) == [1, 2, 3, 4, 6, 7]


def test_the_third_failed_election_enacts_the_top_policy_in_chaos():
    state = game(7, president=1, deck=(L, F, F) + (F,) * 14, fascist=1, last_president=4, last_chancellor=5)
    for president in (1, 2, 3):
        assert state.president == president
        state = votes(answer(state, **{f"p{president}": 6}), set())
    (chaos,) = events_of(state, "chaos")
    assert chaos["policy"] == L and state.liberal == 1 and state.fascist == 1
    assert state.tracker == 0 and state.deck == (F,) * 16
    assert (state.last_president, state.last_chancellor) == (None, None)  # term limits forgotten
    assert state.president == 4 and candidates(state) == {1, 2, 3, 5, 6, 7}


def test_chaos_grants_no_executive_power():
    state = game(7, president=1, deck=(F,) * 17, fascist=1, tracker=2)  # 7-8 players: the 2nd Fascist investigates
    state = votes(answer(state, p1=3), set())
    assert state.fascist == 2 and state.phase is Phase.NOMINATION and not events_of(state, "power")


def test_an_enacted_policy_resets_the_tracker():
    state = govern(game(7, president=1, tracker=2, deck=(L,) * 3 + (F,) * 14), 3)
    assert state.liberal == 1 and state.tracker == 0


def test_the_table_talks_after_the_nomination_from_the_president_clockwise():
    state = answer(game(5, president=4, talk=True), p4=1)
    order = []
    while state.phase is Phase.DISCUSSION:
        (request,) = RULES.pending(state)
        assert request.kind == "speak" and request.wants_words and request.subject == (4, 1)
        order.append(request.player)
        state = answer(state, **{f"p{request.player}": f"words of {request.player}"})
    assert order == [4, 5, 1, 2, 3] and kinds(state) == ["vote"] * 5
    assert [e["speaker"] for e in events_of(state, "utterance")] == order


def test_discussion_none_goes_straight_to_the_vote():
    state = answer(game(5, president=4), p4=1)
    assert kinds(state) == ["vote"] * 5


def test_an_unclear_vote_counts_as_nein():
    state = answer(game(5, president=1), p1=2)
    assert {r.unclear for r in RULES.pending(state)} == {False}
    assert {r.options for r in RULES.pending(state)} == {("ja", "nein")}


def test_hitler_elected_chancellor_after_three_fascist_policies_wins_for_the_fascists():
    state = votes(answer(game(7, president=2, hitler=5, fascists=(2, 3), fascist=3), p2=5), {1, 2, 3, 4})
    assert RULES.result(state).winner == "fascist" and RULES.result(state).reason == "hitler_elected"


def test_hitler_elected_with_two_fascist_policies_does_not_win_and_another_chancellor_is_known_not_hitler():
    early = votes(answer(game(7, president=2, hitler=5, fascists=(2, 3), fascist=2), p2=5), {1, 2, 3, 4})
    assert RULES.result(early) is None and early.phase is Phase.PRESIDENT_DISCARD
    late = votes(answer(game(7, president=2, hitler=5, fascists=(2, 3), fascist=3), p2=4), {1, 2, 3, 4})
    assert RULES.result(late) is None and events_of(late, "not_hitler")[0]["player"] == 4


def test_a_special_election_president_is_term_limited_once_elected():
    state = replace(game(7, president=1), special_next=5)
    state = govern(state, 3)  # president 1 governs; the special election's choice is next
    assert state.president == 5
