"""Secret Hitler's table (roundtable_secret_hitler.table, docs/games/secret-hitler.md#the-table): registered through
the rules record, saying something for every answer shape and every request kind, the reveal in words per player
count, no secret of another player in any of its texts, every template line annotated with its source, and the
belief probe asking every Liberal before the roles are shown."""

from __future__ import annotations

import random
import re

import pytest
from helpers import game

from roundtable.games import GAMES
from roundtable.games.protocol import Decision
from roundtable.prompts.registry import registry
from roundtable.prompts.rendering import TemplateContext
from roundtable.prompts.sources import unannotated
from roundtable.tables.protocol import GameTable, TableSettings, game_table, games_with_tables, table_maker
from roundtable_secret_hitler.table import SecretHitlerTable

GAME = "secret_hitler"
RULES = GAMES[GAME]
CONTEXT = TemplateContext()
CGA = TableSettings(prompt=lambda piece: f"cga/{piece}")
KINDS = {"nominate", "speak", "vote", "discard", "enact", "propose_veto", "consent_veto", "investigate",
         "choose_president", "execute"}
SENTINEL = re.compile(r"SENTINEL\[(\d+)\]")


def played(players: int, seed: int):
    """``[(state, request)]`` of every request of a randomly played game."""
    rng = random.Random(seed)
    state = RULES.new_game(RULES.config({"players": players}), seed)
    out = []
    while RULES.result(state) is None:
        requests = RULES.pending(state)
        out += [(state, r) for r in requests]
        state = RULES.apply(state, {r.player: Decision.to(
            r, utterance="hm" if r.wants_words else None,
            players=tuple(rng.sample(list(r.candidates), r.count or 0)) if r.answer == "pick" else None,
            choice=rng.choice(r.allowed) if r.answer == "yes_no" else None) for r in requests})
    return out, state


def first_of_each_kind():
    found = {}
    for players in (5, 7, 9):
        for seed in range(12):
            for state, request in played(players, seed)[0]:
                found.setdefault(request.kind, (state, request))
            if KINDS <= set(found):
                return found
    return found


FOUND = first_of_each_kind()


def table_of(state, request, settings=CGA) -> SecretHitlerTable:
    table = game_table(RULES.view(state, request.player), request, CONTEXT, settings)
    assert isinstance(table, SecretHitlerTable)
    return table


def texts(table: SecretHitlerTable) -> list[str]:
    lines = [table.narrate(e) for e in table.view.events]
    return [table.rules_text(), table.role_card(), table.knowledge_text(), table.instruction(), table.speech(),
            table.choice_help(json=True), table.choice_help(json=False), *(line for line in lines if line)]


def test_the_game_registers_its_table_and_cga_plays_it():
    from roundtable.agents.registry import AGENT_KINDS

    assert GAME in games_with_tables() and table_maker(GAME) is not None
    assert GAME in AGENT_KINDS["cga"].games and GAME in AGENT_KINDS["cga"].probed
    assert RULES.game_title == "Secret Hitler"


def test_every_request_kind_is_met_in_random_play():
    assert set(FOUND) == KINDS


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_table_says_something_for_every_request_kind(kind):
    state, request = FOUND[kind]
    table = table_of(state, request)
    assert isinstance(table, GameTable) and table.view.game == GAME and table.request is request
    for text in (table.rules_text(), table.role_card(), table.instruction(), table.choice_help(json=False),
                 table.choice_help(json=True), table.speech(), table.role_title, table.round_name, table.refresh_key):
        assert isinstance(text, str) and text.strip(), (kind, text)
    assert f"Host: Player {request.player}," in table.instruction()
    assert f"Round {request.round}." in table.instruction()
    assert table.retry_note(0) == "" and table.request_variables()["kind"] == kind
    if request.answer == "pick":
        assert table.retry_note(1).strip()
        assert table.decided({"players": [request.candidates[0]]}).strip()
    elif request.answer == "yes_no":
        assert all(word in table.instruction() for word in (request.word(c) for c in request.allowed))
        assert table.decided({"choice": request.allowed[0]}).strip()
    assert table.decided(None) == ""
    assert all(table.narrate(e) is None or table.narrate(e).strip() for e in table.view.events)
    assert table.round_name == "round" and table.refresh_key == str(request.round)
    assert table.secret == (kind in ("discard", "enact"))
    assert table.alive() == list(table.view.alive)
    assert table.question_set is None
    assert table.probe_sides == ("liberal", "fascist") and table.probe_roles == "a Liberal"
    assert table.game_title == "Secret Hitler"


def test_a_hand_is_named_in_the_instruction_of_its_holder():
    state, request = FOUND["discard"]
    table = table_of(state, request)
    assert f"you drew {', '.join(p.title() for p in request.details['hand'])}" in table.instruction()


def test_the_executed_are_not_alive_and_are_named():
    for state, request in played(7, 1)[0] + played(9, 2)[0]:
        if state.dead:
            table = table_of(state, request)
            assert not set(state.dead) & set(table.alive() or [])
            assert "Executed: Player" in table.instruction()
            return
    pytest.skip("no execution in these games")


def test_a_learned_strategy_and_role_notes_reach_the_role_card():
    state, request = FOUND["vote"]
    learned = table_of(state, request, TableSettings(strategy="Trust the quiet ones.", role_notes="Liars talk first."))
    assert "Trust the quiet ones." in learned.role_card() and "Liars talk first." in learned.role_card()
    plain = table_of(state, request).role_card()
    assert "Liars talk first." not in plain and "Strategy" not in plain


@pytest.mark.parametrize("players", range(5, 11))
def test_the_reveal_in_words_per_player_count(players):
    state = game(players, hitler=1)
    fascists = [p for p in range(2, players + 1) if state.roles[p - 1].value == "fascist"]
    request = RULES.pending(state)[0]
    for p in range(1, players + 1):
        view = RULES.view(state, p)
        table = game_table(view, request, CONTEXT, CGA)
        words, card, rules = table.knowledge_text(), table.role_card(), table.rules_text()
        role = view.role
        if role == "liberal":
            assert words == "" and "Liberal" in card
        elif role == "fascist":
            assert "Player 1 is Hitler." in words
            assert all(f"Player {q}" in words for q in fascists if q != p)
            assert f"Player {p} " not in words
        else:
            if players <= 6:
                assert words == f"Player {fascists[0]} is a Fascist, your teammate."
                assert "You know who the Fascist is." in card
            else:
                assert "you do not know who they are" in words and not re.search(r"Player \d", words)
                assert "You do not know who the Fascists are" in card
        assert ("Hitler knows who the Fascist is." in rules) == (players <= 6)
        assert f"{players - len(fascists) - 1} players are Liberals" in rules


@pytest.mark.parametrize("players", (5, 7, 10))
def test_no_table_text_holds_another_players_secret(players):
    requests, _ = played(players, seed=players)
    for state, request in requests[:: max(1, len(requests) // 25)]:
        planted = [{"type": "utterance", "to": [p], "speaker": p, "phase": state.phase.value, "round": state.round,
                    "text": f"My secret is SENTINEL[{p}]."} for p in state.players]
        spied = RULES.restore(RULES.snapshot(state), list(state.events) + planted)
        for p in state.players:
            table = table_of(spied, request.model_copy(update={"player": p}))
            joined = "\n".join(texts(table))
            assert {int(m) for m in SENTINEL.findall(joined)} == {p}
            role = state.roles[p - 1].value
            if role == "liberal" or (role == "hitler" and players > 6):
                # nobody's role, a hand the player does not hold, or another's investigation result
                assert not re.search(r"Player \d+ is (Hitler|a Fascist|Fascists)", joined), joined
            others = [q for q in state.players if q != p]
            for e in state.events:
                if e["type"] == "investigation" and e["player"] in others:
                    assert f"Player {e['target']}'s party membership: " not in joined
            if state.holder() not in (p, None) and request.kind in ("discard", "enact"):
                assert not table.status()["hand"]


def test_every_template_line_of_the_table_says_where_it_comes_from():
    names = [name for name in registry.names() if name.startswith(f"{GAME}/")]
    assert {f"{GAME}/{piece}" for piece in ("rules", "role", "knowledge", "instruction", "speech", "decided",
                                             "narration")} <= set(names)
    for name in names:
        assert not unannotated(registry.text(name)), (name, unannotated(registry.text(name)))


def test_the_table_refuses_another_games_view():
    from roundtable.games import avalon

    state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=1)
    _, request = FOUND["vote"]
    with pytest.raises(TypeError):
        table_maker(GAME)(avalon.view(state, 1), request, CONTEXT, TableSettings())  # type: ignore[misc]


def test_the_belief_probe_asks_every_liberal_before_the_roles_are_shown():
    for players, seed in ((5, 1), (8, 2)):
        _, over = played(players, seed)
        probed = RULES.belief_probe(over)
        assert sorted(probed) == [p for p in over.players if over.roles[p - 1].value == "liberal"]
        for view in probed.values():
            assert not any(e["type"] == "game_over" for e in view.events)
            assert view.phase == "game_over"
    assert RULES.belief_probe(game(5)) == {}
