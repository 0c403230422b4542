"""Secret Hitler's judge (`roundtable_secret_hitler.judge`), reached through the ``roundtable.judges`` entry
point: roundtable's judge graph run with a scripted chat model on the record of a game played with the plugin's
rules, in which a Fascist Chancellor lies about the two policies its Liberal President passed it; the questions
it asks, the tables, and the claims set against the record's hands."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import F, L, answer, game, votes
from sh_records import bot_moves, record_of, store

from roundtable.judge.context import JudgeContext
from roundtable.judge.graph import judge_game
from roundtable.judge.protocol import judges
from roundtable.judge.run import judge_summaries, judged_record
from roundtable.judge.transcript import transcript_of
from roundtable.testing.scripted import Call, Script, ScriptedModels
from roundtable_secret_hitler import judge
from roundtable_secret_hitler.deck import FULL_DECK

LIE = "Player 3 passed me two Fascist policies, I had no choice."
TRUTH = "I drew a Liberal and two Fascists and passed a Liberal and a Fascist to Player 2."
CAMOUFLAGE = "I am a Liberal, vote ja."
CARDS = {LIE: {"office": "chancellor", "drawn": "no_claim", "passed": "two_fascist"},
         TRUTH: {"office": "president", "drawn": "one_liberal", "passed": "one_each"}}
"""The judge's scripted readings of the two card claims."""


def lying_chancellor() -> dict:
    """Five players, Hitler 1, Fascist 2. Round 1: Liberal President 3 draws L F F, discards a Fascist policy and
    passes L and F to Chancellor 2, who enacts the Fascist one. Round 2's talk: 2 says it got two Fascist
    policies (a lie), 3 tells the truth; then the rule bots play the game out."""
    state = answer(game(5, talk=True, president=3, deck=(L, F, F) + tuple(sorted(FULL_DECK))), p3=2)
    for words in ("I trust Player 2 to govern with me.", "Player 2 seems fine to me.", "I doubt Player 2.",
                  CAMOUFLAGE, "I will govern well."):  # speakers 3, 4, 5, 1, 2
        state = answer(state, **{f"p{state.speakers[0]}": words})
    state = votes(state, {1, 2, 3, 4, 5})
    state = answer(state, p3=False)  # the President discards a Fascist policy
    state = answer(state, p2=False)  # the Chancellor enacts the Fascist one
    state = answer(state, p4=5)
    for words in ("I nominated Player 5.", "I will vote ja.", "Player 3 is suspicious.", LIE, TRUTH):
        state = answer(state, **{f"p{state.speakers[0]}": words})  # speakers 4, 5, 1, 2, 3
    return record_of(bot_moves(state), "g1")


def said(call: Call) -> str:
    """The words a question quotes."""
    return call.messages[-1].content.split('"')[1]


def fields(call: Call) -> list[str]:
    schema = call.schema if isinstance(call.schema, dict) else call.schema.model_json_schema()
    return list(schema["properties"])


SCRIPT = {"deception": lambda call: json.dumps(CARDS[said(call)]),
          "stance": lambda call: json.dumps(dict.fromkeys(fields(call), "distrust")),
          "camouflage": lambda call: json.dumps({"claim": "liberal" if said(call) == CAMOUFLAGE else "none"})}


@pytest.fixture
def judged(tmp_path: Path):
    record = store(tmp_path, lying_chancellor())
    script = Script(replies=dict(SCRIPT))
    out = judge_game("g1", "local", home=tmp_path, models=ScriptedModels(script))
    found = judged_record(tmp_path / "records", record, "local")
    assert found is not None
    return record, script, out, found


def test_the_entry_point_declares_the_judge_and_its_prompts_stand_apart():
    assert judges()["secret_hitler"] is judge.JUDGE
    fields_of = JudgeContext.TEMPLATE_FIELDS
    assert fields_of["secret_hitler/judge/cards"] == "cards_prompt"
    assert fields_of["secret_hitler/judge/party"] == "party_prompt"
    assert fields_of["judge/deception"] == "deception_prompt"  # Avalon's question keeps its own field


def test_the_deception_items_pick_the_claims_about_cards():
    record = lying_chancellor()
    items = judge.card_items(transcript_of(record, judge.JUDGE.round_field))
    assert [item.variables["text"] for item in items] == [LIE, TRUTH]
    assert all(item.fields == ("office", "drawn", "passed") for item in items)
    assert judge.talks_of_cards("I got two red cards")
    for words in ("I will vote ja on Player 4 and Player 3.", "We need Liberal policies.", "I passed on that."):
        assert not judge.talks_of_cards(words), words


def test_the_judge_runs_on_the_record_with_a_scripted_model(judged):
    record, script, out, found = judged
    assert out["game"] == "secret_hitler"
    assert out["judged"]["deception"] == {"items": 2, "asked": 2, "unusable": 0}
    assert out["judged"]["camouflage"]["items"] == len(found.transcript.utterances)
    assert out["judged"]["stance"]["unusable"] == 0 and out["judged"]["stance"]["items"] > 0
    assert script.modules()[:2] == ["deception", "deception"]
    prompts = [c.prompt for c in script.calls if c.module == "deception"]
    assert "Secret Hitler" in prompts[0] and "Hitler, fascist side" in prompts[0]
    assert all("liberal, fascist, fascist" not in p.lower() for p in prompts)  # no hand is shown, only the words
    assert out["summary"].startswith("card claims 2, President and Chancellor disagree in 1/1 rounds; stances ")
    assert "camouflage" in out["summary"] and "hitler 1/" in out["summary"]


def test_the_tables_of_the_judged_record(judged):
    record, _, _, found = judged
    rows = {(r.metric, r.group_by, r.group): (r.k, r.n) for r in judge.JUDGE.measures({"c": [found]})}
    spoke = {role: sum(1 for u in found.transcript.utterances if found.transcript.roles[u.speaker] == role)
             for role in ("liberal", "fascist", "hitler")}
    assert rows[("card_claims", "role", "fascist")] == (1, spoke["fascist"])
    assert rows[("card_claims", "role", "liberal")] == (1, spoke["liberal"])
    assert rows[("card_claims", "role", "hitler")] == (0, spoke["hitler"])
    assert rows[("card_conflicts", "all", "all")] == (1, 1)
    assert rows[("card_conflicts", "office_pair", "liberal>fascist")] == (1, 1)
    assert rows[("camouflage", "role", "hitler")] == (1, spoke["hitler"])
    assert rows[("camouflage", "role", "fascist")] == (0, spoke["fascist"])
    assert rows[("distrust", "role_pair", "hitler>liberal")][0] >= 1


def test_the_card_claims_set_against_the_record(judged):
    record, _, _, found = judged
    held = judge.sessions(record)
    assert held[1] == {"president": 3, "chancellor": 2, "drawn": [L, F, F], "passed": [L, F], "enacted": F}
    assert judge.card_lies(found, record) == [(2, 2, "chancellor", True), (2, 3, "president", False)]


def test_prose_replies_are_read_and_show_lists_the_judgement(tmp_path: Path):
    record = store(tmp_path, lying_chancellor())
    prose = {"deception": lambda call: "Reading the words: " + json.dumps(CARDS[said(call)]),
             "stance": lambda call: "\n".join(f"Player {p}: neither" for p in call.messages[-1].content.split(
                 "towards each of ")[1].split("?")[0].replace("Player ", "").split(", ")),
             "camouflage": lambda call: "Liberal." if said(call) == CAMOUFLAGE else "None."}
    spec = "http://127.0.0.1:9/v1#fake?json_schema=false"
    out = judge_game("g1", spec, home=tmp_path, models=ScriptedModels(Script(replies=prose), json=False))
    assert all(v["unusable"] == 0 for v in out["judged"].values()), out
    lines = judge_summaries(tmp_path / "records", record)
    assert len(lines) == 1 and "card claims 2, President and Chancellor disagree in 1/1 rounds" in lines[0]
