"""Each game's table (`roundtable.tables.protocol.GameTable`, docs/architecture.md#a-games-table): registered through
its rules record, built for a decision of every answer shape, and saying of the game what the ``cga`` kind reads of
it: rules, role card, knowledge, role title, narration, instruction and answer format, the round's name, whether a
request is secret, the refresh of per-round notes, the living players and the game's own question sets. A game
without a table has none, and asking for one is a `ConfigurationError`."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from roundtable.games import GAMES, avalon, werewolf
from roundtable.games.errors import ConfigurationError
from roundtable.games.protocol import Request
from roundtable.prompts.rendering import TemplateContext
from roundtable.tables.avalon import AvalonTable
from roundtable.tables.protocol import (
    GameTable,
    TableSettings,
    game_table,
    games_with_tables,
    has_table,
    table_maker,
)
from roundtable.tables.werewolf import WerewolfTable

CONTEXT = TemplateContext()
CGA = TableSettings(prompt=lambda piece: f"cga/{piece}")
"""cga's paper-mode templates for the pieces a game leaves to the kind (``cga/rules``, ``cga/role``, ...)."""
AIDED = TableSettings(aids=True, prompt=lambda piece: f"aids/cga/{piece}")
"""cga's templates with the aids on (``aids/cga/speech``: the paper's prompt says how to talk in its own words)."""


def first_requests(game: str, seed: int = 3, steps: int = 400):
    """``(state, request)`` for the first request of each answer shape in a randomly played game."""
    rules = GAMES[game]
    rng = random.Random(seed)
    state = rules.new_game(rules.config(rules.configurations()[0]), seed)
    found: dict[str, tuple[object, Request]] = {}
    for _ in range(steps):
        if rules.result(state) is not None:
            break
        pending = rules.pending(state)
        for r in pending:
            found.setdefault(r.answer, (state, r))
        if not pending:
            state = rules.apply(state, {})
            continue
        bot = rules.bot
        assert bot is not None
        state = rules.apply(state, {r.player: bot.decide(rules.view(state, r.player), r, rng.randrange(1000))
                                    for r in pending})
    return found


def test_avalon_and_werewolf_register_their_tables():
    assert {"avalon", "werewolf"} <= games_with_tables()
    assert has_table("avalon") and has_table("werewolf")
    assert table_maker("avalon") is not None and table_maker("werewolf") is not None


@pytest.mark.parametrize("game", sorted(games_with_tables()))
def test_every_table_says_what_a_kind_reads_for_every_answer_shape(game):
    shapes = first_requests(game)
    assert {"pick", "yes_no"} <= set(shapes)
    for state, request in shapes.values():
        view = GAMES[game].view(state, request.player)
        table = game_table(view, request, CONTEXT, CGA)
        assert isinstance(table, GameTable)
        assert table.view is view and table.request is request
        for text in (table.rules_text(), table.role_card(), table.instruction(), table.choice_help(json=False),
                     table.role_title, table.round_name, table.refresh_key):
            assert isinstance(text, str) and text.strip()
        assert isinstance(table.knowledge_text(), str)
        assert game_table(view, request, CONTEXT, AIDED).speech().strip()
        assert table.retry_note(0) == ""
        assert table.request_variables()["kind"] == request.kind
        assert all(table.narrate(e) is None or isinstance(table.narrate(e), str) for e in view.events)
        assert table.question_set is None or CONTEXT.has(CGA.prompt(table.question_set))
        assert table.game_title == GAMES[game].game_title and table.game_title.strip()
        assert len(table.probe_sides) == 2 and all(side.strip() for side in table.probe_sides)
        assert isinstance(table.probe_roles, str)


def test_a_learned_strategy_and_role_notes_reach_every_games_role_card():
    for game in sorted(games_with_tables()):
        state, request = next(iter(first_requests(game).values()))
        view = GAMES[game].view(state, request.player)
        learned = TableSettings(strategy="Trust the quiet ones.", role_notes="Liars talk first.",
                                prompt=CGA.prompt)
        card = game_table(view, request, CONTEXT, learned).role_card()
        assert "Liars talk first." in card
        assert "Liars talk first." not in game_table(view, request, CONTEXT, CGA).role_card()


def avalon_table_at(kind: str = "vote_team") -> AvalonTable:
    state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=1)
    request = Request(id="a", kind=kind, phase="vote_team", answer="yes_no", options=("approve", "reject"),
                      subject=(1, 2), player=6, round=2, attempt=1)
    table = game_table(avalon.view(state, 6), request, CONTEXT, TableSettings(response_words=30, aids=True))
    assert isinstance(table, AvalonTable)
    return table


def test_avalon_table_is_the_avalon_table_every_kind_reads():
    table = avalon_table_at()
    view = table.view
    assert (table.response_words, table.aids, table.knowledge_lines) == (30, True, True)
    assert table.role_title == avalon.Role(view.role).title == GAMES["avalon"].role_title(view.role)
    assert table.round_name == "quest" and not table.secret and table.alive() is None
    assert table.game_title == "Avalon" and table.probe_sides == ("good", "evil")
    cga = game_table(view, table.request, CONTEXT, CGA)
    assert cga.kind_text("think_tip") == "", "cga words Werewolf's tip only (cga/werewolf/think_tip)"
    assert table.probe_roles == "Merlin, Percival or a Loyal Servant of Arthur"
    assert table.refresh_key == str(view.round)
    assert table.question_set == "questions/avalon"
    assert table.decided({"choice": True}) and table.decided(None) == ""
    questions = CONTEXT.render("cga/questions/avalon", part="asked", role=view.role, day=True)
    assert [q for q in questions.splitlines() if q.strip()]


def test_avalon_table_refuses_another_games_view():
    state, request = werewolf_at("day_talk")
    with pytest.raises(TypeError):
        table_maker("avalon")(werewolf.view(state, request.player), request, CONTEXT, TableSettings())  # type: ignore[misc]


def werewolf_at(phase: str, day: int = 1) -> tuple[werewolf.WerewolfState, Request]:
    """The first request of ``phase`` on ``day`` or later in an ``xu7`` game of the naive bots (seed 1)."""
    state = werewolf.new_game(werewolf.WerewolfConfig.build(), seed=1)
    bot = GAMES["werewolf"].bot
    assert bot is not None
    while not state.is_over:
        requests = werewolf.pending(state)
        match = [r for r in requests if r.phase == phase]
        if state.day >= day and match:
            return state, match[0]
        state = werewolf.apply(state, {r.player: bot.decide(werewolf.view(state, r.player), r, 1) for r in requests})
    raise AssertionError(f"no {phase} request on day {day} or later")


def werewolf_table_at(phase: str, day: int = 1) -> WerewolfTable:
    state, request = werewolf_at(phase, day)
    table = game_table(werewolf.view(state, request.player), request, CONTEXT, CGA)
    assert isinstance(table, WerewolfTable)
    return table


def test_werewolf_nights_are_secret_and_named_night_and_share_the_days_notes():
    first_night = werewolf_table_at("werewolves")
    assert first_night.secret and first_night.round_name == "night"
    assert first_night.refresh_key == "night 1"
    day = werewolf_table_at("day_talk")
    assert not day.secret and day.round_name == "day" and day.refresh_key == f"day {day.view.round}"
    second_night = werewolf_table_at("werewolves", day=2)
    assert second_night.refresh_key == f"day {second_night.view.round - 1}"


def test_werewolf_table_leaves_rules_role_and_instruction_to_the_kind_and_keeps_its_own_facts():
    table = werewolf_table_at("day_talk")
    view = table.view
    # Xu et al.'s, cga's words for Werewolf's rules (cga/werewolf/rules: tables.protocol.kind_template)
    assert table.rules_text().startswith("You are playing a game called the Werewolf")
    assert table.rules_text() == CONTEXT.render("cga/werewolf/rules", game="werewolf", players=view.players,
                                                role_set=list(view.role_set), rules=dict(view.rules),
                                                me=view.player, role=view.role)
    assert table.role_card() == CONTEXT.render("cga/role", game="werewolf", role=view.role, side=view.side,
                                               players=view.players)
    assert table.kind_text("think_tip").startswith("Tip: you should kill/save")  # cga/werewolf/think_tip
    assert table.kind_text("no_such_piece") == ""
    assert table.role_title == GAMES["werewolf"].role_title(view.role)
    assert table.alive() == list(view.alive)
    assert table.decided({"players": [1]}) == ""
    assert table.question_set == "questions/werewolf"
    for part in ("asked", "role"):  # Xu et al.'s class "All" is asked of every role; the shared part is empty
        text = CONTEXT.render(CGA.prompt(table.question_set), part=part, role=view.role, day=not table.secret)
        assert [q for q in text.splitlines() if q.strip()]
    events = [e for e in view.events if e["type"] != "role"]
    assert events and all(table.narrate(e) is None or table.narrate(e) for e in events)


def test_a_game_without_a_table_has_none(monkeypatch):
    untabled = replace(GAMES["avalon"], name="untabled", table=None)
    monkeypatch.setitem(GAMES, "untabled", untabled)
    assert not has_table("untabled") and "untabled" not in games_with_tables()
    assert table_maker("untabled") is None
    state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=1)
    view = avalon.view(state, 1).model_copy(update={"game": "untabled"})
    request = Request(id="a", kind="speak", phase="discussion", answer="words", player=1, round=1)
    with pytest.raises(ConfigurationError, match="describes no table"):
        game_table(view, request, CONTEXT)


def test_a_table_path_that_does_not_import_is_a_configuration_error(monkeypatch):
    monkeypatch.setitem(GAMES, "broken", replace(GAMES["avalon"], name="broken", table="no.such.module:table"))
    with pytest.raises(ConfigurationError, match="cannot be loaded"):
        table_maker("broken")


def test_a_kind_without_its_own_werewolf_rules_gets_the_games_and_every_rule_variant_shows():
    """The game's rules (``werewolf/rules``, in our words) for a kind that does not word Werewolf's itself (lga,
    react, codeact), each of the game's facts its variants change stated, and not the kind's thin neutral rules; a
    kind with its own wording (cga's Xu et al. text) keeps it (the test above)."""
    plain = TableSettings(prompt=lambda piece: f"react/table/{piece}")
    table = replace(werewolf_table_at("day_talk"), settings=plain)
    text = table.rules_text()
    assert text.startswith(f"You are Player {table.view.player} in a game of Werewolf for 7 players")
    assert "2 Werewolves" in text and "Witch" in text and "voting in turn" in text and "every Villager" in text
    assert text != CONTEXT.render("react/table/rules", game="werewolf", title="Werewolf", players=7,
                                  role_set=list(table.view.role_set), rules=dict(table.view.rules),
                                  me=table.view.player, role=table.view.role)
    other = replace(table, view=table.view.model_copy(update={"rules": {
        "werewolf_win": "parity", "potions_per_night": "two", "max_days": 3, "werewolf_night": "simultaneous"}}))
    text = other.rules_text()
    assert "every Villager" not in text and "at most one of them a night" not in text
    assert "After 3 days" in text and "all at once" in text
