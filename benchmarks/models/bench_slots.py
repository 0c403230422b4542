"""Per-player prompt caches and batched calls on the embedded llama.cpp server, measured with its own token counts.

Two measurements on one embedded server (default settings: ten slots sharing
one context; see `roundtable.models.local`), with synthetic prompts of a
game's shape: one system prompt of rules (~500 tokens) shared by the table, a
private part per player (~250 tokens), a public record that grows by one line
(~30 tokens) per step, and a short task.

1. **Prompt layouts.** ``--players`` players each call once per step, one after
   another, for ``--steps`` steps, in two layouts:
   - ``shared``: public record first, every call on slot 0 (one prompt cache,
     as a one-slot server or a hosted endpoint has);
   - ``per_player``: private part first, player ``p`` pinned to slot ``p - 1``.
   Reported per layout: prompt tokens, tokens served from the cache and
   uncached tokens per call, from the second step on (the first fills the
   caches), and seconds per call.
2. **Batched simultaneous calls.** The same players' calls (each pinned to
   its slot, prompts already cached, ``--max-tokens`` generated each) sent one
   after another, then all at once (the server decodes busy slots in one
   batch): wall seconds and generated tokens per second of each.

    python benchmarks/models/bench_slots.py [--players 6] [--steps 4] [--max-tokens 40]
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from roundtable.models import chat_model, parse_model_spec

RULES = " ".join(
    f"Rule {i}: the leader of quest {i % 5 + 1} proposes a team; every player votes approve or reject; "
    f"a majority approves; good players always play success; evil players may play fail." for i in range(1, 19)
)
ROLES = ["Merlin", "Percival", "a Loyal Servant", "a Loyal Servant", "Morgana", "the Assassin"]


def private(player: int) -> str:
    """A player's private part (~250 tokens): role card, knowledge, notes."""
    role = ROLES[(player - 1) % len(ROLES)]
    notes = " ".join(f"Note {i}: Player {(player + i) % 6 + 1} voted with Player {(player + 2 * i) % 6 + 1}."
                     for i in range(1, 16))
    return f"--- Private to you, Player {player} ---\nYou are {role}. Goal: win for your side.\n{notes}"


def public(step: int) -> str:
    """The public record after ``step`` steps, one line per step."""
    return "\n".join(f"Player {s % 6 + 1} says: I think players {s % 6 + 1} and {(s + 3) % 6 + 1} "
                     f"should go on quest {s % 5 + 1}, because their votes were consistent." for s in range(step))


def messages(player: int, step: int, layout: str) -> list[Any]:
    task = (f"Host: Player {player}, vote on the team of players 1 and 4. "
            "Give your reason in two long sentences, then approve or reject.")
    parts = [private(player), public(step)] if layout == "per_player" else [public(step), private(player)]
    return [SystemMessage(RULES), HumanMessage("\n\n".join(parts) + "\n\n" + task)]


def call(player: int, step: int, layout: str, max_tokens: int) -> dict[str, float]:
    slot = player - 1 if layout == "per_player" else 0
    model = chat_model(parse_model_spec("local"), 0.0, max_tokens, slot=slot)
    started = time.perf_counter()
    reply = model.invoke(messages(player, step, layout))
    usage = reply.usage_metadata or {}
    prompt = usage.get("input_tokens", 0)
    cached = (usage.get("input_token_details") or {}).get("cache_read", 0)
    return {"prompt": prompt, "cached": cached, "uncached": prompt - cached,
            "generated": usage.get("output_tokens", 0), "seconds": time.perf_counter() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--steps", type=int, default=4)
    parser.add_argument("--max-tokens", type=int, default=40)
    args = parser.parse_args()
    players = range(1, args.players + 1)
    print("| layout | calls | prompt tok per call | cached | uncached | s per call |\n|---|---|---|---|---|---|")
    for layout in ("shared", "per_player"):
        rows = []
        for step in range(1, args.steps + 1):
            for player in players:
                result = call(player, step, layout, 8)
                if step > 1:
                    rows.append(result)
        mean = {k: statistics.mean(r[k] for r in rows) for k in rows[0]}
        print(f"| {layout} | {len(rows)} | {mean['prompt']:.0f} | {mean['cached']:.0f} | {mean['uncached']:.0f} "
              f"| {mean['seconds']:.2f} |")
    step = args.steps + 1
    for player in players:  # fill each slot with this step's prompt, so both runs below only decode
        call(player, step, "per_player", 1)
    print("\n| calls | how | wall s | generated tok | generated tok/s |\n|---|---|---|---|---|")
    started = time.perf_counter()
    sequential = [call(p, step, "per_player", args.max_tokens) for p in players]
    wall = time.perf_counter() - started
    generated = sum(r["generated"] for r in sequential)
    print(f"| {args.players} | one after another | {wall:.1f} | {generated} | {generated / wall:.1f} |")
    started = time.perf_counter()
    with ThreadPoolExecutor(args.players) as pool:
        batched = list(pool.map(lambda p: call(p, step, "per_player", args.max_tokens), players))
    wall = time.perf_counter() - started
    generated = sum(r["generated"] for r in batched)
    print(f"| {args.players} | all at once (one batch) | {wall:.1f} | {generated} | {generated / wall:.1f} |")


if __name__ == "__main__":
    main()
