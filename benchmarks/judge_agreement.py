"""How well a judge model agrees with hand labels (docs/judge.md#validity): accuracy and Cohen's kappa.

The labels (`benchmarks/judge_labels.jsonl`, one JSON object a line) are utterances from real games, each read
and labelled by hand:

- ``task: stance``: the speaker's stance towards ``target``, a player its words name (``trust``, ``distrust``,
  ``neither``);
- ``task: deception`` (Avalon, round 1) or ``camouflage`` (Werewolf): the role or side the speaker claims for
  itself (a role, a side, or ``none``).

Each line also holds the game (``game``, ``game_id``), the utterance (``index`` in the record's log, ``speaker``,
``round``, ``phase``, ``text``), the roles dealt (``dealt``) and the speaker's own ``role`` and ``side``. The
judge is asked exactly what ``roundtable judge`` asks (same items, same prompts, temperature 0, schema-constrained
where the endpoint allows): one question per utterance, the stances of all the players it names at once. For the
claims the self-disclosure / camouflage / withholding category is compared too (``claim_category``).

    python benchmarks/judge_agreement.py --model local [--labels benchmarks/judge_labels.jsonl] [--out FILE]

Writes ``judge_agreement-<model>.json`` (or ``--out``): per task the labels, agreements, accuracy, Cohen's
kappa and the confusion counts, with the calls' seconds; prints the table.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from roundtable.agents.common.model_calls import FactoryModels, ModelProvider
from roundtable.judge.answers import ask
from roundtable.judge.context import JudgeContext
from roundtable.judge.measures import category
from roundtable.judge.protocol import judges
from roundtable.judge.run import MAX_TOKENS, question
from roundtable.judge.store import model_key, model_slug
from roundtable.judge.transcript import Transcript, Utterance

LABELS = Path(__file__).resolve().parent / "judge_labels.jsonl"
UNUSABLE = "(unusable)"
"""What a reply that could not be read counts as: never a label, so always a disagreement."""


def read_labels(path: Path) -> list[dict[str, Any]]:
    """The labelled lines of ``path``."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of ``(hand label, judge's answer)`` pairs: ``(p_o - p_e) / (1 - p_e)``, with ``p_o`` the share
    agreeing and ``p_e`` the agreement expected by chance from each side's own frequencies; ``None`` when
    ``p_e`` is 1 (one category only on both sides)."""
    n = len(pairs)
    if not n:
        return None
    observed = sum(a == b for a, b in pairs) / n
    left, right = Counter(a for a, _ in pairs), Counter(b for _, b in pairs)
    expected = sum(left[c] * right[c] for c in left) / (n * n)
    return None if expected == 1 else (observed - expected) / (1 - expected)


def transcript_of_line(line: dict[str, Any]) -> Transcript:
    """A one-utterance transcript of a labelled line (the roles dealt by seat order; the prompts never show the
    speaker's own role)."""
    dealt = list(line["dealt"])
    return Transcript(game_id=line["game_id"], game=line["game"], players=len(dealt),
                      roles={i: r for i, r in enumerate(dealt, start=1)}, sides={}, knowledge={},
                      utterances=[Utterance(index=line["index"], speaker=line["speaker"], round=line["round"],
                                            phase=line.get("phase", ""), text=line["text"])])


def judge_labels(labels: list[dict[str, Any]], model: str, models: ModelProvider) -> dict[str, Any]:
    """Ask the judge every labelled utterance once per task, and compare.

    Returns:
        ``{"model", "labels", "calls", "seconds", "tasks": {task: {"n", "agree", "accuracy", "kappa",
        "confusion": {"label -> answer": count}}}}`` for ``stance``, ``claim`` and ``claim_category``.
    """
    context = JudgeContext.model_validate({})
    chat = models.chat(model, context.temperature, MAX_TOKENS)
    structured = models.json_schema(model)
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = {}
    for line in labels:
        groups.setdefault((line["task"], line["game_id"], line["index"]), []).append(line)
    pairs: dict[str, list[tuple[str, str]]] = {"stance": [], "claim": [], "claim_category": []}
    calls, started = 0, time.perf_counter()
    for (task, _, _), lines in groups.items():
        judge = judges()[lines[0]["game"]]
        behaviour = judge.behaviours[task]
        transcript = transcript_of_line(lines[0])
        [item] = behaviour.items(transcript)
        answer, _, _ = ask(chat, question(judge, behaviour, transcript, item, context, structured), item, task,
                           structured)
        calls += 1
        for line in lines:
            if task == "stance":
                pairs["stance"].append((line["label"], (answer or {}).get(f"player_{line['target']}", UNUSABLE)))
                continue
            said = (answer or {}).get("claim", UNUSABLE)
            pairs["claim"].append((line["label"], said))
            pairs["claim_category"].append((category(line["label"], line["role"], line["side"]),
                                            UNUSABLE if said == UNUSABLE else category(said, line["role"],
                                                                                        line["side"])))
    tasks = {}
    for task, found in pairs.items():
        agree = sum(a == b for a, b in found)
        confusion = Counter(f"{a} -> {b}" for a, b in found)
        tasks[task] = {"n": len(found), "agree": agree, "accuracy": agree / len(found) if found else None,
                       "kappa": kappa(found), "confusion": dict(sorted(confusion.items()))}
    return {"model": model, "labels": len(labels), "calls": calls,
            "seconds": round(time.perf_counter() - started, 1), "tasks": tasks}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="local", help="the judge model's spec (default local)")
    parser.add_argument("--labels", type=Path, default=LABELS)
    parser.add_argument("--out", type=Path, default=None, help="default judge_agreement-<model>.json")
    args = parser.parse_args()
    result = judge_labels(read_labels(args.labels), args.model, FactoryModels())
    out = args.out or Path(f"judge_agreement-{model_slug(model_key(args.model))}.json")
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(f"judge {args.model}: {result['labels']} labels, {result['calls']} calls, {result['seconds']} s")
    print(f"{'task':<16}{'n':>5}{'agree':>7}{'accuracy':>10}{'kappa':>8}")
    for task, row in result["tasks"].items():
        kappa_text = "-" if row["kappa"] is None else f"{row['kappa']:.2f}"
        accuracy = "-" if row["accuracy"] is None else f"{100 * row['accuracy']:.1f}%"
        print(f"{task:<16}{row['n']:>5}{row['agree']:>7}{accuracy:>10}{kappa_text:>8}")
    print(f"written: {out}")


if __name__ == "__main__":
    main()
