"""Secret Hitler's play-quality part (`roundtable_secret_hitler.quality`), reached through roundtable's measures
and the ``roundtable.quality`` entry point: clean rule-bot games count no misplay, and each misplay planted in a
game played with the plugin's rules is counted, by its rule."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import F, L, answer, events_of, game, govern, votes
from sh_records import bot_game, record_of

from roundtable.metrics.play_quality import play_quality
from roundtable.metrics.quality.parts import quality_parts
from roundtable_secret_hitler import quality
from roundtable_secret_hitler.deck import FULL_DECK
from roundtable_secret_hitler.roles import Role

REST = tuple(sorted(FULL_DECK))  # a deck's tail: enough policies for any session after the planted ones


def test_the_entry_point_declares_the_part():
    assert quality_parts()["secret_hitler"] is quality.PART


@pytest.mark.parametrize(("players", "seed"), [(5, 0), (5, 3), (7, 1), (9, 2), (10, 4)])
def test_a_clean_rule_bot_game_counts_no_misplay(players, seed):
    found = play_quality(record_of(bot_game(players, seed)))
    assert found.settled_decisions.cases > 0
    assert found.settled_decisions.hits == found.settled_decisions.cases, found.examples
    assert found.self_exposure.hits == 0 and found.self_exposure.cases > 0
    assert found.words_and_actions.hits == found.words_and_actions.cases > 0, found.examples
    assert found.dead_named.hits == 0


def test_a_liberal_president_discarding_the_liberal_policy_is_counted():
    # Hitler 1, Fascist 2; President 3 (Liberal) draws L F F and discards the Liberal one
    state = govern(game(5, president=3, deck=(L, F, F) + REST), 4, discard=True)
    assert events_of(state, "discard")[0]["policy"] == L
    found = play_quality(record_of(state))
    assert found.settled_rules["liberal discard"].cases == 1 and found.settled_rules["liberal discard"].hits == 0
    assert "P3 (liberal) liberal discard: drew liberal, fascist, fascist, discarded liberal" in \
        found.examples["settled_decisions"]
    clean = play_quality(record_of(govern(game(5, president=3, deck=(L, F, F) + REST), 4, discard=False)))
    assert clean.settled_rules["liberal discard"].hits == 1


def test_a_liberal_chancellor_enacting_the_fascist_policy_is_counted():
    # President 2 (Fascist) draws L F F, passes L and F to Chancellor 4 (Liberal), who enacts the Fascist one
    state = govern(game(5, president=2, deck=(L, F, F) + REST), 4, discard=False, enact=False)
    assert events_of(state, "enact")[0]["policy"] == F
    found = play_quality(record_of(state))
    assert (found.settled_rules["liberal enact"].hits, found.settled_rules["liberal enact"].cases) == (0, 1)
    assert "liberal discard" not in found.settled_rules  # a Fascist President's discard is no case
    clean = play_quality(record_of(govern(game(5, president=2, deck=(L, F, F) + REST), 4, discard=False,
                                          enact=True)))
    assert (clean.settled_rules["liberal enact"].hits, clean.settled_rules["liberal enact"].cases) == (1, 1)


def investigated(vote_ja: bool) -> dict:
    """9 players, Hitler 1, Fascists 2-4: President 5 (Liberal) and Chancellor 2 enact a Fascist policy, 5
    investigates 3 (Fascist); next round President 6 nominates 3, and 5 votes ``vote_ja``."""
    state = govern(game(9, president=5, deck=(F, F, F) + REST), 2)
    state = answer(state, p5=3)  # the investigation
    assert events_of(state, "investigation")[0]["party"] == "fascist"
    state = answer(state, p6=3)
    state = votes(state, {p for p in state.alive if p != 5 or vote_ja})
    return record_of(state)


def test_a_liberal_voting_for_a_government_its_investigation_showed_fascist_is_counted():
    found = play_quality(investigated(vote_ja=True))
    assert (found.settled_rules["liberal vote"].hits, found.settled_rules["liberal vote"].cases) == (0, 1)
    clean = play_quality(investigated(vote_ja=False))
    assert (clean.settled_rules["liberal vote"].hits, clean.settled_rules["liberal vote"].cases) == (1, 1)


def test_a_fascist_voting_down_hitler_as_chancellor_in_the_hitler_zone_is_counted():
    # three Fascist policies enacted; President 3 nominates Hitler (1); Fascist 2 votes nein, Hitler ja
    state = answer(game(5, president=3, fascist=3), p3=1)
    state = votes(state, {1, 3, 4, 5})
    found = play_quality(record_of(state))
    rule = found.settled_rules["fascist elects hitler"]
    assert (rule.hits, rule.cases) == (1, 2)  # Hitler's ja is right, the Fascist's nein is not
    assert any("P2 (fascist)" in e for e in found.examples["settled_decisions"])


def test_hitler_exposing_himself_and_words_against_the_vote_are_counted():
    state = answer(game(5, talk=True, president=3), p3=4)  # Hitler 1, Fascist 2; 3 nominates 4
    for words in ("I nominated Player 4.", "I will govern well.", "I will vote nein on this government.",
                  "I am Hitler, so trust me and vote ja.", "My fellow Fascist Player 1 is right, I'm voting ja."):
        state = answer(state, **{f"p{state.speakers[0]}": words})
    state = votes(state, {1, 2, 3, 4, 5})  # 5 said nein and voted ja
    found = play_quality(record_of(state))
    assert (found.self_exposure.hits, found.self_exposure.cases) == (2, 5)
    assert any(e.startswith("P1 (hitler, states its role)") for e in found.examples["self_exposure"])
    assert (found.words_and_actions.hits, found.words_and_actions.cases) == (1, 2)
    assert "P5 said 'I will vote nein on this government.', voted ja" in found.examples["words_and_actions"]


def test_the_words_read_by_plain_patterns():
    assert quality.exposes("I am Hitler.", Role.HITLER, set()) == "states its role"
    assert quality.exposes("As a Fascist, I enact what I must.", Role.FASCIST, {1}) == "speaks as its role"
    assert quality.exposes("Player 3 is my teammate.", Role.FASCIST, {3}) == "names its teammate"
    assert quality.exposes("Trust me: Player 1 is Hitler.", Role.FASCIST, {1}) == "names Hitler"
    assert quality.exposes("Player 1 is Hitler.", Role.LIBERAL, set()) is None  # a guess, not knowledge
    assert quality.exposes("Player 4 is Hitler.", Role.FASCIST, {1}) is None  # not the Hitler it knows
    for said in ("I am not Hitler.", "You think I am a Fascist?", "If I were Hitler I would lie.",
                 "Player 3 is my teammate.", "We enacted a Fascist policy."):
        assert quality.exposes(said, Role.FASCIST, {1}) is None, said
    assert quality.exposes("I am Hitler.", Role.LIBERAL, set()) is None  # a Liberal's words expose no Fascist
    assert quality.stated_vote("I will vote ja on Player 4 and Player 3.") is True
    assert quality.stated_vote("I'm voting nein.") is False and quality.stated_vote("My vote is yes") is True
    assert quality.stated_vote("Please vote ja.") is None and quality.stated_vote("I will not vote ja.") is None


def test_the_measures_import_no_aid_agent_or_detector():
    source = ast.parse(Path(quality.__file__).read_text())
    imported = {node.module for node in ast.walk(source) if isinstance(node, ast.ImportFrom) and node.module} | {
        alias.name for node in ast.walk(source) if isinstance(node, ast.Import) for alias in node.names}
    banned = ("roundtable.aids", "roundtable.agents", "roundtable.detectors")
    assert not [m for m in imported if m.startswith(banned)], imported
