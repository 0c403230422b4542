"""Reading answers from replies, per answer shape: bounded schemas, prose parsing, the extractor."""

from __future__ import annotations

import pytest
from lga_fakes import Script, ScriptedChatModel
from pydantic import ValidationError

from roundtable.agents.common.extraction import (
    CHARS_PER_WORD,
    REASON_CHARS,
    answer_from_schema,
    answer_from_text,
    answer_schema,
    bounded_words,
    extract,
    parse_choice,
    parse_players,
    read_labelled,
)
from roundtable.games.protocol import Request
from roundtable.prompts import registry

PROPOSE = Request(id="r1.a1.propose_team.first.p2", kind="propose_team", player=2, round=1, phase="proposal",
                  answer="pick", count=2, candidates=(1, 2, 3, 4, 5, 6), wants_words=True)
SHOT = Request(id="r3.assassinate.p6", kind="assassinate", player=6, round=3, phase="assassination",
               answer="pick", count=1, candidates=(1, 2, 3, 4), may_pass=True)
VOTE = Request(id="r1.a1.vote_team.p2", kind="vote_team", player=2, round=1, phase="vote_team", answer="yes_no",
               options=("approve", "reject"), unclear=True, subject=(1, 2))
GOOD_CARD = Request(id="r1.quest_card.p2", kind="quest_card", player=2, round=1, phase="quest", answer="yes_no",
                    options=("success", "fail"), allowed=(True,), unclear=True)


def test_answer_schema_is_bounded_per_shape():
    schema = answer_schema(PROPOSE, players=6, words=50)
    spec = schema.model_json_schema()
    assert spec["properties"]["players"]["minItems"] == spec["properties"]["players"]["maxItems"] == 2
    assert spec["properties"]["players"]["items"]["maximum"] == 6
    assert spec["properties"]["words"]["maxLength"] <= 400
    assert list(spec["properties"]) == ["players", "words"]  # the answer first
    with pytest.raises(ValidationError):
        schema.model_validate({"players": [1, 7], "words": "x"})
    shot = answer_schema(SHOT, players=6, words=None).model_json_schema()
    assert sorted(shot["properties"]["player"]["enum"]) == [0, 1, 2, 3, 4] and "words" not in shot["properties"]
    with pytest.raises(ValidationError):  # player 5 is not a candidate (e.g. the Assassin's teammate)
        answer_schema(SHOT, players=6, words=None).model_validate({"player": 5})
    vote = answer_schema(VOTE, players=6, words=None, reason=True).model_json_schema()
    assert list(vote["properties"]) == ["reason", "answer"]
    assert vote["properties"]["answer"]["enum"] == ["approve", "reject"]
    leader = answer_schema(PROPOSE, players=6, words=50, reason=True).model_json_schema()
    assert list(leader["properties"]) == ["reason", "players", "words"]  # the reason, then the team it argues for
    assert leader["properties"]["reason"]["maxLength"] == REASON_CHARS
    card = answer_schema(GOOD_CARD, players=6, words=None).model_json_schema()
    assert card["properties"]["answer"].get("enum", [card["properties"]["answer"].get("const")]) == ["success"]


def test_schema_descriptions_come_from_the_caller():
    spec = answer_schema(PROPOSE, 6, 10, describe=lambda field, **facts: f"DESC {field} {facts['count']}")
    assert spec.model_json_schema()["properties"]["players"]["description"] == "DESC players 2"


def test_answer_from_schema():
    assert answer_from_schema(PROPOSE, {"players": [1, 3], "words": "x"}) == {"players": [1, 3]}
    assert answer_from_schema(SHOT, {"player": 0}) == {"passed": True}
    assert answer_from_schema(SHOT, {"player": 3}) == {"players": [3]}
    assert answer_from_schema(VOTE, {"reason": "ok", "answer": "reject"}) == {"choice": False}
    assert answer_from_schema(PROPOSE, None) == {}


def test_prose_parsers():
    assert parse_players("Players 2 and 5") == [2, 5]
    assert parse_players("[1,3]") == [1, 3]
    assert parse_players("none") is None
    options = ("approve", "reject")
    assert parse_choice("true", options) is True and parse_choice("Reject.", options) is False
    assert parse_choice("I approve.", options) is True and parse_choice("none", options) is None
    assert parse_choice("fail", ("success", "fail")) is False
    assert answer_from_text(SHOT, "pass") == {"passed": True}
    assert answer_from_text(SHOT, "Player 3") == {"players": [3]}
    assert answer_from_text(VOTE, "approved") == {"choice": True}
    assert read_labelled("Choice: 1, 4\nWords: Go team.\nReally.") == ("1, 4", "Go team.\nReally.")
    assert read_labelled("Just words here.") == (None, "Just words here.")


@pytest.mark.parametrize("structured", [True, False])
def test_extractor_call(structured):
    script = Script(replies={"extract": '{"players": [2, 5]}' if structured else "2, 5"})
    model = ScriptedChatModel(script=script, temperature=0.0, max_tokens=48)
    action, raw, usage = extract(model, PROPOSE, 6, "prompt", system=registry.render("extraction/system"),
                                 structured=structured)
    assert action == {"players": [2, 5]} and usage["calls"] == 1 and usage["module"] == "extract"
    assert (script.calls[0].schema is not None) == structured


@pytest.mark.parametrize("structured", [True, False])
def test_extractor_reads_the_games_two_words(structured):
    script = Script(replies={"extract": '{"answer": "reject"}' if structured else "reject"})
    model = ScriptedChatModel(script=script, temperature=0.0, max_tokens=48)
    action, _, _ = extract(model, VOTE, 6, "prompt", system=registry.render("extraction/system"), structured=structured)
    assert action == {"choice": False}


CUT = ("I think Player 3 might be Merlin and not support the team. I will also consider the other hints and "
       "choose the team that aligns with the strategy and avoids revealing Merlin. Based on the vo")
"""A cga seat's words on lan6, cut by their bound (32 words, 192 characters) mid-word."""


def test_words_cut_by_their_bound_mid_sentence_keep_their_whole_sentences() -> None:
    words = len(CUT) // CHARS_PER_WORD + 1
    assert bounded_words(CUT, words) == CUT[:CUT.index(" Based on")]
    unfinished = "I think Player 3 might be Merlin because of what he said when the first quest failed and th"
    assert bounded_words(unfinished, len(unfinished) // CHARS_PER_WORD + 1) == unfinished + "..."


def test_words_that_end_a_sentence_or_stop_short_of_their_bound_are_left_as_they_are() -> None:
    assert bounded_words(CUT, 60) == CUT  # far from its bound: the model ended it so
    finished = CUT[:CUT.index(" Based on")]
    assert bounded_words(finished, len(finished) // CHARS_PER_WORD + 1) == finished
    assert bounded_words(None, 20) is None and bounded_words("", 20) == ""
