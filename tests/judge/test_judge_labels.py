"""The hand-labelled set of the judge's validity benchmark is well formed, and the benchmark scores a judge that
answers every label right at 100%."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from roundtable.judge.protocol import judges
from roundtable.judge.transcript import named_players
from roundtable.testing.scripted import Call, Script, ScriptedModels

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "benchmarks" / "judge_labels.jsonl"
FIELDS = {"game_id", "game", "index", "speaker", "role", "side", "round", "phase", "text", "dealt", "task", "label"}


def benchmark():
    spec = importlib.util.spec_from_file_location("judge_agreement", ROOT / "benchmarks" / "judge_agreement.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_labels_are_real_utterances_with_valid_labels() -> None:
    lines = [json.loads(line) for line in LABELS.read_text().splitlines()]
    assert len({(line["game_id"], line["index"]) for line in lines}) >= 60
    for line in lines:
        assert FIELDS <= set(line), line
        behaviour = judges()[line["game"]].behaviours[line["task"]]
        assert line["speaker"] <= len(line["dealt"]) and line["role"] in line["dealt"]
        if line["task"] == "stance":
            assert line["target"] in named_players(line["text"], len(line["dealt"]), line["speaker"]), line
            assert line["label"] in ("trust", "distrust", "neither")
        else:
            [item] = behaviour.items(benchmark().transcript_of_line(line))
            assert line["label"] in item.choices, line
            assert line["task"] != "deception" or line["round"] == 1


def test_a_judge_that_answers_as_the_labels_agrees_fully() -> None:
    module = benchmark()
    lines = module.read_labels(LABELS)

    def answer(call: Call) -> str:
        mine = [line for line in lines if f'"{line["text"]}"' in call.prompt and line["task"] == call.module]
        fields = call.schema["properties"]
        if call.module != "stance":
            return json.dumps({"claim": mine[0]["label"]})
        labelled = {f"player_{line['target']}": line["label"] for line in mine}
        return json.dumps({f: labelled.get(f, "neither") for f in fields})

    script = Script(replies={"stance": answer, "deception": answer, "camouflage": answer})
    result = module.judge_labels(lines, "local", ScriptedModels(script))
    assert result["labels"] == len(lines)
    assert result["calls"] == len({(line["task"], line["game_id"], line["index"]) for line in lines})
    for task, row in result["tasks"].items():
        assert row["accuracy"] == 1.0, (task, row)
        assert row["kappa"] in (1.0, None)
    assert {c.temperature for c in script.calls} == {0.0}
