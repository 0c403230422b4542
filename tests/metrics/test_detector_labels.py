"""The hand-labelled utterances that validate the play-quality detectors (``benchmarks/labels/``): their size,
coverage and schema, and ``benchmarks/detector_agreement.py``'s counting on a small hand-made sample."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from benchmark_scripts import load_script

from roundtable.judge.measures import category
from roundtable.metrics.intervals import wilson

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "benchmarks" / "labels"
agreement = load_script("detector_agreement")

LABEL_KEYS = {"copy", "copy_of", "self_exposure", "named_merlin_or_seer", "claims_role", "thought_aloud",
              "against_action"}
MIN_POSITIVES = {"copy": 25, "self_exposure": 25, "named_merlin_or_seer": 25, "thought_aloud": 15,
                 "against_action": 15}


@pytest.fixture(scope="module")
def items() -> list[dict]:
    return agreement.load(LABELS / "utterances.jsonl")


def model_kinds_in_records() -> set[tuple[str, str]]:
    """``(game, kind)`` of every model-driven seat (one with a model) of the kept game records."""
    kinds = set()
    for path in sorted((ROOT / "benchmarks" / "results").glob("*/records/*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        seats = record.get("seats") or []
        for seat in seats.values() if isinstance(seats, dict) else seats:
            if isinstance(seat, dict) and seat.get("model"):
                kinds.add((record["game"], seat["kind"]))
    return kinds


def test_the_set_is_large_and_holds_both_games_and_both_sources(items):
    assert len(items) >= 400
    assert {item["game"] for item in items} == {"avalon", "werewolf"}
    assert {item["source"] for item in items} == {"said", "raw"}
    assert len({item["id"] for item in items}) == len(items)


def test_every_model_driven_kind_of_the_records_is_labelled(items):
    recorded = model_kinds_in_records()
    assert recorded, "no kept game records with model-driven seats"
    labelled = {(item["game"], item["kind"]) for item in items}
    assert recorded <= labelled, f"kinds with records but no labels: {sorted(recorded - labelled)}"


def test_every_detector_has_a_real_positive_set(items):
    for key, least in MIN_POSITIVES.items():
        positives = sum(1 for item in items if item["labels"][key])
        negatives = sum(1 for item in items if item["labels"][key] in (False, []))
        assert positives >= least, f"{key}: {positives} positives"
        assert negatives >= positives, f"{key}: fewer negatives ({negatives}) than positives"


def test_each_utterance_has_what_its_labels_need(items):
    for item in items:
        where = item["id"]
        assert set(item["labels"]) == LABEL_KEYS, where
        labels = item["labels"]
        assert item["source"] in ("said", "raw") and item["kind"] and item["text"].strip(), where
        assert isinstance(item["public"], bool) and isinstance(item["speaker"], int), where
        assert all(isinstance(e[0], int) and isinstance(e[2], str) for e in item["earlier"]), where
        assert labels["copy"] == (labels["copy_of"] is not None), where
        if labels["copy_of"] is not None:
            assert labels["copy_of"] in {e[0] for e in item["earlier"]}, where
        named = labels["named_merlin_or_seer"]
        assert isinstance(named, list) and all(isinstance(p, int) and 1 <= p <= 10 for p in named), where
        assert (labels["thought_aloud"] is None) == (not item["thoughts"]), where
        assert (labels["against_action"] is None) == (item["action"] is None), where
        if not item["public"]:
            assert labels["self_exposure"] is False, where  # among teammates nothing is to hide
        if item["game"] == "avalon":
            assert isinstance(item["known_evil"], list) and "leader" in item, where
        else:
            assert isinstance(item["teammates"], list), where
        if item["action"] is not None:
            assert item["action"]["type"] in ("vote_team", "proposal", "eliminate", "kill"), where


def _item(**fields) -> dict:
    """A hand-made utterance with the fields the checks read; labels all negative unless given."""
    labels = {"copy": False, "copy_of": None, "self_exposure": False, "named_merlin_or_seer": [],
              "claims_role": False, "thought_aloud": None, "against_action": None} | fields.pop("labels", {})
    return {"id": fields.get("text", ""), "game": "avalon", "source": "said", "kind": "lga", "speaker": 2,
            "role": "servant", "side": "good", "public": True, "leader": 1, "known_evil": [], "earlier": [],
            "thoughts": [], "action": None, "labels": labels} | fields


def test_the_counts_precision_and_recall_of_a_hand_made_sample():
    said = "I support it because Player 3 is the leader and has a good reputation."
    earlier = [[10, 3, said]]
    other = "Player 4 worries me, and I would rather wait for the next quest."
    sample = [
        _item(text=said, earlier=earlier, labels={"copy": True, "copy_of": 10}),  # TP: the same words
        _item(text=said, earlier=earlier),  # FP: flagged, labelled no copy
        _item(text=other, earlier=earlier, labels={"copy": True, "copy_of": 10}),  # FN
        _item(text=other, earlier=earlier),  # TN
        _item(text=other, earlier=[], game="werewolf", role="villager", side="village", teammates=[5, 6]),  # TN
    ]
    [copy] = [c for c in agreement.CHECKS if c.name == "copy: copied_from"]
    rows = {row.scope: row for row in agreement.score(sample, [copy])}
    total = rows["all"]
    assert (total.tp, total.fp, total.fn, total.tn) == (1, 1, 1, 2)
    assert total.precision == 0.5 and total.recall == 0.5
    assert total.precision_ci == wilson(1, 2) and total.recall_ci == wilson(1, 2)
    assert (rows["avalon"].n, rows["werewolf"].n, rows["werewolf"].tn) == (4, 1, 1)


def test_a_check_counts_only_the_utterances_it_applies_to():
    sample = [_item(text=str(i), flag=flag, truth=truth, asked=asked)
              for i, (truth, flag, asked) in enumerate([(True, True, True)] * 3 + [(False, True, True)]
                                                        + [(True, False, True)] * 2 + [(False, False, True)] * 4
                                                        + [(True, True, False)])]
    check = agreement.Check("made up", lambda item: item["truth"], lambda item: item["asked"],
                            lambda item: item["flag"])
    [row] = agreement.score(sample, [check], by=None)
    assert (row.tp, row.fp, row.fn, row.tn, row.n, row.positives, row.flagged) == (3, 1, 2, 4, 10, 5, 4)
    assert row.precision == 0.75 and row.recall == 0.6
    nothing = agreement.score([], [check], by=None)[0]
    assert nothing.precision is None and nothing.recall is None
    assert "| made up | all | 10 | 5 | 4 | 3 | 1 | 2 | 4 | 0.75" in agreement.markdown([row])


def test_the_detectors_are_asked_as_the_measures_ask_them():
    vote = {"type": "vote_team", "team": [1, 2], "approve": True}
    assert agreement.detected_against(_item(text="I will vote against this team.", action=vote))
    assert not agreement.detected_against(_item(text="I support it.", action=vote))
    proposal = {"type": "proposal", "team": [1, 3]}
    assert agreement.detected_against(_item(text="I propose players 1 and 4.", action=proposal))
    kill = {"type": "kill", "target": None}
    assert agreement.detected_against(_item(game="werewolf", text="Let us kill Player 4 tonight.", action=kill))
    merlin = _item(role="merlin", known_evil=[3], text="Player 3 is evil.")
    assert agreement.detected_exposure(merlin)
    assert agreement.detected_named(_item(text="Merlin is the leader."))  # the leader, Player 1, named
    assert not agreement.detected_named(_item(game="werewolf", text="Merlin is the leader."))


def test_the_plain_measures():
    from roundtable.detectors import plain

    assert plain.plain_names("Merlin: players 2 and 5, not Player 9 said far later in this text", "merlin") == {2, 5}
    assert agreement.plain_copy is plain.plain_copy, "the benchmark scores the measures' own plain counts"
    assert plain.gram_share("a b c d e", "x a b c d") == 0.5
    assert plain.gram_share("I trust", "I trust") == 1.0 and plain.gram_share("I trust", "you") == 0.0
    assert agreement.plain_copy("one two three four five", ["zero one two three four"])
    assert agreement.plain_named("I think Player 3 might be Merlin.", "merlin")
    assert agreement.plain_named("Merlin is surely players 2 and 5", "merlin")
    assert not agreement.plain_named("Player 3 supports the team of the good side and Merlin.", "merlin")
    assert not agreement.plain_named("I am the Seer.", "seer")


def test_the_table_runs_on_the_labels(capsys):
    assert agreement.main(["--by", "source"]) == 0
    out = capsys.readouterr().out
    assert "| copy: copied_from | all |" in out and "| said |" in out and "| raw |" in out


def test_the_judge_examples_cover_what_the_judge_labels_lack():
    lines = [json.loads(line) for line in (LABELS / "judge_positives.jsonl").read_text(encoding="utf-8").splitlines()]
    base = json.loads((ROOT / "benchmarks" / "judge_labels.jsonl").read_text(encoding="utf-8").splitlines()[0])
    for line in lines:
        assert set(base) - {"target"} <= set(line), line
        assert set(line) - set(base) <= {"source", "fact"}, line
    claims = [line for line in lines if line["task"] in ("deception", "camouflage")]
    kinds = Counter(category(line["label"], line["role"], line["side"]) for line in claims)
    stances = Counter(line["label"] for line in lines if line["task"] == "stance" and line["game"] == "werewolf")
    shared = Counter(line["label"] for line in lines if line["task"] == "sharing")
    positives = {"camouflage": kinds["camouflage"], "claims": kinds["camouflage"] + kinds["self_disclosure"],
                 "werewolf trust": stances["trust"], "werewolf distrust": stances["distrust"],
                 "sharing": shared["disclosed"]}
    negatives = {"camouflage": kinds["withholding"], "claims": kinds["withholding"],
                 "werewolf trust": stances["distrust"] + stances["neither"],
                 "werewolf distrust": stances["trust"] + stances["neither"], "sharing": shared["not_disclosed"]}
    for behaviour, count in positives.items():
        assert count >= 20, f"{behaviour}: {count} positives"
        assert negatives[behaviour] >= 20, f"{behaviour}: {negatives[behaviour]} negatives"
    assert all(line["round"] == 1 for line in lines if line["task"] in ("deception", "sharing"))
    keys = Counter((line["task"], line["game_id"], line["index"], line.get("target")) for line in lines)
    assert max(keys.values()) == 1
