"""Executive Action (docs/games/secret-hitler.md#executive-actions): each power on each board, and execution."""

from __future__ import annotations

import pytest
from helpers import F, L, answer, events_of, game, govern, kinds

from roundtable.games.errors import IllegalActionError
from roundtable_secret_hitler import RULES
from roundtable_secret_hitler.state import Phase

BOARDS = {5: {3: "policy_peek", 4: "execution", 5: "execution"},
          7: {2: "investigate", 3: "special_election", 4: "execution", 5: "execution"},
          9: {1: "investigate", 2: "investigate", 3: "special_election", 4: "execution", 5: "execution"}}
"""The rulebook's three Fascist track boards (5-6, 7-8 and 9-10 players)."""
ASKED = {"investigate": "investigate", "special_election": "choose_president", "execution": "execute"}


def fascist_enacted(players: int, nth: int, **changes):
    """A government of President 1 and Chancellor 3 enacting the ``nth`` Fascist policy."""
    state = game(players, president=1, hitler=2, fascists=(4, 5, 6)[: {5: 1, 6: 1, 7: 2, 8: 2}.get(players, 3)],
                 fascist=nth - 1, deck=(F,) * 17, **changes)
    return govern(state, 3, discard=False, enact=False)


@pytest.mark.parametrize("players", [5, 6, 7, 8, 9, 10])
@pytest.mark.parametrize("nth", [1, 2, 3, 4, 5])
def test_each_power_of_each_board(players, nth):
    board = BOARDS[{5: 5, 6: 5, 7: 7, 8: 7, 9: 9, 10: 9}[players]]
    state = fascist_enacted(players, nth)
    power = board.get(nth)
    granted = [e["power"] for e in events_of(state, "power")]
    assert granted == ([power] if power else [])
    if power is None or power == "policy_peek":
        assert state.phase is Phase.NOMINATION
    else:
        assert kinds(state) == [ASKED[power]] and RULES.pending(state)[0].player == 1


def test_the_peek_shows_the_president_the_top_three_policies_only():
    state = game(5, president=1, fascist=2, deck=(F, F, F, L, F, L) + (F,) * 5)
    state = govern(state, 3, discard=False, enact=False)
    (peek,) = events_of(state, "peek")
    assert peek["to"] == [1] and peek["policies"] == [L, F, L] == list(state.deck[:3])


def test_an_investigation_shows_the_party_to_the_president_alone_and_hitler_is_fascist():
    state = fascist_enacted(9, 1)
    (request,) = RULES.pending(state)
    assert 1 not in request.candidates
    state = answer(state, p1=2)  # Hitler
    (found,) = events_of(state, "investigation")
    assert found["to"] == [1] and found["party"] == "fascist"
    assert RULES.view(state, 1).investigations == ({"player": 2, "party": "fascist"},)
    assert all(RULES.view(state, p).investigations == () for p in range(2, 10))
    assert events_of(state, "investigated")[0]["to"] is None  # the table sees whom


def test_a_player_is_investigated_once():
    state = answer(fascist_enacted(9, 1), p1=7)
    state = govern(state.evolve(deck=(F,) * 17), 8, discard=False, enact=False)  # President 2: the 2nd Fascist
    (request,) = RULES.pending(state)
    assert request.kind == "investigate" and 7 not in request.candidates
    with pytest.raises(IllegalActionError):
        answer(state, p2=7)


def test_a_special_election_chooses_the_next_president_then_the_order_resumes():
    state = answer(fascist_enacted(7, 3), p1=5)
    assert state.president == 5 and events_of(state, "special_election")[0]["chosen"] == 5
    state = govern(state.evolve(deck=(L,) * 14), 4)
    assert state.president == 2  # back to the left of President 1


def test_a_special_election_may_choose_the_next_in_line_who_then_presides_twice():
    state = answer(fascist_enacted(7, 3), p1=2)
    assert state.president == 2
    assert govern(state.evolve(deck=(L,) * 14), 4).president == 2  # and again, the left of President 1


def test_an_executed_player_is_dead_and_silent():
    state = answer(fascist_enacted(5, 4), p1=4)
    assert state.dead == (4,) and events_of(state, "execution")[0]["target"] == 4
    assert 4 not in RULES.pending(state)[0].candidates
    assert "roles" not in events_of(state, "execution")[0] and RULES.result(state) is None
    state = answer(state, **{f"p{state.president}": 5})
    assert 4 not in {r.player for r in RULES.pending(state)}


def test_executing_hitler_wins_for_the_liberals():
    state = answer(fascist_enacted(5, 4), p1=2)
    assert RULES.result(state).winner == "liberal" and RULES.result(state).reason == "hitler_executed"


def test_five_liberal_policies_win_for_the_liberals():
    state = govern(game(5, president=1, liberal=4, deck=(L,) * 17), 3, discard=False, enact=True)
    assert RULES.result(state).winner == "liberal" and RULES.result(state).reason == "liberal_policies"


def test_six_fascist_policies_win_for_the_fascists_without_a_power():
    state = govern(game(9, president=1, fascist=5, deck=(F,) * 17), 3, discard=False, enact=False)
    assert RULES.result(state).reason == "fascist_policies" and not events_of(state, "power")
    assert RULES.pending(state) == [] and events_of(state, "game_over")[0]["roles"]["1"] == "hitler"
