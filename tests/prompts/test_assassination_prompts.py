"""The Assassin's and Merlin's role cards and the Assassin's instruction say when the shot may be taken, by the
game's ``assassination`` rule (docs/games/avalon.md#assassination): the end-game shot alone under ``end_only``
(the official text, unchanged), and the mid-game shot whose miss exposes the Assassin under ``after_each_quest``."""

from __future__ import annotations

import pytest

from roundtable.agents.lga.context import LgaContext
from roundtable.games import avalon
from roundtable.games.protocol import Request
from roundtable.tables.avalon import AvalonTable

ASSASSIN = ("You are the Assassin, on the evil side. If good completes three quests, you name the player you think is "
            "Merlin; a hit wins the game for evil.")
MID_GAME = (" You may instead take this one shot at the end of any earlier quest: a hit wins for evil at once; a miss "
            "shows everyone that you are the Assassin, the game goes on, and there is no shot at the end.")
MERLIN_END = "Goal: three successful quests, then survive the assassination: if the Assassin names you, evil wins."
MERLIN_ANY = ("Goal: three successful quests, and survive the assassination: the Assassin may name you at the end of "
              "any quest, and if he does, evil wins.")
EXPOSES = "If you name a player who is not Merlin, everyone learns that you are the Assassin and the game goes on."


def table(rules: list[str], role: avalon.Role, may_pass: bool = False) -> AvalonTable:
    state = avalon.new_game(avalon.AvalonConfig.build("lan6", rules=rules), seed=1)
    player = state.players_with(role)[0]
    request = Request(id="a", kind="assassinate", phase="assassination", answer="pick", count=1,
                      candidates=(1, 2, 3), may_pass=may_pass, player=player, round=1, attempt=1)
    return AvalonTable(view=avalon.view(state, player), request=request, context=LgaContext())


@pytest.mark.parametrize("rules", [[], ["assassination=end_only"]])
def test_under_end_only_the_cards_and_instruction_name_the_end_game_shot_alone(rules):
    card = table(rules, avalon.Role.ASSASSIN).role_card()
    assert card.splitlines()[0] == ASSASSIN
    assert MERLIN_END in table(rules, avalon.Role.MERLIN).role_card().splitlines()
    instruction = table(rules, avalon.Role.ASSASSIN).instruction()
    assert "pass" not in instruction and EXPOSES not in instruction


def test_under_after_each_quest_they_name_the_mid_game_shot_and_what_a_miss_does():
    rules = ["assassination=after_each_quest"]
    assert table(rules, avalon.Role.ASSASSIN).role_card().splitlines()[0] == ASSASSIN + MID_GAME
    assert MERLIN_ANY in table(rules, avalon.Role.MERLIN).role_card().splitlines()
    offer = table(rules, avalon.Role.ASSASSIN, may_pass=True).instruction()
    assert "You may also pass (0) and keep your one shot for later." in offer and EXPOSES in offer
    # the shot kept to the third success is the end-game shot: no pass, nothing exposed
    final = table(rules, avalon.Role.ASSASSIN).instruction()
    assert "pass" not in final and EXPOSES not in final


def test_a_card_rendered_without_the_rules_is_the_official_one():
    # the experiments' learning step renders role cards with no rules
    context = LgaContext()
    card = context.render("avalon/roles/assassin", title="Assassin", player=6, role_set=["assassin"], strategy="")
    assert card.splitlines()[0] == ASSASSIN
    merlin = context.render("avalon/roles/merlin", title="Merlin", player=1, role_set=["merlin"], strategy="")
    assert MERLIN_END in merlin.splitlines()
