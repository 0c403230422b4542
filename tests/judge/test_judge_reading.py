"""What the judge reads: the players words name, and the answer in a reply (JSON or prose)."""

from __future__ import annotations

import pytest

from roundtable.judge.answers import Item, answer_schema, read_answer
from roundtable.judge.behaviours import DISCLOSED, STANCES
from roundtable.judge.transcript import named_players


@pytest.mark.parametrize("text, expected", [
    ("I propose players 2 and 5.", [2, 5]),
    ("Players 1, 3, and 4 look fine; P6 does not.", [1, 4, 6]),  # 3 is the speaker
    ("Player #2 and player 7 (there is no player 9).", [2, 7]),
    ("I, Player 3, trust player 1.", [1]),
    ("Step 2 of the plan: nobody named.", []),
    ("players 2/4 or player 5", [2, 4, 5]),
])
def test_named_players(text: str, expected: list[int]) -> None:
    assert named_players(text, players=7, speaker=3) == expected


STANCE = Item("u1", {}, ("player_2", "player_5"), STANCES)
CLAIM = Item("u1", {}, ("claim",), ("merlin", "servant", "good", "evil", "none"),
             {"Loyal Servant of Arthur": "servant"})


@pytest.mark.parametrize("item, reply, expected", [
    (STANCE, '{"player_2": "trust", "player_5": "Distrust"}', {"player_2": "trust", "player_5": "distrust"}),
    (STANCE, "Player 2: distrust\nPlayer 5: neither", {"player_2": "distrust", "player_5": "neither"}),
    (STANCE, "- 2: trust\n- 5: distrust", {"player_2": "trust", "player_5": "distrust"}),
    (STANCE, "Player 2: trust", None),  # one player unread: the whole answer is unusable
    (CLAIM, "Loyal Servant of Arthur", {"claim": "servant"}),
    (CLAIM, "None.", {"claim": "none"}),
    (CLAIM, "The speaker claims to be Merlin.", {"claim": "merlin"}),
    (CLAIM, "I cannot tell.", None),
    (Item("p1", {}, ("player_5",), DISCLOSED), "Player 5: not disclosed", {"player_5": "not_disclosed"}),
])
def test_read_answer(item: Item, reply: str, expected: dict | None) -> None:
    assert read_answer(reply, item) == expected


def test_the_answer_schema_allows_only_the_choices() -> None:
    schema = answer_schema(STANCE).model_json_schema()
    assert schema["required"] == ["player_2", "player_5"]
    assert schema["properties"]["player_2"]["enum"] == list(STANCES)


def test_a_games_facts_reach_the_transcript_and_its_digest_and_a_game_without_keeps_its_digest():
    """`GameJudge.facts`: what a game's questions and tables read of a record beyond its words (a plugin game's
    cards held) is in the transcript the judge graph carries, and a change to it is judged again; a game without
    facts has the digest its cached judgements were stored under."""
    from judge_records import avalon_record

    from roundtable.judge.transcript import transcript_of

    record = avalon_record()
    plain = transcript_of(record)
    assert plain.facts == {}
    held = transcript_of(record, facts=lambda r: {"quests": len(r["events"])})
    assert held.facts == {"quests": len(record["events"])} and held.digest != plain.digest
    assert transcript_of(record, facts=lambda r: {"quests": -1}).digest != held.digest
    assert type(plain).model_validate(held.model_dump()).facts == held.facts  # the judge graph's state round trip
