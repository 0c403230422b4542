"""Reading actions from replies: bounded schemas, prose parsing, the extractor."""

from __future__ import annotations

import pytest
from lga_fakes import Script, ScriptedChatModel
from pydantic import ValidationError

from roundtable.games.avalon import Request
from roundtable.tools.extraction import (
    action_from_answer,
    action_from_text,
    answer_schema,
    extract,
    parse_players,
    parse_truth,
    read_labelled,
)

PROPOSE = Request(id="r1.a1.propose_team.first.p2", kind="propose_team", player=2, round=1, attempt=1,
                  phase="proposal", team_size=2, candidates=(1, 2, 3, 4, 5, 6), wants_words=True)
SHOT = Request(id="r3.assassinate.p6", kind="assassinate", player=6, round=3, attempt=1, phase="assassination",
               candidates=(1, 2, 3, 4), may_pass=True)


def test_answer_schema_is_bounded():
    schema = answer_schema(PROPOSE, players=6, words=50)
    spec = schema.model_json_schema()
    assert spec["properties"]["team"]["minItems"] == spec["properties"]["team"]["maxItems"] == 2
    assert spec["properties"]["team"]["items"]["maximum"] == 6
    assert spec["properties"]["words"]["maxLength"] <= 400
    assert list(spec["properties"]) == ["team", "words"]  # action first
    with pytest.raises(ValidationError):
        schema.model_validate({"team": [1, 7], "words": "x"})
    shot = answer_schema(SHOT, players=6, words=None).model_json_schema()
    assert sorted(shot["properties"]["target"]["enum"]) == [0, 1, 2, 3, 4] and "words" not in shot["properties"]
    with pytest.raises(ValidationError):  # player 5 is not a candidate (e.g. the Assassin's teammate)
        answer_schema(SHOT, players=6, words=None).model_validate({"target": 5})


def test_action_from_answer():
    assert action_from_answer(PROPOSE, {"team": [1, 3], "words": "x"}) == {"team": [1, 3]}
    assert action_from_answer(SHOT, {"target": 0}) == {"target": None, "passed": True}
    assert action_from_answer(SHOT, {"target": 3}) == {"target": 3}
    assert action_from_answer(PROPOSE, None) == {}


def test_prose_parsers():
    assert parse_players("Players 2 and 5") == [2, 5]
    assert parse_players("[1,3]") == [1, 3]
    assert parse_players("none") is None
    assert parse_truth("true") is True and parse_truth("Reject.") is False and parse_truth("none") is None
    assert action_from_text(SHOT, "pass") == {"target": None, "passed": True}
    assert read_labelled("Choice: 1, 4\nWords: Go team.\nReally.") == ("1, 4", "Go team.\nReally.")
    assert read_labelled("Just words here.") == (None, "Just words here.")


@pytest.mark.parametrize("structured", [True, False])
def test_extractor_call(structured):
    script = Script(replies={"extract": '{"players": [2, 5]}' if structured else "2, 5"})
    model = ScriptedChatModel(script=script, temperature=0.0, max_tokens=48)
    action, raw, usage = extract(model, PROPOSE, 6, "I'd go with 2 and 5", "prompt", structured=structured)
    assert action == {"team": [2, 5]} and usage["calls"] == 1 and usage["module"] == "extract"
    assert (script.calls[0].schema is not None) == structured
