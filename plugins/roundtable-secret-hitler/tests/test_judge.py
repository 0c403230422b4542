"""Secret Hitler's judge (`roundtable_secret_hitler.judge`), reached through the ``roundtable.judges`` entry
point: roundtable's judge graph run with a scripted chat model on the record of a game played with the plugin's
rules, in which a Fascist Chancellor lies about the two policies its Liberal President passed it; the questions
it asks, the tables, and the claims set against the record's hands, which the transcript carries as its facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import F, L
from sh_records import CAMOUFLAGE, CARDS, LIE, TRUTH, judge_replies, lying_chancellor, said, store

from roundtable.judge.context import JudgeContext
from roundtable.judge.graph import build_judge_graph, judge_game
from roundtable.judge.protocol import Judged, judges
from roundtable.judge.run import judge_summaries, judged_record
from roundtable.judge.transcript import Transcript, transcript_of
from roundtable.testing.scripted import Script, ScriptedModels
from roundtable_secret_hitler import judge

SCRIPT = judge_replies()


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
    assert out["summary"].startswith("card claims 2, 1/2 false to the cards held, President and Chancellor disagree "
                                     "in 1/1 rounds; stances ")
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
    # the Fascist Chancellor's one claim is false, the Liberal President's true; Hitler claimed no cards
    assert rows[("false_card_claims", "role", "fascist")] == (1, 1)
    assert rows[("false_card_claims", "role", "liberal")] == (0, 1)
    assert ("false_card_claims", "role", "hitler") not in rows
    assert rows[("false_card_claims", "side", "fascist")] == (1, 1)
    assert rows[("false_card_claims", "side", "liberal")] == (0, 1)
    false = next(r for r in judge.JUDGE.measures({"c": [found]})
                 if (r.metric, r.group_by, r.group) == ("false_card_claims", "role", "fascist"))
    assert false.value == 1.0 and false.low is not None and 0.0 < false.low < 1.0 and false.games == 1  # Wilson
    assert rows[("camouflage", "role", "hitler")] == (1, spoke["hitler"])
    assert rows[("camouflage", "role", "fascist")] == (0, spoke["fascist"])
    assert rows[("distrust", "role_pair", "hitler>liberal")][0] >= 1


def test_the_card_claims_set_against_the_record(judged):
    record, _, _, found = judged
    held = judge.sessions(record)
    assert held[1] == {"president": 3, "chancellor": 2, "drawn": [L, F, F], "passed": [L, F], "enacted": F}
    facts = found.transcript.facts
    assert facts == judge.facts(record) and json.loads(json.dumps(facts)) == facts  # JSON-ready
    assert facts["sessions"][0] == {"round": 1, **held[1]} and judge.held(found.transcript) == held
    assert judge.card_lies(found) == [(2, 2, "chancellor", True), (2, 3, "president", False)]


def test_the_false_claims_are_read_from_the_transcripts_facts(judged):
    _, _, _, found = judged

    def rows_of(facts: dict) -> dict:
        changed = Judged(found.transcript.model_copy(update={"facts": facts}), found.answers)
        return {(r.group_by, r.group): (r.k, r.n) for r in judge.JUDGE.measures({"c": [changed]})
                if r.metric == "false_card_claims"}

    sessions = found.transcript.facts["sessions"]
    assert rows_of({}) == {}  # no facts: no claim is set against cards
    two_fascist = [dict(sessions[0], passed=[F, F]), *sessions[1:]]  # had 3 passed two Fascists, 2 told the truth
    assert rows_of({"sessions": two_fascist}) == {("role", "fascist"): (0, 1), ("role", "liberal"): (1, 1),
                                                  ("side", "fascist"): (0, 1), ("side", "liberal"): (1, 1)}


def test_the_facts_are_in_the_transcript_the_graph_carries(tmp_path: Path):
    record = store(tmp_path, lying_chancellor())
    graph = build_judge_graph(ScriptedModels(Script(replies=dict(SCRIPT)))).compile()
    updates = list(graph.stream({"game_id": "g1", "model": "local", "home": str(tmp_path)},
                                context=JudgeContext.model_validate({}), stream_mode="updates"))
    carried = next(u["load"]["transcript"] for u in updates if "load" in u)
    assert carried["facts"] == judge.facts(record) and carried["facts"]["sessions"][0]["passed"] == [L, F]
    transcript = Transcript.model_validate(carried)
    assert transcript.digest == transcript_of(record, "round", judge.facts).digest
    assert transcript.digest != transcript_of(record, "round").digest  # the cards are part of what was judged


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
    assert len(lines) == 1 and "card claims 2, 1/2 false to the cards held, President and Chancellor" in lines[0]
