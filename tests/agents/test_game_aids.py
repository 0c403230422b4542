"""Each game's part of the aids is found through the ``roundtable.aids`` entry points (`roundtable.aids.games`,
docs/agents/aids.md#each-games-aids): Avalon's and Werewolf's are declared and answer for their own views only, and
a game that declares none gets `NO_AIDS`, whose hooks do nothing, through the same interface the kinds call."""

from __future__ import annotations

from roundtable.aids import avalon as avalon_aids
from roundtable.aids import werewolf as werewolf_aids
from roundtable.aids.games import NO_AIDS, declared_aids, game_aids
from roundtable.aids.interface import knowledge_note, record_checks, table_settled
from roundtable.aids.review import exposure_of
from roundtable.games import avalon, werewolf
from roundtable.games.protocol import Request
from roundtable.prompts.rendering import TemplateContext
from roundtable.tables.protocol import game_table


def test_avalon_and_werewolf_declare_their_aids_and_an_undeclared_game_gets_none():
    declared = declared_aids()
    assert declared["avalon"] is avalon_aids.AIDS and declared["werewolf"] is werewolf_aids.AIDS
    assert game_aids("no_such_game") is NO_AIDS


def test_each_games_aids_answer_for_their_own_views_only():
    avalon_view = avalon.view(avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=1), 1)
    werewolf_view = werewolf.view(werewolf.new_game(werewolf.WerewolfConfig.build(), seed=1), 1)
    said = "We werewolves will kill Player 1 tonight. I am Merlin."
    assert avalon_aids.exposure(werewolf_view, said) is None and werewolf_aids.exposure(avalon_view, said) is None
    assert avalon_aids.leader(werewolf_view) is None and avalon_aids.leader(avalon_view) == avalon_view.leader


def test_a_game_without_aids_gets_nothing_from_the_interface(monkeypatch):
    state = avalon.new_game(avalon.AvalonConfig.build("lan6"), seed=1)
    request = Request(id="a", kind="vote_team", phase="vote_team", answer="yes_no", options=("approve", "reject"),
                      subject=(1, 2), player=1, round=1, attempt=5)
    view = avalon.view(state, 1)
    table = game_table(view, request, TemplateContext())
    assert table_settled(table) is not None, "Avalon's fifth team is settled by the rules"
    monkeypatch.setattr("roundtable.aids.games.declared_aids", lambda: {})
    assert table_settled(table) is None
    assert knowledge_note(TemplateContext(), view, request, {}) == ""
    assert record_checks(view, {"3": True}, [{"type": "seer_result", "by": 1, "target": 4, "werewolf": True}]) \
        == {"3": True}
    assert exposure_of(view, "I am Merlin, and Player 5 is evil.") is None
