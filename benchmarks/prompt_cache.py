"""How much of each prompt a per-slot prompt cache would serve: full `lga` games on scripted replies, no model.

Plays ``lan6`` games (official rules) with six ``lga`` agents through the real
game graph, the model replaced by the scripted chat models of the agent tests
(``tests/agents/lga_fakes.py``; replies of realistic length, votes drawn from a
seeded generator so rounds take several proposals), on an endpoint with ten
slots as the embedded model has. Every call's prompt (system then user text,
as the chat template lays them out) is compared with the previous prompt sent
to the same slot, as llama.cpp's slot cache does: the characters after their
common prefix are the *uncached* part the server would process. The result,
per agent module and per game, says what a prompt layout costs before any
model is run; a real game (``bench_lga_game.py``) then confirms it in tokens.

    python benchmarks/prompt_cache.py                       # seeds 1-3
    python benchmarks/prompt_cache.py --seeds 1-10 --agent-option prompt_layout=shared

Characters, not tokens: the embedded model's tokenizer makes about 4
characters a token of this English text. Figures: docs/measurements.md#prompt-caches-and-slots.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' scripted models

from tests.agents.lga_fakes import FAKE_MODEL, Call, Script, ScriptedModels, default_structured  # noqa: E402

WORDS = ("team player trust quest vote suspect honest approve reject evil good leader merlin story careful "
         "record watch proposal success believe earlier reason support doubt clean").split()


def sentence(rng: random.Random, words: int) -> str:
    """Filler text of ``words`` words (at most 5 characters a word, as the answer schemas allow), different at every
    call (a real reply is new text too)."""
    text = " ".join(rng.choice(WORDS) for _ in range(words)).capitalize()
    return text[: words * 5].rstrip() + "."


def scripted_replies(rng: random.Random, approve: float) -> dict[str, Any]:
    """Replies per module: notes and words of the default word limits, votes approving with probability ``approve``."""
    import json

    def structured(call: Call) -> str:
        if call.schema is None:
            return sentence(rng, 30)
        answer = json.loads(default_structured(call.schema))
        for key in answer:
            if key in ("words", "reason", "summary"):
                answer[key] = sentence(rng, {"words": 28, "reason": 16, "summary": 38}[key])
            elif key in ("analysis", "plan"):
                answer[key] = sentence(rng, 28 if key == "analysis" else 18)
            elif key == "answer" and "approve" in json.dumps(call.schema):
                answer[key] = "approve" if rng.random() < approve else "reject"
        if "players" in answer:
            size = len(answer["players"])
            answer["players"] = rng.sample(range(1, 7), size)
        return json.dumps(answer)

    text = lambda call: sentence(rng, 30)  # noqa: E731
    return {"act": structured, "summarize": structured, "analyze": structured, "plan": structured,
            "respond": text, "extract": structured}


def common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b``."""
    return len(os.path.commonprefix([a, b]))


def simulate(calls: list[Call]) -> dict[str, dict[str, float]]:
    """Per module: calls, prompt characters and uncached characters under per-slot caches (slot None: one cache)."""
    last: dict[Any, str] = {}
    out: dict[str, dict[str, float]] = defaultdict(lambda: {"calls": 0, "prompt": 0, "uncached": 0})
    for call in calls:
        prompt = "\n".join(str(m.content) for m in call.messages)
        cached = common_prefix(prompt, last.get(call.slot, ""))
        last[call.slot] = prompt
        for key in (call.module, "game"):
            row = out[key]
            row["calls"] += 1
            row["prompt"] += len(prompt)
            row["uncached"] += len(prompt) - cached
    return dict(out)


def play(seed: int, options: list[str], approve: float) -> dict[str, dict[str, float]]:
    """One scripted game; the cache simulation of its calls."""
    from roundtable.games import GAMES
    from roundtable.games.avalon import AvalonConfig
    from roundtable.graphs.avalon import build_avalon_graph
    from roundtable.play.seating import resolve_seats

    script = Script(scripted_replies(random.Random(seed), approve))
    graph = build_avalon_graph(models=ScriptedModels(script, json=True, server_slots=10)).compile()
    config = AvalonConfig.build(preset="lan6").to_dict()
    seats = resolve_seats(GAMES["avalon"], config, seed, "lga", FAKE_MODEL, options)
    graph.invoke({"config": config, "seed": seed, "seats": seats}, {"recursion_limit": 10_000})
    return simulate(script.calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1-3", help="a range of deal seeds, e.g. 1-10")
    parser.add_argument("--agent-option", action="append", default=[], help="[TARGET:]KEY=VALUE, as the CLI's")
    parser.add_argument("--approve", type=float, default=0.6, help="share of scripted votes that approve")
    args = parser.parse_args()
    os.environ.setdefault("ROUNDTABLE_HOME", str(Path(os.environ.get("TMPDIR", "/tmp")) / "rt-prompt-cache"))
    first, _, last = args.seeds.partition("-")
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"calls": 0, "prompt": 0, "uncached": 0})
    print("| seed | calls | prompt chars per call | uncached chars per call | uncached share |\n|---|---|---|---|---|")
    for seed in range(int(first), int(last or first) + 1):
        result = play(seed, args.agent_option, args.approve)
        game = result["game"]
        print(f"| {seed} | {game['calls']:.0f} | {game['prompt'] / game['calls']:.0f} | "
              f"{game['uncached'] / game['calls']:.0f} | {game['uncached'] / game['prompt']:.2f} |")
        for module, row in result.items():
            for key in row:
                totals[module][key] += row[key]
    print("\n| module | calls | prompt chars per call | uncached chars per call | uncached share |\n"
          "|---|---|---|---|---|")
    for module, row in sorted(totals.items()):
        print(f"| {module} | {row['calls']:.0f} | {row['prompt'] / row['calls']:.0f} | "
              f"{row['uncached'] / row['calls']:.0f} | {row['uncached'] / row['prompt']:.2f} |")


if __name__ == "__main__":
    main()
