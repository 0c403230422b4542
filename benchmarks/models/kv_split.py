"""Whether the embedded server's slots should share one KV cache (``kv_unified``) or each keep its own.

With one unified KV cache, every decode attends over the cells of all slots (masked to its own), so when six
players' slots each hold a ~2,200-token prompt, a call's attention spans about six times its own context. With
split caches (llama.cpp's default), each slot has ``n_ctx / n_parallel`` tokens of its own and attends only to
them. This fills ``--players`` slots with game-shaped prompts (a shared rules system message, then a private line
and public lines per player), then lets each slot process ``--lines`` new lines and generate ``--max-tokens``
tokens, twice, one call at a time, and prints llama.cpp's own timings for each call, under both settings in turn
(each in a fresh server with the embedded model's other settings, `roundtable.models.local.server_params`).

    python benchmarks/models/kv_split.py [--players 6] [--fill-lines 40] [--lines 8] [--max-tokens 40]
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import httpx

from roundtable.models.local import LocalSettings, server_params
from roundtable.models.weights import ensure_weights

RULES = " ".join(
    f"Rule {i}: the leader of quest {i % 5 + 1} proposes a team; every player votes approve or reject; "
    "a majority approves." for i in range(40)
)


def line(speaker: int, i: int) -> str:
    """One public line (~30 tokens)."""
    return (f"Player {speaker} line {i}: I think players {i % 6 + 1} and {(i + speaker) % 6 + 1} should go on "
            "the quest because their votes were consistent so far.")


def messages(player: int, lines: int) -> list[dict[str, str]]:
    """Player ``player``'s prompt after ``lines`` public lines."""
    body = "\n".join(line(i % 6 + 1, i) for i in range(lines))
    return [{"role": "system", "content": RULES},
            {"role": "user", "content": f"--- Private to you, Player {player} ---\nYou are player {player}, "
                                        f"secret {player * 7919}.\n{body}\nHost: vote now, with a reason."}]


def run(unified: bool, args: argparse.Namespace) -> dict[str, float]:
    """One server with ``kv_unified=unified``: fill the slots, then two steps per slot; the steps' mean rates."""
    import xllamacpp

    settings = LocalSettings.from_env().model_copy(update={"kv_unified": unified})
    server = xllamacpp.Server(server_params(ensure_weights(), settings))
    address = server.listening_address.rstrip("/")

    def call(slot: int, lines: int, max_tokens: int) -> dict[str, Any]:
        started = time.perf_counter()
        body = {"model": "local", "messages": messages(slot + 1, lines), "max_tokens": max_tokens,
                "id_slot": slot, "temperature": 0, "seed": 1}
        reply = httpx.post(f"{address}/v1/chat/completions", json=body, timeout=900).json()
        timings = reply.get("timings", {})
        return {"slot": slot, "prompt": reply["usage"]["prompt_tokens"],
                "cached": reply["usage"].get("prompt_tokens_details", {}).get("cached_tokens", 0),
                "seconds": time.perf_counter() - started, "pp": timings.get("prompt_per_second", 0.0),
                "tg": timings.get("predicted_per_second", 0.0)}

    for slot in range(args.players):
        call(slot, args.fill_lines, 1)
    steps = []
    for step in (1, 2):
        for slot in range(args.players):
            result = call(slot, args.fill_lines + step * args.lines, args.max_tokens)
            steps.append(result)
            print(f"kv_unified={unified} step {step} slot {slot}: {result['prompt']} prompt tokens "
                  f"({result['cached']} cached), {result['seconds']:.2f} s, {result['pp']:.1f} prompt tok/s, "
                  f"{result['tg']:.1f} generated tok/s", flush=True)
    del server
    return {"seconds": statistics.mean(s["seconds"] for s in steps), "pp": statistics.mean(s["pp"] for s in steps),
            "tg": statistics.mean(s["tg"] for s in steps)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--fill-lines", type=int, default=40, help="public lines in each slot's first prompt")
    parser.add_argument("--lines", type=int, default=8, help="new public lines per step")
    parser.add_argument("--max-tokens", type=int, default=40)
    args = parser.parse_args()
    rows = {unified: run(unified, args) for unified in (True, False)}
    print("\n| KV cache | s per call | prompt tok/s | generated tok/s |\n|---|---:|---:|---:|")
    for unified, row in rows.items():
        print(f"| {'unified' if unified else 'split per slot'} | {row['seconds']:.2f} | {row['pp']:.1f} | "
              f"{row['tg']:.1f} |")


if __name__ == "__main__":
    main()
