"""cga's Werewolf rules (template ``cga/werewolf/rules``) describe the night as the game's ``werewolf_night`` rule
plays it (docs/games/werewolf.md#werewolf_night): in turn under ``sequential``, at once under ``simultaneous``."""

from __future__ import annotations

import pytest

from roundtable.agents.cga.turn import CgaTurn
from roundtable.games import werewolf

SEQUENTIAL = "the werewolves vote one after another, in seat order"
HEARD = "after hearing the votes and words of the teammates who voted before it"
NO_CONSENSUS = ("the player named more often than any other choice dies, a pass counting as a choice; with no such "
                "player there is no consensus and nobody is killed")
AT_ONCE = "the werewolves each name a player to kill, or pass (the most named dies; a tie or all passes kills nobody)"


def rules_text(night: str | None) -> str:
    """The rules a cga werewolf reads on night 1 of an ``xu7`` game under ``werewolf_night=night`` (None: the
    preset's default)."""
    config = werewolf.WerewolfConfig.build(rules=[f"werewolf_night={night}"] if night else [])
    state = werewolf.new_game(config, seed=1)
    request = werewolf.pending(state)[0]
    turn = CgaTurn.of({"view": werewolf.view(state, request.player).model_dump(mode="json"),
                       "request": request.model_dump(mode="json"), "pool": {},
                       "seat": {"kind": "cga", "model": "fake", "options": {}}, "seed": 1}, None)
    return turn.rules_text()


@pytest.mark.parametrize("night", [None, "sequential"])
def test_the_sequential_night_is_described_in_turn_with_no_consensus_killing_nobody(night):
    text = rules_text(night)
    assert SEQUENTIAL in text and HEARD in text and NO_CONSENSUS in text
    assert AT_ONCE not in text


def test_the_simultaneous_night_is_described_at_once():
    text = rules_text("simultaneous")
    assert AT_ONCE in text
    assert SEQUENTIAL not in text and "consensus" not in text


def test_a_rules_dict_without_the_variant_reads_as_the_simultaneous_night():
    # a record written before werewolf_night existed, or one played all at once, holds no werewolf_night
    from roundtable.agents.cga.context import CgaContext

    text = CgaContext().render("cga/werewolf/rules", game="werewolf", players=7, me=1, rules={},
                               role_set=["werewolf", "werewolf", "villager", "villager", "seer", "witch", "guard"])
    assert AT_ONCE in text and SEQUENTIAL not in text
