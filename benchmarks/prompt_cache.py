"""How much of each prompt a per-slot prompt cache would serve: full Avalon games on scripted replies, no model.

Plays ``lan6`` games (official rules) with six ``lga`` agents, or another kind
and setting (``--agents cot --setting avalonplay``), through the real game
graph, the model replaced by the scripted chat models of the agent tests
(``tests/agents/lga_fakes.py``; replies of realistic length, votes drawn from a
seeded generator so rounds take several proposals, a `codeact` leader's
program a working one), on an endpoint with ten slots as the embedded model
has. Every call's prompt (system then user text,
as the chat template lays them out) is compared with the previous prompt sent
to the same slot, as llama.cpp's slot cache does: the characters after their
common prefix are the *uncached* part the server would process. The result,
per agent module and per game, says what a prompt layout costs before any
model is run; a real game (``bench_lga_game.py``) then confirms it in tokens.

    python benchmarks/prompt_cache.py                       # seeds 1-3
    python benchmarks/prompt_cache.py --seeds 1-10 --agent-option prompt_layout=shared
    python benchmarks/prompt_cache.py --setting avalonplay --agents codeact --agent-option memory_step=1

Characters, not tokens: the embedded model's tokenizer makes about 4
characters a token of this English text. Figures: docs/measurements.md#prompt-caches-and-slots.
"""

from __future__ import annotations

import argparse
import os
import random
import re
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


PROGRAM = "```python\nsuspicion = {p: 0 for p in range(1, PLAYERS)}\nprint(sorted(suspicion)[:COUNT])\n```"
"""A `codeact` leader's program, ``PLAYERS`` and ``COUNT`` filled in from the write prompt."""


def program(call: Call) -> str:
    """A working program for a `codeact` write or debug call (its prompt says how many to choose of how many)."""
    count, players = re.search(r"choose (\d+) of players 1 to (\d+)", call.prompt).groups()  # type: ignore[union-attr]
    return PROGRAM.replace("PLAYERS", str(int(players) + 1)).replace("COUNT", count)


def scripted_replies(rng: random.Random, approve: float, players: int) -> dict[str, Any]:
    """Replies per module: notes, thoughts and words of the default word limits, votes approving with probability
    ``approve``, teams drawn from ``players`` seats."""
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
            elif key == "thought":
                answer[key] = sentence(rng, 45)
            elif key == "answer" and "approve" in json.dumps(call.schema):
                answer[key] = "approve" if rng.random() < approve else "reject"
        if "players" in answer:
            size = len(answer["players"])
            answer["players"] = rng.sample(range(1, players + 1), size)
        return json.dumps(answer)

    text = lambda call: sentence(rng, 30)  # noqa: E731
    return {"act": structured, "summarize": structured, "analyze": structured, "plan": structured,
            "respond": text, "extract": structured, "think": structured, "write": program, "debug": program}


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


def play(seed: int, options: list[str], approve: float, agents: str = "lga",
         setting: str | None = None) -> dict[str, dict[str, float]]:
    """One scripted game of ``agents`` (a seat spec, as ``--agents``) on ``setting`` (default: ``lan6`` with the
    official rules); the cache simulation of its calls."""
    from roundtable.games import GAMES
    from roundtable.games.avalon import AvalonConfig
    from roundtable.games.avalon import setting as avalon_setting
    from roundtable.graphs.avalon import build_avalon_graph
    from roundtable.play.seating import resolve_seats

    preset, rules = avalon_setting(setting) if setting else ("lan6", ())
    config = AvalonConfig.build(preset=preset, rules=rules).to_dict()
    script = Script(scripted_replies(random.Random(seed), approve, len(config["roles"])))
    graph = build_avalon_graph(models=ScriptedModels(script, json=True, server_slots=10)).compile()
    seats = resolve_seats(GAMES["avalon"], config, seed, agents, FAKE_MODEL, options)
    graph.invoke({"config": config, "seed": seed, "seats": seats}, {"recursion_limit": 10_000})
    return simulate(script.calls)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", default="1-3", help="a range of deal seeds, e.g. 1-10")
    parser.add_argument("--agent-option", action="append", default=[], help="[TARGET:]KEY=VALUE, as the CLI's")
    parser.add_argument("--approve", type=float, default=0.6, help="share of scripted votes that approve")
    parser.add_argument("--agents", default="lga", help="the seats, as the CLI's --agents (default: lga)")
    parser.add_argument("--setting", default=None, help="an Avalon setting, e.g. avalonplay (default: lan6)")
    args = parser.parse_args()
    os.environ.setdefault("ROUNDTABLE_HOME", str(Path(os.environ.get("TMPDIR", "/tmp")) / "rt-prompt-cache"))
    first, _, last = args.seeds.partition("-")
    totals: dict[str, dict[str, float]] = defaultdict(lambda: {"calls": 0, "prompt": 0, "uncached": 0})
    print("| seed | calls | prompt chars per call | uncached chars per call | uncached share |\n|---|---|---|---|---|")
    for seed in range(int(first), int(last or first) + 1):
        result = play(seed, args.agent_option, args.approve, args.agents, args.setting)
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
