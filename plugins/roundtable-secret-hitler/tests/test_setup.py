"""Set Up (docs/games/secret-hitler.md#roles, #the-policy-deck): the roles per count, who knows whom, the deck, the
first President, the configuration and the determinism of a seeded game."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import events_of

from roundtable.games.errors import ConfigurationError
from roundtable_secret_hitler import RULES
from roundtable_secret_hitler.deck import FULL_DECK
from roundtable_secret_hitler.roles import Role
from roundtable_secret_hitler.state import Phase

COUNTS = {5: (3, 1), 6: (4, 1), 7: (4, 2), 8: (5, 2), 9: (5, 3), 10: (6, 3)}
"""Liberals and Fascists (besides Hitler) by player count, from the rulebook's Set Up table."""


def dealt(players: int, seed: int = 0):
    return RULES.new_game(RULES.config({"players": players}), seed)


@pytest.mark.parametrize("players", sorted(COUNTS))
def test_the_roles_of_each_player_count(players):
    counts = Counter(dealt(players).roles)
    assert (counts[Role.LIBERAL], counts[Role.FASCIST], counts[Role.HITLER]) == (*COUNTS[players], 1)


@pytest.mark.parametrize("players", sorted(COUNTS))
@pytest.mark.parametrize("seed", range(3))
def test_who_knows_whom(players, seed):
    state = dealt(players, seed)
    fascist_side = {p for p in state.players if state.role_of(p) is not Role.LIBERAL}
    for p in state.players:
        known = {k["player"]: k["is"] for k in RULES.view(state, p).knowledge}
        role = state.role_of(p)
        if role is Role.LIBERAL:
            assert known == {}
        elif role is Role.FASCIST:  # the Fascists always know each other and Hitler
            assert set(known) == fascist_side - {p} and known[state.hitler] == "hitler"
        elif players <= 6:  # Hitler knows the Fascist at 5-6 players
            assert set(known) == fascist_side - {p} and set(known.values()) == {"fascist"}
        else:  # and nobody from 7
            assert known == {}


def test_the_deck_is_6_liberal_and_11_fascist_policies_shuffled_by_the_seed():
    assert Counter(FULL_DECK) == {"liberal": 6, "fascist": 11}
    decks = {dealt(5, seed).deck for seed in range(5)}
    assert all(Counter(d) == Counter(FULL_DECK) for d in decks) and len(decks) > 1
    assert dealt(5, 3).deck == dealt(5, 3).deck


def test_the_first_president_is_drawn_and_nominates():
    firsts = {dealt(7, seed).president for seed in range(30)}
    assert len(firsts) > 3
    state = dealt(7, 1)
    assert state.phase is Phase.NOMINATION and [r.player for r in RULES.pending(state)] == [state.president]
    assert events_of(state, "round_start")[0]["president"] == state.president


@pytest.mark.parametrize("bad", [{"players": 4}, {"players": 11}, {"rules": {"discussion": "always"}},
                                 {"rules": {"veto": "off"}}, {"preset": "lan6"}, {"roles": ["liberal"] * 5},
                                 {"colour": "red"}])
def test_an_unplayable_configuration_is_refused_by_name(bad):
    with pytest.raises(ConfigurationError):
        RULES.config(bad)


def test_a_role_list_of_the_rulebook_is_accepted_and_a_configuration_survives_its_dict():
    config = RULES.config({"roles": ["hitler", "fascist", "liberal", "liberal", "liberal", "liberal"]})
    assert config.players == 6
    for data in RULES.configurations():
        assert RULES.config(RULES.config_dict(RULES.config(data))) == RULES.config(data)


def test_the_same_seed_and_decisions_give_the_same_game():
    from roundtable.testing.games import play

    first, _ = play(RULES, {"players": 8}, 42)
    again, _ = play(RULES, {"players": 8}, 42)
    other, _ = play(RULES, {"players": 8}, 43)
    assert first.events == again.events and first.events != other.events
